"""Computer players. ``make_ai(level, seed)`` gives a Player (game.players) for a seat.

Levels: ``easy`` (hand evaluator and rules of thumb, instant) and ``hard`` (determinized search:
sampled hidden hands, playouts, exact search near the end; its bids are searched the same
way). Both read only the seat's TableView, and a given seed and view always give the same action.
"""

from __future__ import annotations

from ..players import Player
from .easy import EasyPlayer

LEVELS = ("easy", "hard")


def make_ai(level: str, seed: int = 0) -> Player:
    """A computer player of ``level`` ("easy" or "hard"), deterministic under ``seed``."""
    if level == "easy":
        return EasyPlayer(seed)
    if level == "hard":
        from .hard import HardPlayer

        return HardPlayer(seed)
    raise ValueError(f"unknown computer level {level!r}: use one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "EasyPlayer", "make_ai"]
