"""Where decks come from: a seeded shuffle, or the previous deal gathered and cut (seed 002).

A deck is stored in the game record, so these only matter when a new deal starts; a replay never
shuffles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card


def _rng(seed: int, deal_index: int) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and platforms.
    return random.Random(f"belote:{seed}:{deal_index}")


def shuffled_deck(seed: int, deal_index: int) -> list[Card]:
    deck = list(range(32))
    _rng(seed, deal_index).shuffle(deck)
    return deck


def cut_deck(gathered: Sequence[Card], seed: int, deal_index: int) -> list[Card]:
    """Cut the gathered cards at a seeded place, leaving at least 3 cards on either side."""
    if sorted(gathered) != list(range(32)):
        raise ValueError("a deck is the 32 cards, each once")
    at = _rng(seed, deal_index).randint(3, 29)
    return [*gathered[at:], *gathered[:at]]
