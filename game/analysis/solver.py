"""The double-dummy values of a situation, in the two measures of the analysis.

- **Card points**: the card points a team ends the deal with (tricks already taken included,
  the last trick's 10 counted) when both teams play for card points from here.
- **Score**: the deal's score of a team minus the other's under the variant's scoring
  (contract made or failed, contre / double, capot / valat, announcements and belote as they
  stand, bulgarian rounding, the points held from earlier deals this deal collects) when both
  teams play for the score.

The score is a step function of team 0's final card points, apart from a sweep: for every
contract the rules core scores, it never falls as team 0's points rise and a sweep by a team
is that team's best end (checked on each contract, ``_monotone``). So the best play for the
score reaches the best card points, and the score under best play is the score of those
points, with a sweep when they are all the points (or none) and the team can take every
trick. Only where that does not hold (a bulgarian all-trumps belot still to be won or lost in
the play, which adds to a team's points apart from its cards) is the score searched end by
end.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

from ..cards import Card, cards_of
from ..deal import BELOTE_POINTS
from ..rules import Trump
from .search import Search
from .situation import KING_QUEEN, Situation, score_of


@dataclass(frozen=True, slots=True)
class CardValue:
    """A legal card's values for the team of the seat that plays it."""

    card: Card
    points: int  # the card points that team ends the deal with, both playing for points
    score: int  # that team's deal score minus the other's, both playing for the score


