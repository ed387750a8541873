"""Bidding by search, for the hard level: the same determinized playouts it plays with.

The seat deals the cards it cannot see many times, each deal chosen (among a few drawn) to fit
the bidding so far as well as possible (game/ai/inference.py: a seat that bid a suit holds
cards for it, a seat that opened with a pass holds no strong hand, a seat that doubled holds
cards against the contract).
On every such deal it plays out each contract worth considering (its own possible contracts,
and the contract standing) with the rules of thumb for all four seats, and keeps the points,
with the belote and the announcements each team holds in that deal (every seat declaring its
best, as the deal does).
Each legal call is then worth the mean score the variant's scorer gives its contract over those
deals (passing is worth the standing contract, or nothing when none stands); the best call is
made. Contre/surcontre and double/redouble are the standing contract at twice or four times.

In Bulgarian the hand evaluator's call (game/ai/auction.py, the easy level's bid) is the
search's prior: the contract it names must beat passing by -PRIOR_TRUST rather than by
BID_MARGIN. The playouts undervalue a taker (bench/bid_bias.py) and the evaluator does not share
that bias: the search keeps the evaluator's contract unless its estimate says it loses clearly,
and still picks another contract when it values that one higher. A double or redouble is
searched as before, the prior names contracts only.

The work is fixed by the budget (a number of playouts), not by time, so a decision does the same
work and gives the same answer on any machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import (
    BidAction,
    CoincheBid,
    Contre,
    Double,
    Pass,
    Play,
    Redouble,
    Surcontre,
)
from ..announcements import Announcement, best_announcements, bulgarian_winners, classic_winner
from ..cards import FULL_DECK, CardSet, Suit, to_set
from ..contract import Contract
from ..deal import held_belote_points, sweep_of
from ..rules import Trump, Variant
from ..view import TableView
from .auction import choose_bid
from .evaluate import MEAN_POINTS, expected_points, margin
from .inference import BiddingFit, bid_trump
from .policy import position_card
from .position import DealValue, PlayRules, Position


@dataclass(frozen=True, slots=True)
class BidBudget:
    playouts: int = 160  # deals played out per decision, over all the contracts considered
    max_samples: int = 40
    min_samples: int = 12
    tries: int = 6  # deals drawn per sample; the one that fits the bidding best is kept


# What a call must gain over passing, in the variant's points, before the seat makes it: the
# playouts are a rough model of the play and a failed contract or a wrong contre costs dearly.
BID_MARGIN = {Variant.CLASSIC: 10.0, Variant.COINCHE: 15.0, Variant.BULGARIAN: 1.0}
DOUBLE_MARGIN = {Variant.COINCHE: 40.0, Variant.BULGARIAN: 4.0}
# A surcontre or redouble answers a contre whose player knows more than the sampled deals do.
REDOUBLE_MARGIN = {Variant.COINCHE: 80.0, Variant.BULGARIAN: 8.0}
# A contre (double) needs this much in the contract's trump by the hand evaluator: the
# evaluator's points above the average hand in coinche, its share above half in bulgarian.
CONTRE_HOLDING = 15.0
DOUBLE_HOLDING = 0.06
# Passing with no bid standing: the deal goes on without this seat's contract; what it is worth
# on average (zero: no side is favoured before the cards are known).
PASS_BASE = 0.0
# The contract the hand evaluator would call is kept unless the search values it this much below
# passing. Bulgarian only: there the search alone was not measurably ahead of the evaluator;
# in classic and coinche it is (a classic prior, trust 10, changed nothing measurable). 5 is
# about the bias bench/bid_bias.py measures for a taker of no trumps and all trumps; 2 gained
# less (README, Computer players).
PRIOR_TRUST = {Variant.BULGARIAN: 5.0}


# Team 0's card points, the sweep, the belote and the announcements each team scores.
Outcome = tuple[int, int | None, tuple[int, int], tuple[int, int]]


def announced_points(view: TableView, hands: list[CardSet], trump: Trump) -> tuple[int, int]:
    """The announcement points each team scores when every seat declares its best choice of
    the full hand it holds in a sampled deal (as the deal does for a seat that says nothing),
    compared by the variant's rule. A tierce or a carré can make or break a contract."""
    if not view.options.announcements or trump is Trump.NO_TRUMPS:
        return (0, 0)
    anns: list[Announcement] = []
    for seat in range(4):
        anns.extend(best_announcements(seat, hands[seat]))
    if not anns:
        return (0, 0)
    pts = [0, 0]
    if view.variant is Variant.BULGARIAN:
        seq_team, carre_team = bulgarian_winners(anns)
        for a in anns:
            if a.seat & 1 == (carre_team if a.is_carre else seq_team):
                pts[a.seat & 1] += a.points
    else:
        assert view.dealer is not None
        team = classic_winner(anns, (view.dealer + 1) & 3,
                              int(trump) if trump.is_suit else None)
        for a in anns:
            if a.seat & 1 == team:
                pts[a.seat & 1] += a.points
    return (pts[0], pts[1])


