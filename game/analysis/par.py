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
from .situation import Situation, situation_of
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
    score = solver.score(s, team, points0 if not s.pending else None)
    return _Played(contract, score, points0 if team == 0 else s.card_total() - points0)


def par(variant: Variant, options: Options, dealer: int, deck: Sequence[Card],
        hanging: int = 0, solver: Solver | None = None) -> Par:
    """The par of ``deck`` dealt by ``dealer`` (``hanging``: points held from earlier deals,
    which the deal's winner collects)."""
    solver = Solver() if solver is None else solver
    first = (dealer + 1) & 3
    order = [(first + i) & 3 for i in range(4)]
    best: _Played | None = None
    if variant is Variant.COINCHE:
        made: list[_Played] = []
        for trump in (Trump.CLUBS, Trump.DIAMONDS, Trump.HEARTS, Trump.SPADES):
            sit = situation_of(dealt(variant, options, dealer, deck, first, trump),
                               hanging=hanging)
            for seat in order[:2]:  # one seat of each side, the first to speak
                for value in (*COINCHE_VALUES, CAPOT_VALUE):
                    p = _play(solver, sit, contract_of(seat, trump, value))
                    if p.score > 0:
                        made.append(p)
        if made:
            top = max(_level(p) for p in made)
            at_top = [p for p in made if _level(p) == top]
            side = min((p.contract.seat for p in at_top), key=order.index) & 1
            best = max((p for p in at_top if p.contract.team == side), key=lambda p: p.score)
    elif variant is Variant.BULGARIAN:
        made = []
        sit0 = situation_of(dealt(variant, options, dealer, deck, first, Trump.CLUBS),
                            hanging=hanging)
        for trump in Trump:
            sit = sit0 if trump is Trump.CLUBS else situation_of(
                dealt(variant, options, dealer, deck, first, trump), hanging=hanging)
            for seat in order[:2]:
                p = _play(solver, sit, contract_of(seat, trump))
                if p.score > 0:
                    made.append(p)
        if made:
            side = max(made, key=lambda p: p.contract.trump).contract.team
            other = [p.contract.trump for p in made if p.contract.team != side]
            floor = max(other) if other else -1
            best = max((p for p in made if p.contract.team == side and p.contract.trump > floor),
                       key=lambda p: p.score)
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
        for _round, i, trump in offered:
            seat = order[i]
            sit = situation_of(dealt(variant, options, dealer, deck, seat, trump),
                               hanging=hanging)
            p = _play(solver, sit, contract_of(seat, trump))
            if p.score > 0 and (best is None or p.score > best.score):
                best = p
    if best is None:
        return Par(None, 0, 0)
    return Par(best.contract, best.score, best.points)


def _level(p: _Played) -> int:
    value = p.contract.value
    assert value is not None
    return value