class Solver:
    """Double-dummy values of situations. Keeps one search (and its tables) per contract kind:
    use one solver for every situation of a deal, the later ones reuse the earlier work."""

    __slots__ = ("_all", "_future", "_searches")

    def __init__(self) -> None:
        self._searches: dict[tuple[Trump, bool], Search] = {}
        # Answers already found, by contract kind, hands, leader and trick (and team).
        self._future: dict[tuple[object, ...], int] = {}
        self._all: dict[tuple[object, ...], bool] = {}

    def search_for(self, sit: Situation) -> Search:
        key = (sit.contract.trump, sit.undertrump)
        s = self._searches.get(key)
        if s is None:
            s = self._searches[key] = Search(sit.contract.trump, sit.undertrump)
        return s

    @property
    def nodes(self) -> int:
        return sum(s.nodes for s in self._searches.values())

    def legal(self, sit: Situation) -> int:
        return sit.legal()

    # ---- card points --------------------------------------------------------------------
    def future_points(self, sit: Situation, guess: int | None = None, low: int = 0,
                      high: int = 1 << 30) -> int:
        """Team 0's card points from here on (the trick on the table included), known to lie
        in [``low``, ``high``] when they are given."""
        if sit.is_over:
            return 0
        key = (sit.contract.trump, sit.undertrump, sit.hands, sit.leader, sit.trick)
        got = self._future.get(key)
        if got is None:
            got = self._future[key] = self.search_for(sit).points_value(
                sit.hands, sit.leader, sit.trick, guess, low, high)
        return got

    def card_points(self, sit: Situation, team: int, guess: int | None = None) -> int:
        """The card points ``team`` ends the deal with under best play for card points."""
        g = None if guess is None else (guess if team == 0 else sit.card_total() - guess)
        if g is not None:
            g -= sit.points[0]
        p0 = sit.points[0] + self.future_points(sit, g)
        return p0 if team == 0 else sit.card_total() - p0

    def takes_all(self, sit: Situation, team: int) -> bool:
        """Whether ``team`` can take every remaining trick, whatever the other team plays (a
        claim of the rest: the trick on the table included)."""
        if sit.is_over:
            return True
        key = (sit.contract.trump, sit.undertrump, sit.hands, sit.leader, sit.trick, team)
        got = self._all.get(key)
        if got is None:
            got = self._all[key] = self.search_for(sit).takes_all(sit.hands, sit.leader,
                                                                  sit.trick, team)
        return got

    def reaches(self, sit: Situation, team: int, points: int) -> bool:
        """Whether ``team`` can end the deal with at least ``points`` card points."""
        if team == 1:
            # Team 1 gets at least ``points`` when team 0 cannot get more than the rest.
            return not self.reaches(sit, 0, sit.card_total() - points + 1)
        need = points - sit.points[0]
        if sit.is_over or need <= 0:
            return need <= 0
        key = (sit.contract.trump, sit.undertrump, sit.hands, sit.leader, sit.trick)
        known = self._future.get(key)
        if known is not None:
            return known >= need
        return self.search_for(sit).reaches(sit.hands, sit.leader, sit.trick, need)

    def makes(self, sit: Situation, team: int, above: int = 0) -> bool:
        """Whether ``team``'s deal score minus the other team's is more than ``above`` under
        best play for the score (with 0: a contract made, for its side): a test, cheaper than
        the score itself."""
        if sit.is_over:
            return self.score(sit, team) > above
        if sit.pending:
            return self._makes_pending(sit, team, above)
        if not _monotone(sit):
            return self.score(sit, team) > above
        return self._makes_ends(sit, team, above, _ends(sit, sit.belote))

    def _makes_pending(self, sit: Situation, team: int, above: int) -> bool:
        """``makes`` with belots still to be won or lost in the play. Whatever becomes of
        them, each end's score lies between the least and the most it can be over the belots'
        fates; with each fate's score rising with team 0's points, so do those bounds, so a
        test of card points alone settles the question unless the best points fall where the
        belots decide it: then the score is searched (one null-window test)."""
        belotes = _belote_fates(sit)
        if all(_monotone(replace(sit, belote=b)) for b in belotes):
            each = [_ends(sit, b) for b in belotes]
            low = [min(col) for col in zip(*each, strict=True)]
            high = [max(col) for col in zip(*each, strict=True)]
            worst, best = (low, high) if team == 0 else (high, low)
            if self._makes_ends(sit, team, above, worst):
                return True
            if not self._makes_ends(sit, team, above, best):
                return False
        if team == 1:
            return self._searched_score0(sit, -above - 1, -above) < -above
        return self._searched_score0(sit, above, above + 1) > above

    def _makes_ends(self, sit: Situation, team: int, above: int, ends: list[int]) -> bool:
        """Whether ``team`` can reach an end that scores it more than ``above``, team 0's ends
        scoring ``ends`` (in order: swept, 0 .. total card points, sweeping; rising)."""
        if team == 0:
            q = next((i for i, v in enumerate(ends) if v > above), None)
            return q is not None and self._reaches_end(sit, q)
        q = next((i for i in range(len(ends) - 1, -1, -1) if ends[i] < -above), None)
        return q is not None and (q == len(ends) - 1 or not self._reaches_end(sit, q + 1))

    def _reaches_end(self, sit: Situation, end: int) -> bool:
        """Whether team 0 can reach end ``end`` or a better one: 0 is being swept, 1 + p is
        p card points, total + 2 is sweeping."""
        total = sit.card_total()
        if end == 0:
            return True
        if end == 1:
            return sit.tricks[0] > 0 or not self.takes_all(sit, 1)
        if end <= total + 1:
            return self.reaches(sit, 0, end - 1)
        return sit.tricks[1] == 0 and self.takes_all(sit, 0)

    # ---- the score ----------------------------------------------------------------------
    def score(self, sit: Situation, team: int, points0: int | None = None) -> int:
        """``team``'s deal score minus the other's under best play for the score.
        ``points0``: team 0's final card points under best play for points, when known."""
        v = self._score0(sit, points0)
        return v if team == 0 else -v

    def _score0(self, sit: Situation, points0: int | None) -> int:
        if sit.is_over:
            return sit.final_score()
        if sit.pending:
            fates = _belote_fates(sit)
            if not all(_monotone(replace(sit, belote=b)) for b in fates):
                return self._searched_score0(sit)
            # Each fate of the belots scores the best end of card points (as below), so the
            # score lies between the least and the most of those: the search is a test or
            # two within them.
            points0, sweep = self._best_end(sit, points0)
            values = [score_of(sit, points0, sweep, b) for b in fates]
            if min(values) == max(values):
                return values[0]
            return self._searched_score0(sit, min(values), max(values) + 1)
        if not _monotone(sit):
            return self._searched_score0(sit)
        points0, sweep = self._best_end(sit, points0)
        return score_of(sit, points0, sweep, sit.belote)

    def _best_end(self, sit: Situation, points0: int | None) -> tuple[int, int | None]:
        """Team 0's final card points under best play for points (``points0`` when known),
        and the sweep that comes with them when all the points (or none) are a sweep."""
        if points0 is None:
            points0 = sit.points[0] + self.future_points(sit)
        total = sit.card_total()
        sweep: int | None = None
        if points0 == total and sit.tricks[1] == 0 and self.takes_all(sit, 0):
            sweep = 0
        elif points0 == 0 and sit.tricks[0] == 0 and self.takes_all(sit, 1):
            sweep = 1
        return points0, sweep

    def _searched_score0(self, sit: Situation, low: int | None = None,
                         high: int | None = None) -> int:
        """The score searched end by end, known to lie in [``low``, ``high``) when they are
        given (with ``high`` = ``low`` + 1 and the score not known to lie there: a test, the
        answer above ``low`` if and only if the score is)."""
        pending = 0
        for suit in sit.pending:
            pending |= KING_QUEEN << (suit * 8)
        base = sit.belote
        cache: dict[tuple[int, int, int], int] = {}

        def leaf(p0: int, won: int, bel: int) -> int:
            key = (p0, won, bel)
            v = cache.get(key)
            if v is None:
                sweep = 0 if won == 1 else 1 if won == 2 else None
                v = cache[key] = score_of(sit, p0, sweep, (base[0] + (bel & 1023),
                                                            base[1] + (bel >> 10)))
            return v

        total = sit.card_total()
        context = (sit.variant, sit.contract, sit.announced, sit.belote, sit.pending,
                   sit.hanging)
        got = _EXTENT.get(context)
        if got is None:
            extra = 20 * len(sit.pending)
            ends = [score_of(sit, p, sw, (base[0] + b0, base[1] + b1))
                    for p in range(total + 1) for sw in (None, 0, 1)
                    for b0 in range(0, extra + 1, 20) for b1 in range(0, extra + 1, 20)]
            monotone = all(_monotone(replace(sit, belote=(base[0] + b0, base[1] + b1)))
                           for b0 in range(0, extra + 1, 20) for b1 in range(0, extra + 1, 20))
            got = _EXTENT[context] = (min(ends), max(ends), monotone)
        least, most, monotone = got
        won = (1 if sit.tricks[0] else 0) | (2 if sit.tricks[1] else 0)
        if low is None or high is None:
            low, high = least, most + 1
        return self.search_for(sit).score_value(
            sit.hands, sit.leader, sit.trick, sit.points[0], won, 0, pending, leaf,
            low, high, total, monotone, context)

    # ---- every legal card ---------------------------------------------------------------
    def card_values(self, sit: Situation) -> list[CardValue]:
        """Each legal card of the seat to act, with its values for that seat's team."""
        team = sit.to_act & 1
        out = []
        search = self.search_for(sit)
        done: dict[Card, CardValue] = {}
        hs = sit.hands
        others = (hs[0] | hs[1] | hs[2] | hs[3]) ^ hs[sit.to_act]
        for c in sit.trick:
            others |= 1 << c
        reps = search.representatives(hs[sit.to_act], others)
        legal = sit.legal()
        # Each child's search starts from a guess of team 0's final points: this position's
        # value when known (the best child's), else the last child's.
        known = self._future.get((sit.contract.trump, sit.undertrump, sit.hands, sit.leader,
                                  sit.trick))
        guess = None if known is None else sit.points[0] + known
        for c in cards_of(legal):
            rep = _representative(search, c, reps, hs[sit.to_act], others)
            got = done.get(rep)
            if got is None:
                child = sit.after(rep)
                low, high = 0, 1 << 30
                if known is not None:
                    # The position's value is its best child's: no child beats it for the
                    # seat to act.
                    bound = sit.points[0] + known - child.points[0]
                    low, high = (0, bound) if sit.to_act & 1 == 0 else (bound, 1 << 30)
                p0 = child.points[0] + self.future_points(
                    child, None if guess is None else guess - child.points[0], low, high)
                if known is None:
                    guess = p0
                pts = p0 if team == 0 else child.card_total() - p0
                got = done[rep] = CardValue(rep, pts, self.score(child, team, p0))
            out.append(CardValue(c, got.points, got.score))
        return out


