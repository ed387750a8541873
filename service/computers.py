"""Computer players for the seats no person plays."""

from __future__ import annotations

import random

from game.ai import LEVELS, make_ai
from game.players import Player, RandomPlayer

# A mark the table image can draw too (the shipped DejaVu Sans has no emoji).
COMPUTER_MARK = "⚙"


def available_levels() -> tuple[str, ...]:
    """The levels a host may choose for the computers (game.ai.LEVELS)."""
    return LEVELS


def make_player(level: str, seed: int) -> Player:
    """The computer of ``level``: random legal play for "random", else the AI of that level."""
    if level == "random":
        return RandomPlayer(seed)
    return make_ai(level, seed)


# One short name per seat (South, East, North, West): the computers at a table are told
# apart ("by ⚙ Remy" says which seat took), the names fit on the images, and a seat's
# computer keeps its name across restarts. Distinct initials, so they read apart at a glance.
COMPUTER_NAMES = ("Sam", "Remy", "Nora", "Lou")


def computer_name(seat: int) -> str:
    """The name a computer goes by at ``seat`` on the images, the sheets and in the texts.

    Derived from the seat, never read from the seat's row: rows written by older versions
    say "⚙ Computer (easy)", and they show the new names without rewriting anything."""
    return f"{COMPUTER_MARK} {COMPUTER_NAMES[seat]}"


def computer_label(seat: int, level: str) -> str:
    """The name with its level, where the level helps (the lobby, the rules card)."""
    return f"{computer_name(seat)} ({level})"


def seat_seed(table_seed: int, seat: int) -> int:
    return random.Random(table_seed * 4 + seat).getrandbits(32)
