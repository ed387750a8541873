"""`shuffle: cut` hides the deck (issue 48, docs/rules.md "Shuffling").

The gathered cards are public: every trick was seen in the order played. A bare cut of them has
27 outcomes, and a seat's own hand picks the one dealt, so it gave every other hand. The deck is
now riffled in secret before the cut; a seat's hand, read against the gathered cards, no longer
gives the others.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from game.cards import cards_of
from game.deck import CUT_RIFFLES, cut_deck
from game.match import Match
from game.players import RandomPlayer, play_deal
from game.rules import Variant

from .helpers import action

VARIANTS = ["classic", "coinche", "bulgarian"]
SEEDS = range(40)


def _played_deal(variant: str, seed: int) -> tuple[Match, list[int]]:
    """A match with one deal played out by random players (tricks played, not passed), and
    the cards gathered from it: its tricks in the order played."""
    for attempt in range(100):
        m = Match(variant, {"shuffle": "cut"}, first_dealer=seed & 3)
        players = [RandomPlayer(seed * 1000 + attempt * 4 + s) for s in range(4)]
        play_deal(m, players, seed * 1000 + attempt)
        last = m.deals[-1]
        if last.tricks:
            return m, [c for t in last.tricks for c in t.cards]
    raise AssertionError("no deal was played")


def _layouts(variant: str, dealer: int) -> list[list[frozenset[int]]]:
    """Which deck positions each seat ends up holding, one layout per way the deal can go:
    classic has one per taker (the turned card, position 20, goes to the taker), the others
    one. Read from the real deal of a deck whose card at position p is card p."""
    out = []
    takers = range(4) if variant == "classic" else range(1)
    for taker in takers:
        m = Match(variant, first_dealer=dealer)
        deal = m.start_deal(list(range(32)))
        if variant == "classic":
            steps = ["pass"] * taker + ["take"]
        elif variant == "bulgarian":
            steps = ["bid C", "pass", "pass", "pass"]
        else:
            steps = []
        for step in steps:
            m.apply(action(Variant(variant), step))
        out.append([frozenset(cards_of(deal.hands[s])) for s in range(4)])
    return out


def _seen(variant: str, layout: Sequence[frozenset[int]], seat: int,
          deck: Sequence[int]) -> tuple[frozenset[int], int | None]:
    """What a seat knows of a deck under a layout: its 8 cards, and the turned card (classic)."""
    return frozenset(deck[p] for p in layout[seat]), deck[20] if variant == "classic" else None


def _others(layout: Sequence[frozenset[int]], seat: int,
            deck: Sequence[int]) -> list[frozenset[int]]:
    return [frozenset(deck[p] for p in layout[s]) for s in range(4) if s != seat]


def _riffle_reachable(gathered: Sequence[int], deck: Sequence[int]) -> bool:
    """Whether cut_deck can deal ``deck`` from ``gathered`` (with some positive chance): undone
    at one of its 27 cuts, it is at most 2**CUT_RIFFLES interleaved runs of the gathered order
    (the rising sequences of a riffle: every such order has a positive chance)."""
    where = {c: i for i, c in enumerate(gathered)}
    for at in range(3, 30):
        uncut = [*deck[-at:], *deck[:-at]]
        pos = [0] * 32
        for p, c in enumerate(uncut):
            pos[where[c]] = p
        runs = 1 + sum(pos[i + 1] < pos[i] for i in range(31))
        if runs <= 1 << CUT_RIFFLES:
            return True
    return False


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seat_reading_the_gathered_cards_against_its_hand_misses_the_other_hands(
        variant: str) -> None:
    # The attack the bare cut allowed: try the 27 cuts of the gathered cards, keep those that
    # deal this seat what it holds (and turn the card turned; in classic the taker is known
    # too), read the other hands off them.
    recovered = 0
    for seed in SEEDS:
        m, gathered = _played_deal(variant, seed)
        deck = m.new_deck(seed)
        layouts = _layouts(variant, m.next_dealer)
        truth = layouts[0] if variant != "classic" else layouts[seed & 3]
        for seat in range(4):
            seen = _seen(variant, truth, seat, deck)
            guesses = {tuple(_others(truth, seat, cut))
                       for at in range(3, 30)
                       for cut in [[*gathered[at:], *gathered[:at]]]
                       if _seen(variant, truth, seat, cut) == seen}
            if guesses == {tuple(_others(truth, seat, deck))}:
                recovered += 1
    assert recovered == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seat_s_cards_are_consistent_with_several_deals_of_the_others(variant: str) -> None:
    # Decks cut_deck can deal from the same gathered cards that give this seat the very same
    # cards (and the same turned card) but other hands to the others: two cards of two other
    # seats swapped. There are always several.
    for seed in range(12):
        m, gathered = _played_deal(variant, seed)
        deck = m.new_deck(seed)
        assert _riffle_reachable(gathered, deck)
        truth = _layouts(variant, m.next_dealer)[seed & 3 if variant == "classic" else 0]
        for seat in range(4):
            owner = {p: s for s in range(4) for p in truth[s]}
            free = [p for p in range(32) if owner[p] != seat and not
                    (variant == "classic" and p == 20)]
            others = {tuple(_others(truth, seat, deck))}
            for i, a in enumerate(free):
                for b in free[i + 1:]:
                    if owner[a] == owner[b]:
                        continue
                    alt = list(deck)
                    alt[a], alt[b] = alt[b], alt[a]
                    if _riffle_reachable(gathered, alt):
                        assert _seen(variant, truth, seat, alt) == _seen(variant, truth, seat,
                                                                        deck)
                        others.add(tuple(_others(truth, seat, alt)))
            assert len(others) > 2, (variant, seed, seat)


def test_the_riffles_keep_some_of_the_tricks_together() -> None:
    # The feel of `cut`: a riffle keeps the gathered order within each of its packets, so many
    # cards are still followed by the card that followed them in the tricks (a quarter of
    # them); after a fresh shuffle, one in 31.
    rng = random.Random(5)
    kept = 0
    for seed in range(200):
        gathered = list(range(32))
        rng.shuffle(gathered)
        deck = cut_deck(gathered, seed, 1)
        after = {deck[i]: deck[(i + 1) % 32] for i in range(32)}
        kept += sum(after[gathered[i]] == gathered[i + 1] for i in range(31))
    assert kept / (200 * 31) > 0.2


def test_an_old_record_dealt_by_a_bare_cut_still_replays_and_deals_on() -> None:
    # A table in progress when the bot is upgraded: its record holds decks the bare cut dealt.
    # Replayed from its record the deal is the same; its next deck comes from the new cut.
    from game.record import replay, to_record

    m, gathered = _played_deal("coinche", 3)
    old = [*gathered[7:], *gathered[:7]]  # what the bare cut dealt
    m.start_deal(old)
    record = to_record(m)
    again = replay(record)
    assert again.deals[-1].deck == tuple(old)
    assert [d.hands for d in again.deals] == [d.hands for d in m.deals]
    nxt = again.new_deck(11)
    assert sorted(nxt) == list(range(32)) and nxt == m.new_deck(11)
