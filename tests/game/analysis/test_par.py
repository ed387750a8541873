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
    variant = Variant.COINCHE
    options = Options.for_variant(variant)
    deck = Match(variant).new_deck(50)
    found = par(variant, options, 0, deck)
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
