"""The auctions of the three variants: whose turn, the legal calls, and the contract they give."""

from __future__ import annotations

from bisect import bisect_right

from .actions import (
    CAPOT,
    PASS,
    BidAction,
    CoincheBid,
    ContractBid,
    Contre,
    Double,
    Pass,
    Redouble,
    Surcontre,
    Take,
)
from .cards import Suit
from .contract import Contract, contract_of
from .errors import IllegalAction
from .rules import Trump

COINCHE_VALUES = (*range(80, 170, 10), CAPOT)
_SUITS = tuple(Suit)
# Every bid once, in bidding order, so legal lists are slices rather than new objects.
_COINCHE_BIDS = tuple(CoincheBid(v, s) for v in COINCHE_VALUES for s in _SUITS)
_CONTRACT_BIDS = tuple(ContractBid(t) for t in Trump)
_CLASSIC_ROUND_ONE: tuple[BidAction, ...] = (PASS, Take())
_CLASSIC_ROUND_TWO: dict[Suit, tuple[BidAction, ...]] = {
    turned: (PASS, *(Take(s) for s in _SUITS if s != turned)) for turned in _SUITS}
_TRUMPS = tuple(Trump)


def _trump(suit: int) -> Trump:
    """``Trump(suit)`` without the enum call (slow) for a Suit or Trump, which are in range."""
    if type(suit) is Suit or type(suit) is Trump:
        return _TRUMPS[suit]
    return Trump(suit)


_CONTRE = Contre()
_SURCONTRE = Surcontre()
_DOUBLE = Double()
_REDOUBLE = Redouble()


class Bidding:
    """Common state of an auction. ``contract`` is set when it ends with one."""

    __slots__ = ("contract", "done", "history", "to_act")

    def __init__(self, first: int) -> None:
        self.to_act = first
        self.done = False
        self.contract: Contract | None = None
        self.history: list[tuple[int, BidAction]] = []

    def legal(self) -> list[BidAction]:
        raise NotImplementedError

    def apply(self, action: BidAction) -> None:
        raise NotImplementedError


class ClassicBidding(Bidding):
    """Round one: take the turned suit or pass. Round two: name another suit or pass."""

    __slots__ = ("passes", "turned_suit")

    def __init__(self, first: int, turned_suit: Suit) -> None:
        Bidding.__init__(self, first)  # not super(): a deal makes one, and super() is a call
        self.turned_suit = turned_suit
        self.passes = 0

    @property
    def round(self) -> int:
        return 1 if self.passes < 4 else 2

    def legal(self) -> list[BidAction]:
        if self.done:
            return []
        if self.passes < 4:  # round one (the round property, without the call)
            return list(_CLASSIC_ROUND_ONE)
        return list(_CLASSIC_ROUND_TWO[self.turned_suit])

    def apply(self, action: BidAction) -> None:
        if self.done:
            raise IllegalAction("bidding_over")
        seat = self.to_act
        if isinstance(action, Pass):
            self.history.append((seat, action))
            self.passes += 1
            if self.passes == 8:
                self.done = True
            else:
                self.to_act = (seat + 1) & 3
            return
        if not isinstance(action, Take):
            raise IllegalAction("classic_take_or_pass")
        # Trump(turned suit) only for a refusal: an enum call is slow.
        if self.passes < 4:  # round one
            if action.suit is not None and action.suit != self.turned_suit:
                raise IllegalAction("take_turned_suit", trump=Trump(self.turned_suit))
            suit = self.turned_suit
        else:
            if action.suit is None or action.suit == self.turned_suit:
                raise IllegalAction("name_another_suit", trump=Trump(self.turned_suit))
            suit = action.suit
        self.history.append((seat, action))
        self.contract = contract_of(seat, _trump(suit))
        self.done = True


