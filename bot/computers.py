"""Computer players for the seats no person plays."""

from __future__ import annotations

import logging
import random

from game.players import Player, RandomPlayer

log = logging.getLogger(__name__)

# A mark the table image can draw too (the shipped DejaVu Sans has no emoji).
COMPUTER_MARK = "⚙"


def available_levels() -> tuple[str, ...]:
    try:
        from game import ai
    except ImportError:
        return ("random",)
    return tuple(getattr(ai, "LEVELS", ("easy", "hard")))


def make_player(level: str, seed: int) -> Player:
    """The computer of ``level``; random legal play when the AI package is not installed."""
    if level != "random":
        try:
            from game.ai import make_ai
        except ImportError:
            log.warning("game.ai is not available: computers play random legal cards")
        else:
            return make_ai(level, seed)
    return RandomPlayer(seed)


def computer_name(level: str) -> str:
    return f"{COMPUTER_MARK} Computer ({level})"


def seat_seed(table_seed: int, seat: int) -> int:
    return random.Random(table_seed * 4 + seat).getrandbits(32)