def _representative(search: Search, c: Card, reps: int, hand: int, others: int) -> Card:
    """The card searched for ``c``: itself, or the equivalent card that stands for it."""
    if reps >> c & 1:
        return c
    # The equivalent card: same suit, same points, no card of ``others`` between them.
    strength = search.strength
    points = search.points
    suit = c & ~7
    for r in range(8):
        d = suit | r
        if reps >> d & 1 and points[d] == points[c]:
            lo, hi = sorted((strength[c], strength[d]))
            between = [e for e in range(suit, suit + 8)
                       if lo < strength[e] < hi and others >> e & 1]
            if not between:
                return d
    raise AssertionError("every card has a representative")


def _ends(sit: Situation, belote: tuple[int, int]) -> list[int]:
    """Team 0's score at each end of ``sit``'s deal with this belote, in order: swept, 0 ..
    all the card points, sweeping."""
    total = sit.card_total()
    ends = [score_of(sit, 0, 1, belote)]
    ends += [score_of(sit, p, None, belote) for p in range(total + 1)]
    ends.append(score_of(sit, total, 0, belote))
    return ends


def _belote_fates(sit: Situation) -> list[tuple[int, int]]:
    """The belote of each team at the end of the deal, for each fate of the belots still to be
    won or lost in the play (each won by its holder's team, or lost)."""
    out = [sit.belote]
    for suit in sit.pending:
        kq = KING_QUEEN << (suit * 8)
        team = next(seat for seat in range(4) if sit.hands[seat] & kq == kq) & 1
        gain = (BELOTE_POINTS, 0) if team == 0 else (0, BELOTE_POINTS)
        out += [(b[0] + gain[0], b[1] + gain[1]) for b in out]
    return out


_MONOTONE: dict[tuple[object, ...], bool] = {}
# By the score's context: the least and the most score of any end (belots' fates included),
# and whether every fate's score never falls as team 0's points rise.
_EXTENT: dict[tuple[object, ...], tuple[int, int, bool]] = {}


def _monotone(sit: Situation) -> bool:
    """Whether the deal's score never falls as team 0's final card points rise, with a sweep
    by team 1 below every other end and one by team 0 above."""
    key = (sit.variant, sit.contract, sit.announced, sit.belote, sit.hanging)
    got = _MONOTONE.get(key)
    if got is None:
        total = sit.card_total()
        ends = [score_of(sit, 0, 1, sit.belote)]
        ends += [score_of(sit, p, None, sit.belote) for p in range(total + 1)]
        ends.append(score_of(sit, total, 0, sit.belote))
        got = _MONOTONE[key] = all(a <= b for a, b in itertools.pairwise(ends))
    return got
