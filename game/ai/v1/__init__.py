"""A frozen copy of the first hard level (its play, its rules of thumb and its bidding), kept
only so bench/arena.py can measure the current hard level against it. Not offered to players."""
