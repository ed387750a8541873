"""The review of a match, deal by deal: the par of each deck, the value of every legal card at
every card played and the cost of the one chosen, and each call against the par.

``analyse_match`` yields one ``DealAnalysis`` per finished deal, so a caller shows progress
("deal 3 of 9") and may stop between deals. Everything here is pure: a match replayed from
its record in, values out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..actions import Action, CoincheBid, ContractBid, Pass, Play, Take
from ..cards import Card, Suit, card_str
from ..contract import Contract
from ..deal import Deal
from ..match import Match
from ..record import action_to_json, replay
from ..rules import Variant
from .par import Par, par
from .situation import situation_of
from .solver import Solver


@dataclass(frozen=True, slots=True)
class CardOption:
    """One legal card at a decision, for the deciding seat's team: the card points it ends the
    deal with and its deal score minus the other team's (both sides playing for that measure
    from there), and what the card costs against the best in each measure."""

    card: Card
    points: int
    score: int
    cost: int
    cost_points: int


@dataclass(frozen=True, slots=True)
class CardDecision:
    action: int  # the card's index among the deal's actions (calls first)
    seat: int
    played: Card
    options: tuple[CardOption, ...]  # one per legal card, lowest card first

    @property
    def chosen(self) -> CardOption:
        return next(o for o in self.options if o.card == self.played)

    @property
    def forced(self) -> bool:
        return len(self.options) == 1


@dataclass(frozen=True, slots=True)
class BidOption:
    """A call, valued by the contract the auction ended in (the call made) or by par (the par
    contract's call), as the caller's team's double-dummy score."""

    bid: Action
    score: int
    cost: int


@dataclass(frozen=True, slots=True)
class BidDecision:
    action: int
    seat: int
    played: Action
    options: tuple[BidOption, BidOption]  # the call made, then par's call

    @property
    def chosen(self) -> BidOption:
        return self.options[0]


Decision = CardDecision | BidDecision


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    deal: int  # the deal's index in the match
    par: Par
    contract_score: int | None  # the contract played, double-dummy from the deal (team 0)
    decisions: tuple[Decision, ...]
    nodes: int  # positions the searches visited for this deal


def par_call(variant: Variant, contract: Contract | None) -> Action:
    """The call that bids a par contract (a pass for none)."""
    if contract is None:
        return Pass()
    if variant is Variant.COINCHE:
        assert contract.value is not None
        return CoincheBid(contract.value, Suit(int(contract.trump)))
    if variant is Variant.BULGARIAN:
        return ContractBid(contract.trump)
    return Take(Suit(int(contract.trump)))


def analyse_deal(match: Match, index: int, solver: Solver | None = None,
                 step: Callable[[CardDecision | None], object] | None = None) -> DealAnalysis:
    """The analysis of the match's deal ``index``, which must be over. ``step`` is told when
    the par is known (None) and as each card decision is (a caller's progress, or timing)."""
    done = match.deals[index]
    if not done.is_over:
        raise ValueError(f"deal {index} is not over")
    hanging = match.results[index - 1].hanging if index else 0
    solver = Solver() if solver is None else solver
    nodes0 = solver.nodes
    the_par = par(match.variant, match.options, done.dealer, done.deck, hanging, solver,
                  done.contract)
    if step is not None:
        step(None)
    fresh = Deal(match.variant, match.options, done.dealer, done.deck)
    announced = done.announced_points() if done.contract is not None else (0, 0)
    cards: list[CardDecision] = []
    bids: list[tuple[int, int, Action]] = []
    contract_score: int | None = None
    for i, (seat, action) in enumerate(done.actions):
        if isinstance(action, Play):
            sit = situation_of(fresh, hanging=hanging, announced=announced)
            if contract_score is None:
                contract_score = solver.score(sit, 0)
            values = solver.card_values(sit)
            best_score = max(v.score for v in values)
            best_points = max(v.points for v in values)
            decision = CardDecision(i, seat, action.card, tuple(
                CardOption(v.card, v.points, v.score, best_score - v.score,
                           best_points - v.points) for v in values))
            cards.append(decision)
            if step is not None:
                step(decision)
        else:
            bids.append((i, seat, action))
        fresh.apply(action)
    decisions: list[Decision] = []
    call = par_call(match.variant, the_par.contract)
    for i, seat, action in bids:
        team = seat & 1
        got = 0 if contract_score is None else (contract_score if team == 0 else -contract_score)
        par_score = the_par.score_for(team)
        top = max(got, par_score)
        options = (BidOption(action, got, top - got), BidOption(call, par_score, top - par_score))
        decisions.append(BidDecision(i, seat, action, options))
    decisions.extend(cards)
    return DealAnalysis(index, the_par, contract_score, tuple(decisions),
                        solver.nodes - nodes0)


def analyse_match(match: Match, deals: list[int] | None = None) -> Iterator[DealAnalysis]:
    """The analysis of each finished deal of ``match`` (or of those listed), one at a time."""
    for index in range(len(match.deals)) if deals is None else deals:
        if match.deals[index].is_over:
            yield analyse_deal(match, index)


def deal_json(analysis: DealAnalysis) -> dict[str, Any]:
    """A deal's analysis in the shape ``belote analyse`` prints (docs/game-record.md)."""
    decisions: list[dict[str, Any]] = []
    for d in analysis.decisions:
        if isinstance(d, CardDecision):
            decisions.append({
                "action": d.action, "seat": d.seat, "played": card_str(d.played),
                "options": [{"card": card_str(o.card), "points": o.points, "score": o.score,
                             "cost": o.cost, "cost_points": o.cost_points}
                            for o in d.options]})
        else:
            decisions.append({
                "action": d.action, "seat": d.seat, "played": action_to_json(None, d.played),
                "options": [{"bid": action_to_json(None, o.bid), "score": o.score,
                             "cost": o.cost} for o in d.options]})
    p = analysis.par
    return {
        "deal": analysis.deal,
        "par": {"contract": p.contract.to_json() if p.contract is not None else None,
                "score": p.score, "points": p.points},
        "decisions": decisions,
    }


def record_deal_json(record: dict[str, Any], index: int) -> dict[str, Any]:
    """Deal ``index`` of a game record, analysed, in ``deal_json``'s shape: one job of the
    bot's analysis worker (a record crosses a pipe as a small pickle, a Match would not)."""
    return deal_json(analyse_deal(replay(record), index))