class BidSearch:
    """One bidding decision of the hard level (see the module doc)."""

    def __init__(self, view: TableView, rng: random.Random, budget: BidBudget) -> None:
        assert view.viewer is not None and view.dealer is not None
        self.view = view
        self.rng = rng
        self.budget = budget
        self.seat = view.viewer
        self.team = self.seat & 1
        self.hand = to_set(view.hand)
        self.turned = view.turned_card
        self.unseen = FULL_DECK ^ self.hand ^ (1 << self.turned if self.turned is not None else 0)
        self.fit = BiddingFit(view)
        self.leader = (view.dealer + 1) & 3
        self.samples = 0
        self.playouts = 0

    def _deal(self) -> tuple[list[CardSet], list[int]]:
        """The other seats' bidding hands and the cards still to be dealt, in order."""
        view, rng = self.view, self.rng
        best: tuple[float, list[CardSet], list[int]] | None = None
        cards = [c for c in range(32) if self.unseen >> c & 1]
        tries = self.budget.tries if self.fit.informative else 1
        for _ in range(tries):
            rng.shuffle(cards)
            hands = [0, 0, 0, 0]
            i = 0
            for s in range(4):
                if s == self.seat:
                    hands[s] = self.hand
                    continue
                n = view.hand_counts[s]
                hands[s] = sum(1 << c for c in cards[i:i + n])
                i += n
            miss = sum(self.fit.miss(s, hands[s]) for s in range(4) if s != self.seat)
            if best is None or miss < best[0]:
                best = (miss, hands, cards[i:])
            if miss == 0:
                break
        assert best is not None
        return best[1], best[2]

    def _complete(self, hands: list[CardSet], rest: list[int], taker: int) -> list[CardSet]:
        """Eight cards a hand: the classic turned card goes to the taker, then the rest."""
        out = hands[:]
        rest = rest[:]
        if self.turned is not None:
            out[taker] |= 1 << self.turned
        for s in range(4):
            need = 8 - out[s].bit_count()
            out[s] |= sum(1 << c for c in rest[:need])
            rest = rest[need:]
        return out

    def outcomes(self, contracts: list[tuple[int, Trump]]) -> dict[tuple[int, Trump],
                                                                   list[Outcome]]:
        """Each contract (taker, trump) played out on the same sampled deals."""
        view = self.view
        out: dict[tuple[int, Trump], list[Outcome]] = {c: [] for c in contracts}
        if not contracts:
            return out
        b = self.budget
        n = max(b.min_samples, min(b.max_samples, b.playouts // len(contracts)))
        rules = {c: PlayRules.of(view.variant, view.options, Contract(c[0], c[1], 80))
                 for c in contracts}
        for _ in range(n):
            hands, rest = self._deal()
            self.samples += 1
            for c in contracts:
                full = self._complete(hands, rest, c[0])
                pos = Position(rules[c], full, self.leader, [], (0, 0), (0, 0), 0)
                while pos.n_tricks < 8:
                    pos.play(position_card(pos))
                self.playouts += 1
                out[c].append((pos.points[0], sweep_of(pos.tricks_won),
                               held_belote_points(full, rules[c].trump_cards),
                               announced_points(view, full, c[1])))
        return out

    def value(self, contract: Contract, outcomes: list[Outcome]) -> float:
        """The mean score difference for this seat's team of ``contract`` over ``outcomes``."""
        values: dict[tuple[tuple[int, int], tuple[int, int]], DealValue] = {}
        total = 0
        for p0, sweep, belote, announced in outcomes:
            v = values.get((belote, announced))
            if v is None:
                v = values[belote, announced] = DealValue(self.view.variant, contract,
                                                          self.team, announced, belote)
            total += v(p0, sweep)
        return total / len(outcomes)


def _sane(view: TableView, action: BidAction) -> bool:
    """Calls the search may weigh. Two limits keep a rough model from running away: over the
    partner's contract a seat bids at most once in the auction (else partners outbid each other
    on their own estimates, up to a contract neither can make), and it contres or doubles only
    holding cards in the contract's trump (the deals sampled for a strong bid are often weaker
    than the bidder's real hand)."""
    seat = view.viewer
    high = view.high_bid
    assert seat is not None
    if high is None:
        return True
    hand = to_set(view.hand)
    if bid_trump(action, None) is not None and not (high.seat ^ seat) & 1:
        return not any(s == seat and not isinstance(a, Pass) for s, a in view.bids)
    if isinstance(action, Contre):
        assert high.value is not None
        return expected_points(hand, high.trump) - MEAN_POINTS["suit"] >= \
            CONTRE_HOLDING + (high.value - 80) / 4
    if isinstance(action, Double):
        return margin(hand, high.trump) >= DOUBLE_HOLDING
    return True


def choose_bid_by_search(view: TableView, rng: random.Random,
                         budget: BidBudget | None = None) -> tuple[BidAction, BidSearch]:
    """The call with the best expected score, and the search that chose it (for its stats)."""
    legal = [a for a in view.legal_actions if not isinstance(a, Play)]
    assert legal and view.viewer is not None
    search = BidSearch(view, rng, budget or BidBudget())
    seat = view.viewer
    legal = [a for a in legal if _sane(view, a)]
    turned_suit = Suit(view.turned_card >> 3) if view.turned_card is not None else None
    high = view.high_bid
    mine = sorted({t for a in legal if (t := bid_trump(a, turned_suit)) is not None})
    contracts = [(seat, t) for t in mine]
    if high is not None and (high.seat, high.trump) not in contracts:
        contracts.append((high.seat, high.trump))
    outcomes = search.outcomes(contracts)
    variant = view.variant
    prior = choose_bid(view) if variant in PRIOR_TRUST else None
    # Passing keeps the standing contract, or leaves the deal to the others.
    pass_value = search.value(high, outcomes[(high.seat, high.trump)]) if high is not None \
        else PASS_BASE
    best: BidAction = Pass()
    best_v = pass_value
    for a in legal:
        trump = bid_trump(a, turned_suit)
        if trump is not None:
            value = a.value if isinstance(a, CoincheBid) else None
            if value is not None and value > 160:
                continue  # capot: the playouts of a rough policy say nothing about sweeps
            v = search.value(Contract(seat, trump, value), outcomes[(seat, trump)]) + (
                PRIOR_TRUST[variant] if a == prior else -BID_MARGIN[variant])
        elif isinstance(a, Contre | Double | Surcontre | Redouble):
            assert high is not None
            mult = 4 if isinstance(a, Surcontre | Redouble) else 2
            doubled = Contract(high.seat, high.trump, high.value, mult)
            v = search.value(doubled, outcomes[(high.seat, high.trump)]) - (
                REDOUBLE_MARGIN[variant] if mult == 4 else DOUBLE_MARGIN[variant])
        else:
            continue
        if v > best_v:
            best, best_v = a, v
    return best, search
