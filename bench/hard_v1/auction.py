"""Bidding by the hand evaluator: take or pass, which contract, how high, contre and double.

Every choice is made among ``view.legal_actions``, so a decision is legal by construction.
"""

from __future__ import annotations

from game.actions import (
    BidAction,
    CoincheBid,
    ContractBid,
    Contre,
    Double,
    Pass,
    Play,
    Redouble,
    Surcontre,
    Take,
)
from game.ai.evaluate import MEAN_POINTS, expected_points, margin
from game.cards import Suit, to_set
from game.rules import Trump, Variant
from game.view import TableView

# Classic: take when the team expects this many of the 162 points (it must beat the defence,
# and a failed contract gives the defence all 162).
CLASSIC_TAKE = 92.0
# Coinche: bid the expected points less this margin, rounded down to the ten.
COINCHE_MARGIN = 8.0
COINCHE_CONTRE = 30.0  # contre when our cards in their trump are worth this much above average
COINCHE_SURCONTRE = 25.0
# Bulgarian: bid a contract whose expected share of the points beats one half by this much.
BULGARIAN_BID = 0.06
BULGARIAN_OVER_PARTNER = 0.14  # replace the partner's contract only with a much better one
BULGARIAN_DOUBLE = 0.16  # our cards in their contract: share above half for the defence
BULGARIAN_REDOUBLE = 0.16


def choose_bid(view: TableView) -> BidAction:
    legal = [a for a in view.legal_actions if not isinstance(a, Play)]
    assert legal, "choose_bid is called on the seat's turn in the bidding"
    if view.variant is Variant.CLASSIC:
        action = _classic(view, legal)
    elif view.variant is Variant.COINCHE:
        action = _coinche(view, legal)
    else:
        action = _bulgarian(view, legal)
    assert action in legal
    return action


def _classic(view: TableView, legal: list[BidAction]) -> BidAction:
    assert view.turned_card is not None
    hand = to_set(view.hand) | 1 << view.turned_card
    takes = [a for a in legal if isinstance(a, Take)]
    if not takes:
        return Pass()
    turned_suit = Suit(view.turned_card >> 3)
    best: BidAction = Pass()
    best_e = CLASSIC_TAKE
    for a in takes:
        suit = turned_suit if a.suit is None else a.suit
        e = expected_points(hand, Trump(suit))
        if e >= best_e:
            best, best_e = a, e
    return best


def _floor10(x: float) -> int:
    return int(x // 10) * 10


def _coinche(view: TableView, legal: list[BidAction]) -> BidAction:
    seat = view.viewer
    assert seat is not None
    hand = to_set(view.hand)
    high = view.high_bid
    if Surcontre() in legal:
        assert high is not None and high.value is not None
        e = expected_points(hand, high.trump)
        extra = e - high.value if high.seat == seat else e - MEAN_POINTS["suit"]
        return Surcontre() if extra >= COINCHE_SURCONTRE else Pass()
    values = sorted({a.value for a in legal if isinstance(a, CoincheBid)})
    best_suit = max(range(4), key=lambda s: expected_points(hand, Trump(s)))
    best_e = expected_points(hand, Trump(best_suit))
    target = min(_floor10(best_e - COINCHE_MARGIN), 160)
    if high is None:
        return CoincheBid(target, Suit(best_suit)) if target >= 80 else Pass()
    assert high.value is not None
    i_bid = any(s == seat and isinstance(a, CoincheBid) for s, a in view.bids)
    if not (high.seat ^ seat) & 1:
        # The partner holds the bid: raise it with support, once.
        if i_bid or high.seat == seat:
            return Pass()
        support = expected_points(hand, high.trump) - MEAN_POINTS["suit"]
        # The partner bid about its expected points less the margin; add what we bring.
        raised = min(_floor10(high.value + support), 160)
        if raised > high.value and raised in values:
            return CoincheBid(raised, Suit(high.trump))
        return Pass()
    if target > high.value and target in values:
        return CoincheBid(target, Suit(best_suit))
    against = expected_points(hand, high.trump) - MEAN_POINTS["suit"]
    if Contre() in legal and against >= COINCHE_CONTRE + (high.value - 80) / 4:
        return Contre()
    return Pass()


def _bulgarian(view: TableView, legal: list[BidAction]) -> BidAction:
    seat = view.viewer
    assert seat is not None
    hand = to_set(view.hand)
    high = view.high_bid
    options = [a for a in legal if isinstance(a, ContractBid)]
    scored = sorted(((margin(hand, a.contract), int(a.contract), a) for a in options),
                    key=lambda t: (t[0], t[1]), reverse=True)
    ours = high is not None and not (high.seat ^ seat) & 1
    need = BULGARIAN_OVER_PARTNER if ours else BULGARIAN_BID
    if scored and scored[0][0] >= need:
        return scored[0][2]
    if high is None:
        return Pass()
    # Our cards in their contract count for us as much as they would for a taker.
    if Double() in legal and margin(hand, high.trump) >= BULGARIAN_DOUBLE:
        return Double()
    if Redouble() in legal and margin(hand, high.trump) >= BULGARIAN_REDOUBLE:
        return Redouble()
    return Pass()
