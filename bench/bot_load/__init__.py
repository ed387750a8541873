"""The parts of bench/bench_bot.py: the bot's process (bot_side), the players in the fake
Discord's process (players), and the figures both use (figures)."""
