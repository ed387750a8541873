"""Par: the contract a deck is worth double-dummy, checked against every contract's values."""

from __future__ import annotations

from dataclasses import replace

from game.analysis.par import CAPOT_VALUE, COINCHE_VALUES, dealt, par
from game.analysis.situation import situation_of
from game.analysis.solver import Solver
from game.contract import contract_of
from game.match import Match
from game.rules import Options, Trump, Variant


def test_coinche_par_is_the_highest_bid_made() -> None:
    """Without or with the contract played (its suit valued first, the other suits tested
    together above the levels it settles): the highest bid made, by its definition."""
    variant = Variant.COINCHE
    options = Options.for_variant(variant)
    deck = Match(variant).new_deck(50)
    found = par(variant, options, 0, deck)
    assert found.contract is not None
    for played in (contract_of(1, Trump.CLUBS, 90), contract_of(3, Trump.HEARTS, 80, 2),
                   found.contract):
        assert par(variant, options, 0, deck, played=played) == found
    solver = Solver()
    made: dict[tuple[int, Trump], int] = {}  # (team, suit) -> the highest value made
    scores = {}
    for trump in (Trump.CLUBS, Trump.DIAMONDS, Trump.HEARTS, Trump.SPADES):
        sit = situation_of(dealt(variant, options, 0, deck, 1, trump))
        for seat in (1, 2):
            for value in (*COINCHE_VALUES, CAPOT_VALUE):
                c = contract_of(seat, trump, value)
                score = solver.score(replace(sit, contract=c), seat & 1)
                scores[c] = score
                if score > 0:
                    made[(seat & 1, trump)] = value
    assert found.contract is not None
    top = max(made.values())
    assert found.contract.value == top
    # No side makes a higher bid, and par's score is its contract's own.
    key = (found.contract.team, found.contract.trump)
    assert made[key] == top
    assert found.score == max(s for c, s in scores.items()
                              if c.value == top and c.team == found.contract.team)
    assert found.score_for(found.contract.team) == found.score
    assert found.score_for(1 - found.contract.team) == -found.score


def _bulgarian_par_by_definition(deck: list[int]) -> tuple[object, int]:
    """Every contract of one seat of each side (the first two to speak) valued: the side of the
    highest-ranked one made, its best made contract ranked above the other side's best."""
    variant = Variant.BULGARIAN
    options = Options.for_variant(variant)
    solver = Solver()
    made = []
    for trump in Trump:
        sit = situation_of(dealt(variant, options, 0, deck, 1, trump))
        for seat in (1, 2):
            c = contract_of(seat, trump)
            score = solver.score(replace(sit, contract=c), seat & 1)
            if score > 0:
                made.append((c, score))
    if not made:
        return (None, 0)
    side = max(made, key=lambda m: m[0].trump)[0].team
    floor = max((c.trump for c, _s in made if c.team != side), default=-1)
    return max(((c, s) for c, s in made if c.team == side and c.trump > floor),
               key=lambda m: m[1])


def test_bulgarian_par_tests_only_what_the_answer_needs() -> None:
    """From the highest rank down, nothing below the other side's best made contract tested,
    the side's contracts bisected on their score, the contract played (either side's) valued
    first: the par of the definition."""
    variant = Variant.BULGARIAN
    options = Options.for_variant(variant)
    answers = set()
    for seed in (10, 11):  # team 1's hearts, team 0's all trumps
        deck = Match(variant).new_deck(seed)
        expected = _bulgarian_par_by_definition(deck)
        answers.add(expected[0])
        for played in (None, contract_of(0, Trump.ALL_TRUMPS, None, 4),
                       contract_of(3, Trump.HEARTS)):
            found = par(variant, options, 0, deck, played=played)
            assert (found.contract, found.score) == expected
    assert len(answers) == 2
