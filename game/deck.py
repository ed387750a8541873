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


def shuffled_deck(seed: int, deal_index: int) -> list[Card]:
    """A uniformly shuffled deck (Fisher-Yates driven by the hash): for i from 31 down to 1,
    swap card i with card j, j the next digit of the hash in base i + 1 (dividing the number by
    i + 1 each time; tests/game/test_common.py states it that way).

    Written out, in groups whose radices multiply to less than 2**30: one division of the big
    number per group, then divisions of a one-digit int (cheaper) give the group's digits, the
    last digit of a group being what is left. A loop over the steps cost a fifth more, and every
    deal starts here."""
    x = _entropy(seed, deal_index)
    d = list(range(32))
    # Radices 32 * 31 * ... * 27: positions 31-26.
    r = x % 652458240
    x //= 652458240
    j = r % 32
    r //= 32
    d[31], d[j] = d[j], d[31]
    j = r % 31
    r //= 31
    d[30], d[j] = d[j], d[30]
    j = r % 30
    r //= 30
    d[29], d[j] = d[j], d[29]
    j = r % 29
    r //= 29
    d[28], d[j] = d[j], d[28]
    j = r % 28
    r //= 28
    d[27], d[j] = d[j], d[27]
    d[26], d[r] = d[r], d[26]
    # Radices 26 * 25 * ... * 21: positions 25-20.
    r = x % 165765600
    x //= 165765600
    j = r % 26
    r //= 26
    d[25], d[j] = d[j], d[25]
    j = r % 25
    r //= 25
    d[24], d[j] = d[j], d[24]
    j = r % 24
    r //= 24
    d[23], d[j] = d[j], d[23]
    j = r % 23
    r //= 23
    d[22], d[j] = d[j], d[22]
    j = r % 22
    r //= 22
    d[21], d[j] = d[j], d[21]
    d[20], d[r] = d[r], d[20]
    # Radices 20 * 19 * ... * 14: positions 19-13.
    r = x % 390700800
    x //= 390700800
    j = r % 20
    r //= 20
    d[19], d[j] = d[j], d[19]
    j = r % 19
    r //= 19
    d[18], d[j] = d[j], d[18]
    j = r % 18
    r //= 18
    d[17], d[j] = d[j], d[17]
    j = r % 17
    r //= 17
    d[16], d[j] = d[j], d[16]
    j = r % 16
    r //= 16
    d[15], d[j] = d[j], d[15]
    j = r % 15
    r //= 15
    d[14], d[j] = d[j], d[14]
    d[13], d[r] = d[r], d[13]
    # Radices 13 * 12 * ... * 4: positions 12-3.
    r = x % 1037836800
    x //= 1037836800
    j = r % 13
    r //= 13
    d[12], d[j] = d[j], d[12]
    j = r % 12
    r //= 12
    d[11], d[j] = d[j], d[11]
    j = r % 11
    r //= 11
    d[10], d[j] = d[j], d[10]
    j = r % 10
    r //= 10
    d[9], d[j] = d[j], d[9]
    j = r % 9
    r //= 9
    d[8], d[j] = d[j], d[8]
    j = r % 8
    r //= 8
    d[7], d[j] = d[j], d[7]
    j = r % 7
    r //= 7
    d[6], d[j] = d[j], d[6]
    j = r % 6
    r //= 6
    d[5], d[j] = d[j], d[5]
    j = r % 5
    r //= 5
    d[4], d[j] = d[j], d[4]
    d[3], d[r] = d[r], d[3]
    # Radices 3 * 2: positions 2-1.
    r = x % 6
    j = r % 3
    r //= 3
    d[2], d[j] = d[j], d[2]
    d[1], d[r] = d[r], d[1]
    return d


def cut_deck(gathered: Sequence[Card], seed: int, deal_index: int) -> list[Card]:
    """Cut the gathered cards at a seeded place, leaving at least 3 cards on either side."""
    if sorted(gathered) != list(range(32)):
        raise ValueError("a deck is the 32 cards, each once")
    at = 3 + _entropy(seed, deal_index) % 27
    return [*gathered[at:], *gathered[:at]]
