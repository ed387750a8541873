"""The solver's shortcuts change no value: the tables one solver keeps across a deal (and across
par's contracts), the sure points of high trumps, two-card endings solved outright, the belots
in play tested through card points, the sweep test answered from the card points' tables and
the highest trump, par's bisection over every contract at once and its floor
from the contract played."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.analysis.par import dealt, par
from game.analysis.situation import Situation, situation_of
from game.analysis.solver import Solver
from game.cards import cards_of, parse_card, to_set
from game.contract import Contract, contract_of
from game.deal import LAST_TRICK_BONUS, Deal, play_tables
from game.match import Match
from game.rules import Options, Trump, Variant
from tests.game.analysis.helpers import brute_points, brute_score, random_deal


@pytest.mark.parametrize("variant", list(Variant))
def test_a_solver_kept_across_a_deal_gives_a_fresh_solvers_values(variant: Variant) -> None:
    for seed in range(3):
        _match, deal = random_deal(variant, 600 + seed, 18)
        sit = situation_of(deal)
        shared = Solver()
        step = 0
        while not sit.is_over:
            got = shared.card_values(sit)
            assert got == Solver().card_values(sit)
            # Down a line that is not always the best, so the shared tables meet positions
            # the earlier searches only bounded.
            ordered = sorted(got, key=lambda v: (v.points, v.card))
            sit = sit.after(ordered[step % len(ordered)].card)
            step += 1


def test_makes_with_belots_in_play_is_the_score_test() -> None:
    """Bulgarian all trumps with a belot still to be won or lost: ``makes`` answers through card
    points where the belots cannot change the answer, else by a test of the score."""
    found = 0
    seed = 0
    while found < 5:
        seed += 1
        _match, deal = random_deal(Variant.BULGARIAN, 8100 + seed, 12)
        if deal.contract is None or deal.contract.trump is not Trump.ALL_TRUMPS:
            continue
        sit = situation_of(deal)
        if not sit.pending:
            continue
        found += 1
        score0 = brute_score(sit)
        solver = Solver()
        for team in (0, 1):
            score = score0 if team == 0 else -score0
            for above in (score - 3, score - 1, score, score + 1, 0, -20):
                assert solver.makes(sit, team, above) == (score > above)
        assert solver.score(sit, 0) == score0


def _exhaustive_classic_par(deck: list[int]) -> tuple[object, int]:
    """Classic par by its definition: every contract valued, the best score, the first offered
    on equal scores (round one's suit by seat, then round two's suits)."""
    variant = Variant.CLASSIC
    options = Options.for_variant(variant)
    probe = Deal(variant, options, 0, deck)
    assert probe.turned_card is not None
    turned = Trump(probe.turned_card >> 3)
    first = 1
    offered = [(i, turned) for i in range(4)]
    offered += [(i, t) for i in range(4) for t in (Trump.CLUBS, Trump.DIAMONDS, Trump.HEARTS,
                                                    Trump.SPADES) if t is not turned]
    best: tuple[object, int] | None = None
    solver = Solver()
    for i, trump in offered:
        seat = (first + i) & 3
        sit = situation_of(dealt(variant, options, 0, deck, seat, trump))
        c = contract_of(seat, trump)
        score = solver.score(replace(sit, contract=c), seat & 1)
        if score > 0 and (best is None or score > best[1]):
            best = (c, score)
    return (None, 0) if best is None else best


def test_classic_par_is_the_best_contract_offered_first() -> None:
    """By bisection over every contract at once, with or without a floor from the contract
    played: the contract of the definition, with its score."""
    variant = Variant.CLASSIC
    options = Options.for_variant(variant)
    deck = Match(variant).new_deck(3)
    expected = _exhaustive_classic_par(deck)
    alone = par(variant, options, 0, deck)
    assert (alone.contract, alone.score) == expected
    for played in (contract_of(2, Trump.HEARTS), expected[0]):
        assert isinstance(played, Contract)
        found = par(variant, options, 0, deck, played=played)
        assert (found.contract, found.score) == expected


def _brute_takes_all(sit: Situation, team: int) -> bool:
    """Whether ``team`` takes every remaining trick whatever the other team plays: every line."""
    if sit.tricks[1 - team] > 0:
        return False
    if sit.is_over:
        return True
    options = [_brute_takes_all(sit.after(c), team) for c in cards_of(sit.legal())]
    return any(options) if sit.to_act & 1 == team else all(options)


@pytest.mark.parametrize("variant", list(Variant))
def test_takes_all_after_the_points_are_known_is_every_lines_answer(variant: Variant) -> None:
    """With the card points' tables filled first, the sweep test may answer from them (a point
    the other team surely takes, or the highest trump in its hands): the same answers."""
    answers = set()
    for seed in range(12):
        _match, deal = random_deal(variant, 9300 + seed, 12)
        sit = situation_of(deal)
        sit = replace(sit, tricks=(0, 0))  # no trick taken yet in this ending: a sweep is open
        solver = Solver()
        solver.future_points(sit)
        for team in (0, 1):
            expected = _brute_takes_all(sit, team)
            assert solver.takes_all(sit, team) == expected
            answers.add(expected)
    assert answers == {True, False}



def _all_trumps_base() -> Situation:
    seed = 0
    while True:
        seed += 1
        _match, deal = random_deal(Variant.BULGARIAN, 9000 + seed, 12)
        if deal.contract is not None and deal.contract.trump is Trump.ALL_TRUMPS:
            return situation_of(deal)


@pytest.mark.parametrize(("hands", "leader", "team"), [
    (("8C 9C 7S", "8D QH KH", "7C TH AH", "QC 7D 7H"), 1, 0),
    (("8C TD AD", "JD 7S 9S", "7C QH KH", "7D 8D 8S"), 0, 1),
])
def test_the_score_where_a_team_takes_every_point_but_not_every_trick(
        hands: tuple[str, str, str, str], leader: int, team: int) -> None:
    """Bulgarian all trumps, the hearts belot still in play, ``team`` has taken every trick
    so far and can take every point left but not every trick (the other team can take a
    trick of sevens and eights): the score's search, which asks whether a team that takes
    every point can sweep, finds every line's answer (were the sweep taken for granted, it
    would not)."""
    base = _all_trumps_base()
    cards = [to_set(parse_card(c) for c in h.split()) for h in hands]
    # The points already taken: all those of the cards not in the hands.
    left = base.card_total() - LAST_TRICK_BONUS - sum(
        play_tables(Trump.ALL_TRUMPS)[1][c] for h in cards for c in cards_of(h))
    sit = replace(base, hands=(cards[0], cards[1], cards[2], cards[3]), leader=leader,
                  trick=(), points=(left, 0) if team == 0 else (0, left),
                  tricks=(5, 0) if team == 0 else (0, 5), announced=(0, 0), belote=(0, 0),
                  pending=(2,), hanging=0)
    solver = Solver()
    assert solver.card_points(sit, team) == sit.card_total()
    assert not solver.takes_all(sit, team)
    assert solver.score(sit, 0) == brute_score(sit)
    sign = 1 if sit.to_act & 1 == 0 else -1
    assert [v.score for v in Solver().card_values(sit)] == [
        sign * brute_score(sit.after(c)) for c in cards_of(sit.legal())]



@pytest.mark.parametrize("variant", list(Variant))
def test_two_card_endings_solved_outright_are_every_lines_value(variant: Variant) -> None:
    """The last two tricks valued by their own loop (cut where no line can change the best)
    give the brute force's points, whoever leads them, under both under-trumping rules."""
    checked = 0
    seed = 0
    while checked < 60:
        seed += 1
        rng_opts = {"announcements": False}
        if variant is not Variant.BULGARIAN:
            rng_opts["must_undertrump"] = seed % 2 == 0
        _match, deal = random_deal(variant, 7100 + seed, 8, rng_opts)
        sit = situation_of(deal)
        for leader in range(4):
            other = replace(sit, leader=leader)
            assert Solver().card_points(other, 0) == brute_points(other), (seed, leader)
            checked += 1
