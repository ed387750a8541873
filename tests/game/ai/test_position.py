"""The playout engine agrees with the rules core card for card, and the exact search is exact."""

from __future__ import annotations

import random

import pytest

from game.actions import Play
from game.ai.position import DealValue, PlayRules, Position, key_value, outcome_key
from game.ai.search import Solver
from game.cards import cards_of
from game.deal import Phase
from game.match import Match
from game.players import RandomPlayer
from game.rules import Variant
from game.view import table_view


@pytest.mark.parametrize("variant", list(Variant))
def test_playout_engine_matches_the_deal(variant: Variant) -> None:
    rng = random.Random(5)
    bidders = [RandomPlayer(i) for i in range(4)]
    for n in range(40):
        m = Match(variant, {"target": 10**5})
        m.start_deal(m.new_deck(n))
        deal = m.deal
        assert deal is not None
        while deal.phase is Phase.BIDDING:
            m.apply(bidders[deal.to_act or 0].choose(table_view(m, deal.to_act)))
        if deal.is_over:
            continue
        assert deal.contract is not None
        pos = Position(PlayRules.of(variant, m.options, deal.contract), deal.hands,
                       deal.to_act or 0, [], (0, 0), (0, 0), 0)
        while not deal.is_over:
            assert pos.to_act == deal.to_act
            assert pos.legal() == deal.legal_cards()
            c = rng.choice(list(cards_of(deal.legal_cards())))
            m.apply(Play(c))
            pos.play(c)
        assert pos.points == deal.won_points
        assert pos.tricks_won == deal.tricks_won


def _minimax(pos: Position) -> int:
    if pos.is_over:
        return outcome_key(pos)
    values = []
    for c in cards_of(pos.legal()):
        child = pos.copy()
        child.play(c)
        values.append(_minimax(child))
    return max(values) if pos.to_act & 1 == 0 else min(values)


def _dealt(variant: Variant, rng: random.Random) -> Position:
    """A random deal's play about to start: a random contract of the variant's, any leader."""
    from game.contract import Contract
    from game.rules import Options, Trump

    trumps = list(Trump) if variant is Variant.BULGARIAN else list(Trump)[:4]
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[k * 8:k * 8 + 8]) for k in range(4)]
    contract = Contract(rng.randrange(4), rng.choice(trumps), 80)
    return Position(PlayRules.of(variant, Options.for_variant(variant), contract), hands,
                    rng.randrange(4), [], (0, 0), (0, 0), 0)


@pytest.mark.parametrize("variant", list(Variant))
def test_alpha_beta_equals_plain_minimax(variant: Variant) -> None:
    rng = random.Random(11)
    for _ in range(25):
        pos = _dealt(variant, rng)
        while pos.n_tricks < 6 or len(pos.trick) < rng.randrange(4):
            pos.play(rng.choice(list(cards_of(pos.legal()))))
        assert Solver().value(pos) == _minimax(pos)


@pytest.mark.parametrize("variant", list(Variant))
def test_the_exact_search_finds_sweeps_and_card_points_as_minimax_does(variant: Variant) -> None:
    """Three cards a hand (the double-dummy search's tables at work, not only its two-card
    endings), some positions with a trick on the table, and positions where one team has
    taken every trick so far, so that a sweep (either team's) is the key minimax finds."""
    from game.ai.position import SWEEP_0, SWEEP_1

    rng = random.Random(29)
    keys: list[int] = []
    while len(keys) < 40:
        pos = _dealt(variant, rng)
        swept = len(keys) % 2 == 0  # every other position: one team took every trick so far
        while pos.n_tricks < 5 or len(pos.trick) < len(keys) % 3:
            pos.play(rng.choice(list(cards_of(pos.legal()))))
        if swept and min(pos.tricks_won) > 0:
            continue
        key = _minimax(pos)
        assert Solver().value(pos) == key
        keys.append(key)
    assert SWEEP_0 in keys or SWEEP_1 in keys
    assert any(k not in (SWEEP_0, SWEEP_1) for k in keys)


def test_deal_value_reads_the_real_scorer() -> None:
    from game.contract import Contract
    from game.rules import Trump

    # Classic: the taker's team (0) with 81 of 162 and no extras is "litige": it scores 0 now.
    v = DealValue(Variant.CLASSIC, Contract(0, Trump.HEARTS), 0, (0, 0), (0, 0))
    assert v(100, None) == 100 - 62
    assert v(60, None) == -162
    assert key_value(v, 1000) == 252
    # Coinche 120 made with 125 points: 120 + 125 against 37.
    c = DealValue(Variant.COINCHE, Contract(1, Trump.SPADES, 120), 1, (0, 0), (0, 0))
    assert c(37, None) == 245 - 37
