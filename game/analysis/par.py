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


def _coinche_best(solver: Solver, variant: Variant, options: Options, dealer: int,
                  deck: Sequence[Card], hanging: int, order: list[int],
                  played: Contract | None) -> _Played | None:
    """Coinche's par: the highest bid made (for one seat of each side, the first to speak: in
    coinche the hands and the lead do not depend on the bidder), the side speaking first on
    equal bids, the suit of its that scores most.

    The played contract's suit is valued first (the analysis values it anyway), which settles
    both sides' levels in it; the other suits are tested together, each test at a level above
    the best known dropping the pairs that fail it (a test far from a pair's card points is
    cheap)."""
    levels = (*COINCHE_VALUES, CAPOT_VALUE)
    pairs: list[tuple[int, int, Trump, Situation]] = []  # (speaking turn, seat, suit, sit)
    for trump in (Trump.CLUBS, Trump.DIAMONDS, Trump.HEARTS, Trump.SPADES):
        sit = situation_of(dealt(variant, options, dealer, deck, order[0], trump),
                           hanging=hanging)
        for turn, seat in enumerate(order[:2]):
            pairs.append((turn, seat, trump, sit))

    def makes(pair: tuple[int, int, Trump, Situation], level: int) -> bool:
        _turn, seat, trump, sit = pair
        return solver.makes(replace(sit, contract=contract_of(seat, trump, levels[level])),
                            seat & 1)

    made: list[tuple[int, tuple[int, int, Trump, Situation]]] = []  # (level, pair)
    rest = pairs
    if played is not None and played.trump.is_suit:
        mine = [p for p in pairs if p[2] == played.trump]
        rest = [p for p in pairs if p[2] != played.trump]
        solver.future_points(mine[0][3])  # its card points: every level's test is known
        for pair in mine:
            # The highest level made (made at a level, made at every level below).
            lo, hi = -1, len(levels) - 1
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if makes(pair, mid):
                    lo = mid
                else:
                    hi = mid - 1
            if lo >= 0:
                made.append((lo, pair))
    floor = max((m[0] for m in made), default=-1)
    # The other pairs that make a level above the floor, and the highest they make.
    alive = [p for p in rest if floor + 1 < len(levels) and makes(p, floor + 1)]
    lo, hi = floor + 1, len(levels) - 1
    while alive and lo < hi:
        mid = (lo + hi + 1) // 2
        up = [p for p in alive if makes(p, mid)]
        if up:
            alive, lo = up, mid
        else:
            hi = mid - 1
    if alive:
        made = [(lo, p) for p in alive]
    elif floor >= 0:
        made += [(floor, p) for p in rest if makes(p, floor)]  # equal to the floor
    if not made:
        return None
    top = max(m[0] for m in made)
    side = min(m[1][0] for m in made if m[0] == top)
    return max((_play(solver, p[3], contract_of(p[1], p[2], levels[top]))
                for level, p in made if level == top and p[0] == side),
               key=lambda q: q.score)


def _bulgarian_best(solver: Solver, variant: Variant, options: Options, dealer: int,
                    deck: Sequence[Card], hanging: int, order: list[int],
                    played: Contract | None) -> _Played | None:
    """Bulgarian's par: the side holding the highest-ranked contract made plays (on equal
    ranks, the first to speak), and of its own made contracts that rank above every contract
    the other side makes, the one that scores most (one seat of each side, the first to speak:
    the hands and the lead do not depend on the bidder).

    Contracts are tested from the highest rank down, and only as far as the answer needs:
    nothing below the other side's best made contract is tested. The played contract's card
    points are valued first (the analysis values them anyway)."""
    sits = {trump: situation_of(dealt(variant, options, dealer, deck, order[0], trump),
                                hanging=hanging) for trump in Trump}
    if played is not None:
        solver.future_points(sits[played.trump])
    known: dict[tuple[Trump, int], bool] = {}

    def made(trump: Trump, seat: int) -> bool:
        got = known.get((trump, seat))
        if got is None:
            c = contract_of(seat, trump)
            got = known[(trump, seat)] = solver.makes(replace(sits[trump], contract=c),
                                                      seat & 1)
        return got

    ranks = sorted(Trump, reverse=True)
    top = next(((t, seat) for t in ranks for seat in order[:2] if made(t, seat)), None)
    if top is None:
        return None
    mine = top[1]
    theirs = next(seat for seat in order[:2] if (seat ^ mine) & 1)
    floor = next((t for t in ranks if t <= top[0] and made(t, theirs)), -1)
    entries = [(replace(sits[t], contract=contract_of(mine, t)), contract_of(mine, t))
               for t in Trump if floor < t <= top[0] and made(t, mine)]
    ours = played is not None and (played.seat ^ mine) & 1 == 0
    return _best_of(solver, entries, contract_of(mine, played.trump)
                    if played is not None and ours else None)


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
        best = _coinche_best(solver, variant, options, dealer, deck, hanging, order, played)
    elif variant is Variant.BULGARIAN:
        best = _bulgarian_best(solver, variant, options, dealer, deck, hanging, order, played)
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