class CoincheBidding(Bidding):
    """Values 80..160 and capot with a suit; contre by an opponent, then surcontre or pass."""

    __slots__ = ("bid", "contre_by", "passes")

    def __init__(self, first: int) -> None:
        Bidding.__init__(self, first)  # not super(): a deal makes one, and super() is a call
        self.bid: Contract | None = None
        self.contre_by: int | None = None
        self.passes = 0

    def legal(self) -> list[BidAction]:
        if self.done:
            return []
        if self.contre_by is not None:
            return [PASS, _SURCONTRE]
        out: list[BidAction] = [PASS]
        if self.bid is None:
            out.extend(_COINCHE_BIDS)
            return out
        value = self.bid.value if self.bid.value is not None else 0
        # The bids above: past the values up to this one (bisect: the count of them, in C).
        out.extend(_COINCHE_BIDS[4 * bisect_right(COINCHE_VALUES, value):])
        if (self.bid.seat ^ self.to_act) & 1:
            out.append(_CONTRE)
        return out

    def apply(self, action: BidAction) -> None:
        if self.done:
            raise IllegalAction("bidding_over")
        seat = self.to_act
        if self.contre_by is not None:
            assert self.bid is not None
            if isinstance(action, Surcontre):
                self.history.append((seat, action))
                self.contract = contract_of(self.bid.seat, self.bid.trump, self.bid.value, 4)
                self.done = True
            elif isinstance(action, Pass):
                self.history.append((seat, action))
                if seat == (self.contre_by + 1) & 3:
                    self.to_act = (self.contre_by + 3) & 3
                else:
                    self.contract = self.bid
                    self.done = True
            else:
                raise IllegalAction("surcontre_or_pass")
            return
        if isinstance(action, Pass):
            self.history.append((seat, action))
            self.passes += 1
            if self.bid is None and self.passes == 4:
                self.done = True
            elif self.bid is not None and self.passes == 3:
                self.contract = self.bid
                self.done = True
            else:
                self.to_act = (seat + 1) & 3
        elif isinstance(action, CoincheBid):
            if action.value not in COINCHE_VALUES:
                raise IllegalAction("coinche_bid_value")
            if self.bid is not None and self.bid.value is not None and \
                    action.value <= self.bid.value:
                raise IllegalAction("bid_higher",
                                    bid=CoincheBid(self.bid.value, Suit(self.bid.trump)))
            self.history.append((seat, action))
            self.bid = contract_of(seat, _trump(action.suit), action.value)
            self.passes = 0
            self.to_act = (seat + 1) & 3
        elif isinstance(action, Contre):
            if self.bid is None:
                raise IllegalAction("no_bid_to_contre")
            if not (self.bid.seat ^ seat) & 1:
                raise IllegalAction("contre_own_team")
            self.history.append((seat, action))
            self.contre_by = seat
            self.bid = contract_of(self.bid.seat, self.bid.trump, self.bid.value, 2)
            self.to_act = (seat + 1) & 3
        elif isinstance(action, Surcontre):
            raise IllegalAction("surcontre_without_contre")
        else:
            raise IllegalAction("coinche_actions")


# The calls open after a contract of each kind: higher contracts only, with a double (the other
# team, not yet doubled) or with a redouble (its own team, doubled).
_BULGARIAN_OPENING: tuple[BidAction, ...] = (PASS, *_CONTRACT_BIDS)
_BULGARIAN_AFTER: tuple[tuple[tuple[BidAction, ...], ...], ...] = tuple(
    ((PASS, *_CONTRACT_BIDS[t + 1:]), (PASS, *_CONTRACT_BIDS[t + 1:], _DOUBLE),
     (PASS, *_CONTRACT_BIDS[t + 1:], _REDOUBLE)) for t in Trump)


# Every Bulgarian contract by seat and kind, plain, doubled and redoubled: the shared ones.
_BULGARIAN_CONTRACTS = tuple(tuple(tuple(contract_of(seat, t, None, m) for m in (1, 2, 4))
                                   for t in Trump) for seat in range(4))


class BulgarianBidding(Bidding):
    """Contracts C < D < H < S < NT < AT; double and redouble; a higher contract cancels them."""

    __slots__ = ("bid", "passes")

    def __init__(self, first: int) -> None:
        Bidding.__init__(self, first)  # not super(): a deal makes one, and super() is a call
        self.bid: Contract | None = None
        self.passes = 0

    def legal(self) -> list[BidAction]:
        if self.done:
            return []
        bid = self.bid
        if bid is None:
            return list(_BULGARIAN_OPENING)
        # The calls after a contract, one of the three lists made once (a copy of a tuple).
        if (bid.seat ^ self.to_act) & 1:
            return list(_BULGARIAN_AFTER[bid.trump][1 if bid.multiplier == 1 else 0])
        return list(_BULGARIAN_AFTER[bid.trump][2 if bid.multiplier == 2 else 0])

    def apply(self, action: BidAction) -> None:
        if self.done:
            raise IllegalAction("bidding_over")
        seat = self.to_act
        bid = self.bid
        if isinstance(action, Pass):
            self.history.append((seat, action))
            self.passes += 1
            if bid is None and self.passes == 4:
                self.done = True
            elif bid is not None and self.passes == 3:
                self.contract = bid
                self.done = True
            else:
                self.to_act = (seat + 1) & 3
            return
        if isinstance(action, ContractBid):
            kind = action.contract
            if bid is not None and kind <= bid.trump:
                raise IllegalAction("contract_higher", trump=bid.trump)
            self.bid = _BULGARIAN_CONTRACTS[seat][kind][0] if type(kind) is Trump else \
                contract_of(seat, _trump(kind))
        elif isinstance(action, Double):
            if bid is None:
                raise IllegalAction("no_contract_to_double")
            if not (bid.seat ^ seat) & 1:
                raise IllegalAction("double_own_team")
            if bid.multiplier != 1:
                raise IllegalAction("already_doubled")
            self.bid = _BULGARIAN_CONTRACTS[bid.seat][bid.trump][1]
        elif isinstance(action, Redouble):
            if bid is None or bid.multiplier != 2 or (bid.seat ^ seat) & 1:
                raise IllegalAction("redouble_not_allowed")
            self.bid = _BULGARIAN_CONTRACTS[bid.seat][bid.trump][2]
        else:
            raise IllegalAction("bulgarian_actions")
        self.history.append((seat, action))
        self.passes = 0
        self.to_act = (seat + 1) & 3
