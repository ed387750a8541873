"""A frozen copy of the first hard level (its play, its rules of thumb and its bidding), kept
only so the benchmarks (bench/arena.py, bench/bench_ai.py, bench/mistakes.py) can measure the
current hard level against it. Not part of the bot: players are never offered it."""

from __future__ import annotations

from game.ai import make_ai
from game.players import Player


def level_player(level: str, seed: int) -> Player:
    """The computer of ``level``: a level of game.ai, or "hard_v1", this frozen copy."""
    if level == "hard_v1":
        from .hard import HardPlayer

        return HardPlayer(seed)
    return make_ai(level, seed)
