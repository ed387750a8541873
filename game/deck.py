"""Where decks come from: a seeded shuffle, or the previous deal gathered and cut (seed 002).

A deck is stored in the game record, so these only matter when a new deal starts; a replay never
shuffles. The randomness is BLAKE2b of (seed, deal number): stable across Python versions and
platforms, and cheap (one hash per deal rather than a Mersenne Twister seeded per deal).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .cards import Card


def _entropy(seed: int, deal_index: int) -> int:
    # 512 bits: far more than the 118 bits of 32!, so the modulo steps below are unbiased to
    # within 2**-390.
    digest = hashlib.blake2b(f"belote:{seed}:{deal_index}".encode(), digest_size=64).digest()
    return int.from_bytes(digest, "big")


def _digit_groups() -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """The Fisher-Yates steps (position i, radix i + 1) from 31 down, in groups whose radices
    multiply to less than 2**30: one division of the big number per group, then divisions of a
    one-digit int (cheaper) give the group's steps. The same digits as dividing step by step."""
    groups = []
    i = 31
    while i > 0:
        steps = []
        product = 1
        while i > 0 and product * (i + 1) < 1 << 30:
            steps.append((i, i + 1))
            product *= i + 1
            i -= 1
        groups.append((product, tuple(steps)))
    return tuple(groups)


_GROUPS = _digit_groups()


def shuffled_deck(seed: int, deal_index: int) -> list[Card]:
    """A uniformly shuffled deck (Fisher-Yates driven by the hash)."""
    x = _entropy(seed, deal_index)
    deck = list(range(32))
    for product, steps in _GROUPS:
        r = x % product
        x //= product
        for i, radix in steps:
            # % and // on a one-digit int: cheaper than a divmod call and its tuple.
            j = r % radix
            r //= radix
            deck[i], deck[j] = deck[j], deck[i]
    return deck


def cut_deck(gathered: Sequence[Card], seed: int, deal_index: int) -> list[Card]:
    """Cut the gathered cards at a seeded place, leaving at least 3 cards on either side."""
    if sorted(gathered) != list(range(32)):
        raise ValueError("a deck is the 32 cards, each once")
    at = 3 + _entropy(seed, deal_index) % 27
    return [*gathered[at:], *gathered[:at]]
