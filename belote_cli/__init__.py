"""The ``belote`` command line: game records replayed, legal actions, simulations (and images,
added by the rendering package). It reads files and prints; the rules core in game/ does not."""
