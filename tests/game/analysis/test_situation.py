"""Situation: the solver's view of a deal, checked against real deals of the rules core, and the
solver's bit-set legality checked against game.deal.legal_play."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from game.actions import Play
from game.analysis.search import Search
from game.analysis.situation import situation_of
from game.cards import cards_of
from game.deal import legal_play, play_tables
from game.rules import Trump, Variant
from tests.game.analysis.helpers import random_deal


@pytest.mark.parametrize("variant", list(Variant))
def test_after_follows_the_real_deal_card_by_card(variant: Variant) -> None:
    for seed in range(12):
        match, deal = random_deal(variant, seed)
        rng = random.Random(seed)
        sit = situation_of(deal, hanging=match.hanging)
        while not deal.is_over:
            assert sit.legal() == deal.legal_cards()
            card = rng.choice(list(cards_of(deal.legal_cards())))
            sit = sit.after(card)
            deal.apply(Play(card))
            if not deal.is_over:
                real = situation_of(deal, hanging=match.hanging)
                assert (sit.hands, sit.leader, sit.trick, sit.points, sit.tricks) == \
                    (real.hands, real.leader, real.trick, real.points, real.tricks)
                if deal.tricks:
                    assert (sit.announced, sit.belote, sit.pending) == \
                        (real.announced, real.belote, real.pending)
        result = match.results[-1]
        assert sit.is_over
        assert sit.points == result.card_points
        # Each seat announced its best (the default) and called its belote: the
        # situation's score is the match's.
        assert sit.final_score() == result.score[0] - result.score[1]


def test_held_points_go_to_the_deals_winner() -> None:
    for seed in range(6):
        _match, deal = random_deal(Variant.CLASSIC, seed, 4)
        sit = situation_of(deal)
        while not deal.is_over:  # the last trick: every card forced
            card = deal.legal_cards().bit_length() - 1
            sit = sit.after(card)
            deal.apply(Play(card))
        assert deal.score is not None
        played = deal.score.score
        for held in (0, 17):
            diff = replace(sit, hanging=held).final_score()
            if deal.score.outcome.value == "litige" or played[0] == played[1]:
                assert diff == played[0] - played[1]
            else:
                sign = 1 if played[0] > played[1] else -1
                assert diff == played[0] - played[1] + sign * held


def test_a_situation_refuses_an_illegal_card() -> None:
    _match, deal = random_deal(Variant.CLASSIC, 3)
    sit = situation_of(deal)
    held = sit.hands[sit.to_act]
    not_held = next(c for c in range(32) if not held >> c & 1)
    with pytest.raises(ValueError):
        sit.after(not_held)


def test_a_deal_in_its_bidding_has_no_situation() -> None:
    from game.match import Match

    match = Match(Variant.COINCHE)
    deal = match.start_deal(match.new_deck(1))
    with pytest.raises(ValueError):
        situation_of(deal)


@pytest.mark.parametrize("trump", list(Trump))
@pytest.mark.parametrize("undertrump", [False, True])
def test_bitset_legality_is_legal_play(trump: Trump, undertrump: bool) -> None:
    """The search's legality against the rules core's, on random hands and tricks."""
    rng = random.Random(int(trump) * 2 + undertrump)
    search = Search(trump, undertrump)
    _strength, _points, above = play_tables(trump)
    trump_cards = search.trump_cards
    for _ in range(3000):
        cards = rng.sample(range(32), rng.randint(2, 11))
        k = rng.randint(1, 3)
        trick, hand_cards = cards[:k], cards[k:]
        hand = sum(1 << c for c in hand_cards)
        win, win_index = trick[0], 0
        for i, c in enumerate(trick):
            if i and search.beaters[win] >> c & 1:
                win, win_index = c, i
        expected = legal_play(hand, trick, win, win_index, trump_cards, search.tsm, above,
                              undertrump)[0]
        partner_winning = not (k - win_index) & 1
        assert search.legal(hand, trick[0], win, partner_winning) == expected
