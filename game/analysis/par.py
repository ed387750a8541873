"""Par: the contract a dealt deck is worth when every hand is known, and its score.

Each contract the variant can end its auction in is played double-dummy from the deck (the
rules core deals it, so classic's taker gets the turned card), every seat announcing its best
and calling its belote, and scored undoubled. A contract is *made* when its side's score beats
the other side's. Then, as an auction between sides who see every card would end
(docs/game-record.md, "Par"):

- **coinche**: the highest bid made (80 to 160 or capot) wins the auction; on equal bids, the
  side that speaks first; among its suits, the one that scores most.
- **bulgarian**: contracts rank clubs < diamonds < hearts < spades < no trumps < all trumps;
  the side holding the highest-ranked contract made plays, and of its own made contracts that
  rank above every contract the other side makes, the one that scores most.
- **classic**: the first to take ends the auction, so the side with the best made contract
  plays it; on equal scores, the contract offered first (round one's suit, then the seats
  in turn).

When no contract is made, par is to pass (no contract, score 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..actions import CoincheBid, ContractBid, Pass, Take
from ..cards import Card, Suit
from ..contract import Contract, contract_of
from ..deal import Deal
from ..rules import Options, Trump, Variant
from .situation import Situation, score_of, situation_of
from .solver import Solver

COINCHE_VALUES = (80, 90, 100, 110, 120, 130, 140, 150, 160)
CAPOT_VALUE = 250


@dataclass(frozen=True, slots=True)
class Par:
    """The par of a deck: its contract (None: pass) and, for the contract's side, the score
    (its deal score minus the other side's) and its card points."""

    contract: Contract | None
    score: int
    points: int

    @property
    def team(self) -> int | None:
        return None if self.contract is None else self.contract.team

    def score_for(self, team: int) -> int:
        """Par's score as seen by ``team``."""
        if self.contract is None:
            return 0
        return self.score if team == self.contract.team else -self.score


@dataclass(frozen=True, slots=True)
class _Played:
    contract: Contract
    score: int  # for the contract's team
    points: int  # the contract's team's card points


def dealt(variant: Variant, options: Options, dealer: int, deck: Sequence[Card],
          seat: int, trump: Trump) -> Deal:
    """A deal of ``deck`` whose auction ends with ``seat`` taking ``trump`` (first bid, then
    passes), in play."""
    deal = Deal(variant, options, dealer, deck)
    first = deal.first
    if variant is Variant.CLASSIC:
        assert deal.turned_card is not None
        turned = deal.turned_card >> 3
        if trump != turned:
            for _ in range(4):
                deal.apply(Pass())
        for _ in range((seat - first) & 3):
            deal.apply(Pass())
        deal.apply(Take() if trump == turned else Take(Suit(int(trump))))
    else:
        for _ in range((seat - first) & 3):
            deal.apply(Pass())
        deal.apply(CoincheBid(80, Suit(int(trump))) if variant is Variant.COINCHE
                   else ContractBid(trump))
        for _ in range(3):
            deal.apply(Pass())
    return deal


def _play(solver: Solver, sit: Situation, contract: Contract) -> _Played:
    """``contract`` played double-dummy from ``sit`` (its hands): score and points."""
    s = replace(sit, contract=contract)
    team = contract.team
    points0 = solver.card_points(s, 0)
    score = solver.score(s, team, points0)
    return _Played(contract, score, points0 if team == 0 else s.card_total() - points0)


def _best_of(solver: Solver, entries: list[tuple[Situation, Contract]],
             played: Contract | None) -> _Played | None:
    """The contract of ``entries`` (in the order offered) that scores most for its side, the
    first offered on equal scores, or None when none is made.

    Found by tests (one null-window search each) over every contract still in the running at
    once, bisecting on the best score: a test far from a contract's score is cheap, and each
    one drops the contracts that fail it; only the contract found is valued. ``played``: a
    contract the caller values anyway (the one the deal was played in), valued first: its
    score is a floor for the bisection."""
    alive = entries
    lo = 0  # the best score is above this (to be made, above 0)
    known: _Played | None = None
    for sit, c in entries:
        if played is not None and (c.seat, c.trump) == (played.seat, played.trump):
            known = _play(solver, sit, c)
            lo = max(lo, known.score - 1)
    hi = max(_top_score(sit, c.team) for sit, c in alive)  # and not above this
    narrowed = False  # whether every contract alive is known to score above lo
    while hi - lo > 1 and (len(alive) > 1 or not narrowed):
        x = (lo + hi) // 2
        up = [e for e in alive if solver.makes(e[0], e[1].team, x)]
        if up:
            alive, lo, narrowed = up, x, True
        else:
            hi = x
    if not narrowed:
        alive = [e for e in alive if solver.makes(e[0], e[1].team, lo)]
        if not alive:
            return None
    sit, c = alive[0]
    if known is not None and known.contract == c:
        return known
    return _play(solver, sit, c)


def _top_score(sit: Situation, team: int) -> int:
    """The most ``team`` can score in ``sit``'s contract, at any end of the play."""
    total = sit.card_total()
    ends = [score_of(sit, p, None, sit.belote) for p in range(total + 1)]
    ends += [score_of(sit, 0, 1, sit.belote), score_of(sit, total, 0, sit.belote)]
    return max(ends) if team == 0 else -min(ends)


def par(variant: Variant, options: Options, dealer: int, deck: Sequence[Card],
        hanging: int = 0, solver: Solver | None = None,
        played: Contract | None = None) -> Par:
    """The par of ``deck`` dealt by ``dealer`` (``hanging``: points held from earlier deals,
    which the deal's winner collects; ``played``: the contract the deal was played in, when
    the caller values it too: valued first, it bounds the others' tests)."""
    solver = Solver() if solver is None else solver
    first = (dealer + 1) & 3
    order = [(first + i) & 3 for i in range(4)]
    best: _Played | None = None
    if variant is Variant.COINCHE:
        levels = (*COINCHE_VALUES, CAPOT_VALUE)
        tops: list[tuple[int, int, Situation, Contract]] = []  # (level, speaking turn, ...)
        for trump in (Trump.CLUBS, Trump.DIAMONDS, Trump.HEARTS, Trump.SPADES):
            sit = situation_of(dealt(variant, options, dealer, deck, first, trump),
                               hanging=hanging)
            for turn, seat in enumerate(order[:2]):  # one seat of each side, the first to speak
                # The highest level made (made at a level, made at every level below).
                lo, hi = -1, len(levels) - 1
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    c = contract_of(seat, trump, levels[mid])
                    if solver.makes(replace(sit, contract=c), seat & 1):
                        lo = mid
                    else:
                        hi = mid - 1
                if lo >= 0:
                    tops.append((lo, turn, sit, contract_of(seat, trump, levels[lo])))
        if tops:
            top = max(t[0] for t in tops)
            side = min(t[1] for t in tops if t[0] == top)
            best = max((_play(solver, t[2], t[3]) for t in tops if t[0] == top and t[1] == side),
                       key=lambda p: p.score)
    elif variant is Variant.BULGARIAN:
        made: list[tuple[Situation, Contract]] = []
        for trump in Trump:
            sit = situation_of(dealt(variant, options, dealer, deck, first, trump),
                               hanging=hanging)
            for seat in order[:2]:
                c = contract_of(seat, trump)
                if solver.makes(replace(sit, contract=c), seat & 1):
                    made.append((sit, c))
        if made:
            side = max(made, key=lambda m: m[1].trump)[1].team
            other = [c.trump for _s, c in made if c.team != side]
            floor = max(other) if other else -1
            best = max((_play(solver, sit, c) for sit, c in made
                        if c.team == side and c.trump > floor), key=lambda p: p.score)
    else:
        offered: list[tuple[int, int, Trump]] = []  # (round, seat's turn, trump)
        probe = Deal(variant, options, dealer, deck)
        assert probe.turned_card is not None
        turned = Trump(probe.turned_card >> 3)
        for i in range(4):
            offered.append((0, i, turned))
        for i in range(4):
            for t in (Trump.CLUBS, Trump.DIAMONDS, Trump.HEARTS, Trump.SPADES):
                if t is not turned:
                    offered.append((1, i, t))
        entries = []
        for _round, i, trump in offered:
            seat = order[i]
            sit = situation_of(dealt(variant, options, dealer, deck, seat, trump),
                               hanging=hanging)
            entries.append((sit, contract_of(seat, trump)))
        best = _best_of(solver, entries, played)
    if best is None:
        return Par(None, 0, 0)
    return Par(best.contract, best.score, best.points)
