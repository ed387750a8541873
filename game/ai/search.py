"""Exact search of a position with every hand known: the analysis's double-dummy search.

The values are outcome keys (game/ai/position.py): team 0's card points, with sweeps outside
that range. Every scorer the computer players read is monotone in a team's own points, so the
best play for these keys is the best play for the deal's score, and the score is applied once
at the root. The search is game/analysis/search.py's (transposition tables at each trick's
start, equivalent cards searched once, two-card endings solved outright): team 0's best card
points from the position, then, where those are all the points or none, whether a team takes
every trick (a sweep is the extreme of the points, so it is the key exactly when it can be
forced).
"""

from __future__ import annotations

from ..analysis.search import Search
from ..deal import card_points_total
from ..rules import Trump
from .position import SWEEP_0, SWEEP_1, Position, outcome_key


class Solver:
    """Exact outcome keys, one double-dummy search (and its tables) per contract kind: use one
    solver for every sampled deal of a decision, its tables serve each deal's cards. The
    budget counts the search's nodes (never seconds)."""

    __slots__ = ("_searches",)

    def __init__(self) -> None:
        self._searches: dict[tuple[Trump, bool], Search] = {}

    @property
    def nodes(self) -> int:
        return sum(s.nodes for s in self._searches.values())

    def value(self, pos: Position) -> int:
        """The outcome key of ``pos`` under best play by both teams."""
        if pos.is_over:
            return outcome_key(pos)
        rules = pos.rules
        kind = (rules.contract.trump, rules.undertrump)
        search = self._searches.get(kind)
        if search is None:
            search = self._searches[kind] = Search(*kind)
        hands = (pos.hands[0], pos.hands[1], pos.hands[2], pos.hands[3])
        trick = tuple(pos.trick)
        p0 = pos.points[0] + search.points_value(hands, pos.leader, trick)
        total = card_points_total(rules.contract.trump)
        if p0 == total and not pos.tricks_won[1] and \
                search.takes_all(hands, pos.leader, trick, 0):
            return SWEEP_0
        if p0 == 0 and not pos.tricks_won[0] and search.takes_all(hands, pos.leader, trick, 1):
            return SWEEP_1
        return p0
