"""Deal the unseen cards to the other three hands, consistently with what the seat knows."""

from __future__ import annotations

import random

from ..cards import CardSet, cards_of
from .knowledge import Knowledge


def sample_hands(k: Knowledge, rng: random.Random,
                 tries: int = 30) -> tuple[list[CardSet], bool]:
    """Hands for all four seats (the seat's own is its real hand) and whether every constraint
    holds. The most constrained cards are placed first, each to a seat drawn in proportion to
    the room left in it; a dead end restarts. If ``tries`` restarts all fail (facts that
    contradict each other cannot come from a real deal, but stay safe), the exclusions are
    dropped for the cards that could not be placed."""
    others = [s for s in range(4) if s != k.seat]
    free = k.unseen
    for s in others:
        free &= ~k.known[s]
    cards = list(cards_of(free))
    allowed = {c: [s for s in others if not k.excluded[s] >> c & 1] for c in cards}
    need0 = {s: k.counts[s] - k.known[s].bit_count() for s in others}
    for attempt in range(tries + 1):
        relaxed = attempt == tries
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        need = dict(need0)
        hands = list(k.known)
        hands[k.seat] = k.hand
        ok = True
        for c in order:
            seats = [s for s in allowed[c] if need[s] > 0]
            if not seats:
                if not relaxed:
                    ok = False
                    break
                seats = [s for s in others if need[s] > 0]
            total = sum(need[s] for s in seats)
            pick = rng.randrange(total)
            for s in seats:
                pick -= need[s]
                if pick < 0:
                    break
            hands[s] |= 1 << c
            need[s] -= 1
        if ok:
            return hands, not relaxed or all(
                not hands[s] & k.excluded[s] for s in others)
    raise AssertionError("unreachable: the relaxed attempt always completes")
