"""The actions a seat can take. They carry no seat: the state knows whose turn it is.

``describe()`` is the logs' notation of an action (``80 hearts``, ``play JH``), never what a
player reads: ``i18n.bid_text`` words an action for them.

Each action maps one-to-one to the JSON shapes of docs/game-record.md (see record.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit, card_str
from .rules import Trump

CAPOT = 250  # the value of a coinche capot bid, in bidding order and in scoring


@dataclass(frozen=True, slots=True)
class Pass:
    def describe(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Take:
    """Classic: take the turned suit (``suit`` None, round one) or name a suit (round two)."""

    suit: Suit | None = None

    def describe(self) -> str:
        return "take" if self.suit is None else f"take {Trump(self.suit).notation}"


@dataclass(frozen=True, slots=True)
class CoincheBid:
    """Coinche: a value 80..160 by 10, or CAPOT (250), and a trump suit."""

    value: int
    suit: Suit

    def describe(self) -> str:
        v = "capot" if self.value == CAPOT else str(self.value)
        return f"{v} {Trump(self.suit).notation}"


@dataclass(frozen=True, slots=True)
class Contre:
    def describe(self) -> str:
        return "contre"


@dataclass(frozen=True, slots=True)
class Surcontre:
    def describe(self) -> str:
        return "surcontre"


@dataclass(frozen=True, slots=True)
class ContractBid:
    """Bulgarian: a contract, clubs < diamonds < hearts < spades < no trumps < all trumps."""

    contract: Trump

    def describe(self) -> str:
        return Trump(self.contract).notation


@dataclass(frozen=True, slots=True)
class Double:
    def describe(self) -> str:
        return "double"


@dataclass(frozen=True, slots=True)
class Redouble:
    def describe(self) -> str:
        return "redouble"


Declaration = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card. ``belote=False`` declines belote on this card; ``declare`` (first card only)
    lists the announcements chosen, each as its cards; None announces the best by default."""

    card: Card
    belote: bool = True
    declare: tuple[Declaration, ...] | None = None

    def describe(self) -> str:
        return f"play {card_str(self.card)}"


BidAction = Pass | Take | CoincheBid | Contre | Surcontre | ContractBid | Double | Redouble
Action = BidAction | Play


# Shared instances: actions are immutable, and legal-action lists are built on hot paths.
PASS = Pass()
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(32))
