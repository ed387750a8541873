"""What a seat deduces about hidden hands is true, and sampled hands respect it."""

from __future__ import annotations

import random

import pytest

from game.actions import Pass, Take
from game.ai import make_ai
from game.ai.easy import play_rules
from game.ai.knowledge import read_knowledge
from game.ai.sampling import sample_hands
from game.cards import SUIT_MASKS, parse_card
from game.match import Match
from game.players import RandomPlayer
from game.rules import Variant
from game.view import Stage

from .helpers import views_of_deal


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("undertrump", [False, True])
def test_deductions_hold_and_samples_respect_them(variant: Variant, undertrump: bool) -> None:
    rng = random.Random(3)
    options = {} if variant is Variant.BULGARIAN else {"must_undertrump": undertrump}
    # Random players break rules of thumb, so they reveal the most (and the most unusual) facts.
    players = [RandomPlayer(i) if i % 2 else make_ai("easy", i) for i in range(4)]
    excluded_seen = 0
    for d in range(12):
        match = Match(variant, options)
        for seat, view in views_of_deal(match, players, d):
            if view.stage is not Stage.PLAY:
                continue
            deal = match.deal
            assert deal is not None
            k = read_knowledge(view, play_rules(view))
            for s in range(4):
                if s == seat:
                    continue
                assert k.known[s] & ~deal.hands[s] == 0, "a card said to be held is not"
                assert k.excluded[s] & deal.hands[s] == 0, "a card said to be absent is held"
                excluded_seen += (k.excluded[s] & k.unseen).bit_count()
            for _ in range(3):
                hands, consistent = sample_hands(k, rng)
                assert consistent
                assert hands[seat] == deal.hands[seat]
                assert [h.bit_count() for h in hands] == [h.bit_count() for h in deal.hands]
                assert hands[0] | hands[1] | hands[2] | hands[3] == k.hand | k.unseen
                for s in range(4):
                    if s != seat:
                        assert hands[s] & k.excluded[s] == 0
                        assert hands[s] & k.known[s] == k.known[s]
    assert excluded_seen > 100  # the deductions are not empty


def _classic_after(cards: list[str], taker_takes: bool = True) -> Match:
    """A classic deal, seat 1 takes hearts, the tricks of ``cards`` played in order."""
    m = Match(Variant.CLASSIC)
    # Deck: seat 1 gets all hearts but 7H, seat 2 all clubs, seat 3 all diamonds, seat 0 all
    # spades; the turned card (deck[20]) is the 7 of hearts, so seat 1 takes it.
    by_seat = {1: "8H 9H TH JH QH KH AH", 2: "7C 8C 9C TC JC QC KC AC",
               3: "7D 8D 9D TD JD QD KD AD", 0: "7S 8S 9S TS JS QS KS AS"}
    hands = {s: [parse_card(c) for c in v.split()] for s, v in by_seat.items()}
    deck: list[int] = []
    for size in (3, 2):
        for s in (1, 2, 3, 0):
            deck += [hands[s].pop(0) for _ in range(size)]
    deck.append(parse_card("7H"))
    for s in (1, 2, 3, 0):
        deck += [hands[s].pop(0) for _ in range(2 if s == 1 else 3)]
    m.start_deal(deck)
    m.apply(Take() if taker_takes else Pass(), 1)
    from game.actions import Play

    for c in cards:
        m.apply(Play(parse_card(c)))
    return m


def test_a_void_and_the_turned_card_are_known() -> None:
    from game.view import table_view

    m = _classic_after(["AH", "7C"])  # seat 1 leads a trump, seat 2 shows it has none
    view = table_view(m, 3)
    k = read_knowledge(view, play_rules(view))
    hearts = SUIT_MASKS[2] & k.unseen
    assert k.excluded[2] & hearts == hearts
    assert k.known[1] >> parse_card("7H") & 1  # the turned card went to the taker
    rng = random.Random(0)
    for _ in range(20):
        hands, ok = sample_hands(k, rng)
        assert ok and hands[2] & SUIT_MASKS[2] == 0 and hands[1] >> parse_card("7H") & 1
