"""The solver's values against a brute-force minimax of small endings, in every variant and
both measures; a position's value is its best card's; the best card costs nothing."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.analysis.situation import Situation, situation_of
from game.analysis.solver import Solver
from game.rules import Trump, Variant
from tests.game.analysis.helpers import (
    brute_points,
    brute_score,
    brute_takes_all,
    random_deal,
    random_situation,
)


def _check(sit: Situation) -> None:
    solver = Solver()
    points0 = solver.card_points(sit, 0)
    assert points0 == brute_points(sit)
    assert solver.card_points(sit, 1) == sit.card_total() - points0
    score0 = solver.score(sit, 0)
    assert score0 == brute_score(sit)
    assert solver.score(sit, 1) == -score0
    for team in (0, 1):
        assert solver.takes_all(sit, team) == brute_takes_all(sit, team)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("cards_left", [8, 10, 11, 12])
def test_endings_match_the_brute_force(variant: Variant, cards_left: int) -> None:
    for seed in range(8):
        _check(random_situation(variant, seed * 7 + cards_left, cards_left,
                                hanging=(seed % 3) * 8))


def test_four_card_endings_match_the_brute_force() -> None:
    for i, variant in enumerate(Variant):
        _check(random_situation(variant, 500 + i, 16))


def test_bulgarian_all_trumps_belots_still_in_play() -> None:
    """The belots whose first card is yet to be played (won if led or following suit, lost as a
    discard): the score is searched end by end, checked against the brute force."""
    found = 0
    seed = 0
    while found < 6:
        seed += 1
        _match, deal = random_deal(Variant.BULGARIAN, 9000 + seed, 12)
        if deal.contract is None or deal.contract.trump is not Trump.ALL_TRUMPS:
            continue
        sit = situation_of(deal)
        if not sit.pending:
            continue
        found += 1
        _check(sit)


def test_a_sweep_counts_in_the_score() -> None:
    """An ending where one team can take every trick: the score is the capot's (or valat's)."""
    seen = 0
    for seed in range(400):
        sit = random_situation(Variant.CLASSIC, 3000 + seed, 8)
        for team in (0, 1):
            if sit.tricks[1 - team] == 0 and Solver().takes_all(sit, team):
                seen += 1
                _check(sit)
        if seen >= 3:
            break
    assert seen >= 3


@pytest.mark.parametrize("variant", list(Variant))
def test_each_cards_values_and_the_best_cards_cost(variant: Variant) -> None:
    for seed in range(6):
        sit = random_situation(variant, 200 + seed, 13 + seed % 3)
        solver = Solver()
        values = solver.card_values(sit)
        team = sit.to_act & 1
        assert {v.card for v in values} == {c for c in range(32) if sit.legal() >> c & 1}
        # The position's value is its best card's, in both measures.
        assert max(v.points for v in values) == solver.card_points(sit, team)
        assert max(v.score for v in values) == solver.score(sit, team)
        for v in values:
            child = sit.after(v.card)
            assert v.points == (brute_points(child) if team == 0 else
                                child.card_total() - brute_points(child))
            assert v.score == (brute_score(child) if team == 0 else -brute_score(child))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(list(Variant)), st.integers(0, 2**32), st.integers(6, 11),
       st.integers(0, 30))
def test_random_endings(variant: Variant, seed: int, cards_left: int, hanging: int) -> None:
    sit = random_situation(variant, seed, cards_left, hanging)
    _check(sit)
    solver = Solver()
    if not sit.is_over:
        # The value of a position is its best child's, for either team.
        values = solver.card_values(sit)
        team = sit.to_act & 1
        assert max(v.points for v in values) == solver.card_points(sit, team)
        assert max(v.score for v in values) == solver.score(sit, team)


def test_one_solver_serves_a_whole_deal() -> None:
    """The tables kept between situations of one deal change no value."""
    _match, deal = random_deal(Variant.COINCHE, 77, 14)
    sit = situation_of(deal)
    shared = Solver()
    while not sit.is_over:
        fresh = Solver()
        assert shared.card_points(sit, 0) == fresh.card_points(sit, 0)
        assert shared.score(sit, 1) == fresh.score(sit, 1)
        best = max(shared.card_values(sit), key=lambda v: v.score)
        sit = sit.after(best.card)


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.COINCHE])
def test_one_solver_serves_other_layouts_of_the_same_cards(variant: Variant) -> None:
    """A computer's worlds: the same cards in play, held by other hands. The tables, keyed by
    the cards in play within a layout, must tell them apart (and find each one again)."""
    rng = random.Random(5)
    sit = random_situation(variant, 31, 12)
    cards = [c for h in sit.hands for c in range(32) if h >> c & 1]
    sizes = [h.bit_count() for h in sit.hands]
    layouts = []
    for _ in range(6):
        rng.shuffle(cards)
        hands, i = [], 0
        for n in sizes:
            hands.append(sum(1 << c for c in cards[i:i + n]))
            i += n
        layouts.append(replace(sit, hands=(hands[0], hands[1], hands[2], hands[3])))
    shared = Solver()
    for other in layouts + layouts[::-1]:  # each layout met again after the others
        assert shared.card_points(other, 0) == brute_points(other)
        assert shared.score(other, 0) == brute_score(other)
        for team in (0, 1):
            assert shared.takes_all(other, team) == brute_takes_all(other, team)
        assert shared.card_values(other) == Solver().card_values(other)


@pytest.mark.parametrize("variant", list(Variant))
def test_tests_of_a_score_and_of_card_points(variant: Variant) -> None:
    """``makes`` (the score beats the other side's) and ``reaches`` (at least so many card
    points), the cheap tests par uses, agree with the values themselves."""
    for seed in range(10):
        sit = random_situation(variant, 4000 + seed, 8 + seed % 6, hanging=(seed % 4) * 9)
        exact = Solver()
        for team in (0, 1):
            score = brute_score(sit) * (1 - 2 * team)
            assert Solver().makes(sit, team) == (score > 0)
            for above in (score - 1, score, -5, 30):
                assert Solver().makes(sit, team, above) == (score > above)
            best = exact.card_points(sit, team)
            for points in (best - 1, best, best + 1, 81):
                assert Solver().reaches(sit, team, points) == (best >= points)


def test_one_solver_serves_a_bulgarian_all_trumps_deal_with_belots_in_play() -> None:
    """The bounds kept between searches of belots still in play change no value."""
    seed = 0
    while True:
        seed += 1
        _match, deal = random_deal(Variant.BULGARIAN, 7000 + seed, 14)
        sit = situation_of(deal)
        if deal.contract is not None and deal.contract.trump is Trump.ALL_TRUMPS and \
                sit.pending:
            break
    shared = Solver()
    while not sit.is_over:
        assert shared.score(sit, 0) == Solver().score(sit, 0) == brute_score(sit)
        values = shared.card_values(sit)
        sit = sit.after(min(values, key=lambda v: (v.score, v.card)).card)
