"""Where decks come from: a seeded shuffle, or the previous deal gathered, mixed and cut.

A deck is stored in the game record, so these only matter when a new deal starts; a replay never
shuffles (a record written when `cut` was a bare cut replays as it was). The randomness is
BLAKE2b of (seed, deal number): stable across Python versions and platforms, and cheap (one hash
per deal rather than a Mersenne Twister seeded per deal).
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


# Riffles before the cut (issue 48). The gathered cards are public (the tricks, in the order
# played): a bare cut has 27 outcomes and a seat's own cards pin it, and with it every other
# hand. Two riffles leave the deck in at most four runs of the gathered order, so a trick's
# cards still tend to arrive together (the feel of an unshuffled deck), while a seat's hand is
# consistent with a vast number of decks (tests/game/test_cut_hidden.py).
CUT_RIFFLES = 2


def _cut_entropy(seed: int, deal_index: int) -> int:
    # 1,024 bits, apart from the shuffle's: two riffles and a cut draw about 300 bits of
    # mixed-radix digits, so each digit is uniform to within 2**-700.
    parts = (hashlib.blake2b(f"belote-cut:{seed}:{deal_index}:{i}".encode(),
                             digest_size=64).digest() for i in range(2))
    return int.from_bytes(b"".join(parts), "big")


def _riffle(deck: list[Card], x: int) -> tuple[list[Card], int]:
    """One riffle (the Gilbert-Shannon-Reeds model, a person's riffle): split where 32 fair
    coins say, then drop the next card from a packet with probability its share of the cards
    left. Returns the riffled deck and the entropy not used."""
    split = (x & 0xFFFFFFFF).bit_count()
    x >>= 32
    left, right = deck[:split], deck[split:]
    out: list[Card] = []
    i = j = 0
    a, b = len(left), len(right)
    while a and b:
        x, r = divmod(x, a + b)
        if r < a:
            out.append(left[i])
            i += 1
            a -= 1
        else:
            out.append(right[j])
            j += 1
            b -= 1
    out += left[i:]
    out += right[j:]
    return out, x


def cut_deck(gathered: Sequence[Card], seed: int, deal_index: int) -> list[Card]:
    """The gathered cards riffled CUT_RIFFLES times, then cut at a seeded place leaving at least
    3 cards on either side. Every step is secret (drawn from the table's seed, which no player
    sees): what a player holds leaves the other hands open."""
    if sorted(gathered) != list(range(32)):
        raise ValueError("a deck is the 32 cards, each once")
    x = _cut_entropy(seed, deal_index)
    deck = list(gathered)
    for _ in range(CUT_RIFFLES):
        deck, x = _riffle(deck, x)
    at = 3 + x % 27
    return [*deck[at:], *deck[:at]]
