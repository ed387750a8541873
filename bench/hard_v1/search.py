"""Exact search of a position with every hand known: alpha-beta over the remaining tricks.

Values are team 0's card points (sweeps outside that range, see position.outcome_key): every
scorer is monotone in a team's own points, so the best play for these keys is the best play for
the deal's score, and the score is applied once at the root. Frozen with the rest of hard_v1
(the current hard searches with the analysis's solver, game/ai/search.py): its node counts are
its budget, so a change of search would change its play.
"""

from __future__ import annotations

from game.ai.position import Position, outcome_key
from game.cards import Card, cards_of


class Solver:
    """Alpha-beta with a node counter (the budget is counted in nodes, never in seconds)."""

    __slots__ = ("nodes",)

    def __init__(self) -> None:
        self.nodes = 0

    def value(self, pos: Position) -> int:
        """The outcome key of ``pos`` under best play by both teams."""
        return self._search(pos, -10_000, 10_000)

    def _search(self, pos: Position, alpha: int, beta: int) -> int:
        self.nodes += 1
        if pos.n_tricks == 8:
            return outcome_key(pos)
        moves = _ordered(pos)
        if len(moves) == 1:
            # A forced card: no branching (common at the end of a deal).
            child = pos.copy()
            child.play(moves[0])
            return self._search(child, alpha, beta)
        if pos.to_act & 1 == 0:
            best = -10_000
            for c in moves:
                child = pos.copy()
                child.play(c)
                v = self._search(child, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        best = 10_000
        for c in moves:
            child = pos.copy()
            child.play(c)
            v = self._search(child, alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best


def _ordered(pos: Position) -> list[Card]:
    """Strongest cards first: winning tries cut the search soonest."""
    st = pos.rules.strength
    return sorted(cards_of(pos.legal()), key=lambda c: -st[c])
