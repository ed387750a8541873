"""What the calls of the auction say about the hands that made them.

A seat that bid a contract holds cards for it, a seat that opened with a pass holds no strong
hand, a seat that doubled holds cards in the contract's trump: judged by the hand evaluator of
game/ai/evaluate.py. The hard level's bid search keeps, among a few deals drawn, the one whose
hands fit the calls best.
"""

from __future__ import annotations

from ..actions import BidAction, CoincheBid, ContractBid, Contre, Double, Pass, Take
from ..cards import CardSet, Suit
from ..rules import Trump, Variant
from ..view import TableView
from .evaluate import expected_points, margin


def bid_trump(action: BidAction, turned: Suit | None) -> Trump | None:
    """The trump of the contract a call names, or None for a pass, a double or a refusal."""
    if isinstance(action, CoincheBid):
        return Trump(action.suit)
    if isinstance(action, ContractBid):
        return action.contract
    if isinstance(action, Take):
        suit = action.suit if action.suit is not None else turned
        return Trump(suit) if suit is not None else None
    return None


class BiddingFit:
    """How far a sampled hand is from the calls its seat made (0: it fits)."""

    def __init__(self, view: TableView) -> None:
        self.variant = view.variant
        self.turned = view.turned_card
        self.turned_suit = Suit(view.turned_card >> 3) if view.turned_card is not None else None
        # Per seat: contracts it bid (with the coinche value) and whether it opened with a pass.
        self.bids: dict[int, list[tuple[Trump, int]]] = {}
        self.opening_pass: set[int] = set()
        # Per seat: the trump of the contract it contred or doubled (it holds cards against it).
        self.doubled: dict[int, Trump] = {}
        standing: Trump | None = None
        for seat, action in view.bids:
            trump = bid_trump(action, self.turned_suit)
            if trump is not None:
                value = action.value if isinstance(action, CoincheBid) else 0
                self.bids.setdefault(seat, []).append((trump, value))
                standing = trump
            elif isinstance(action, Pass) and standing is None:
                self.opening_pass.add(seat)
            elif isinstance(action, Contre | Double) and standing is not None:
                self.doubled[seat] = standing

    @property
    def informative(self) -> bool:
        return bool(self.bids or self.opening_pass or self.doubled)

    def miss(self, seat: int, hand: CardSet) -> float:
        """How far ``hand``, the cards ``seat`` bid with, is from its calls (0: it fits)."""
        out = 0.0
        for trump, value in self.bids.get(seat, ()):
            if self.variant is Variant.COINCHE:
                out += max(0.0, value - 10 - expected_points(hand, trump))
            elif self.variant is Variant.BULGARIAN:
                out += max(0.0, -margin(hand, trump)) * 100
        against = self.doubled.get(seat)
        if against is not None:
            # A contre says the seat's cards beat the contract: strong in its trump.
            if self.variant is Variant.COINCHE:
                out += max(0.0, 100 - expected_points(hand, against))
            else:
                out += max(0.0, 0.05 - margin(hand, against)) * 100
        if seat in self.opening_pass:
            if self.variant is Variant.COINCHE:
                best = max(expected_points(hand, Trump(s)) for s in range(4))
                out += max(0.0, best - 95)
            elif self.variant is Variant.BULGARIAN:
                best = max(margin(hand, Trump(t)) for t in Trump)
                out += max(0.0, best - 0.1) * 100
            elif self.turned is not None and self.turned_suit is not None:
                e = expected_points(hand | 1 << self.turned, Trump(self.turned_suit))
                out += max(0.0, e - 100)
        return out
