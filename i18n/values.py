"""A game value in words, in one place: cards, suits, bids, contracts and announcements, for a
sentence (``card_text``: ``JH`` in English, as the rules' refusals and the command line write
them) and for a label (``card_label``: ``J♥``, as a button, an image or a web page prints a
card, its rank as a card's corner shows it). The words come from the catalogue (``cards.po``,
and ``controls.bid.*`` for a bid's button); the suit symbols from the rules core.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache, reduce
from typing import TypeAlias

from game.actions import (
    CAPOT,
    Action,
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
from game.announcements import Announcement
from game.cards import SUIT_SYMBOLS, Card, Rank, Suit
from game.contract import Contract
from game.errors import Cards
from game.rules import Trump, Variant

from .catalogue import DEFAULT_LANGUAGE, words

_JOINS = {"or": "cards.either", "list": "cards.list", "run": "cards.run"}


def _name(value: IntEnum) -> str:
    return value.name.lower()


def card_text(card: Card, language: str = DEFAULT_LANGUAGE) -> str:
    """A card as the language writes it: ``JH`` in English."""
    w = words(language)
    return w("cards.card", rank=w(f"cards.rank.{_name(Rank(card & 7))}"),
             suit=w(f"cards.suit.{_name(Suit(card >> 3))}"))


def cards_text(cards: Cards, language: str = DEFAULT_LANGUAGE) -> str:
    """Cards joined as their parameter says: ``QH or KH``, ``QH, KH``, ``7H 8H 9H``."""
    w = words(language)
    join = _JOINS[cards.joined]
    return reduce(lambda first, then: w(join, first=first, then=then),
                  (card_text(c, language) for c in cards.cards))


def trump_text(trump: Trump | Suit, language: str = DEFAULT_LANGUAGE) -> str:
    """A contract's trump (or a suit named as one): ``hearts``, ``no trumps``."""
    return words(language)(f"cards.trump.{_name(Trump(trump))}")


def bid_text(bid: object, language: str = DEFAULT_LANGUAGE) -> str:
    """A bid as the language says it: ``80 hearts``, ``capot spades``, ``pass``."""
    w = words(language)
    match bid:
        case CoincheBid(value=value, suit=suit):
            trump = trump_text(suit, language)
            return w("cards.bid.capot", trump=trump) if value == CAPOT else \
                w("cards.bid.value", value=w.number(value), trump=trump)
        case Take(suit=None):
            return w("cards.bid.take")
        case Take(suit=suit):
            assert suit is not None
            return w("cards.bid.take_suit", trump=trump_text(suit, language))
        case ContractBid(contract=contract):
            return w("cards.bid.contract", trump=trump_text(contract, language))
        case Pass():
            return w("cards.bid.pass")
        case Contre():
            return w("cards.bid.contre")
        case Surcontre():
            return w("cards.bid.surcontre")
        case Double():
            return w("cards.bid.double")
        case Redouble():
            return w("cards.bid.redouble")
        case Play(card=card):
            return card_text(card, language)
    raise TypeError(f"not a bid: {bid!r}")


def contract_text(contract: Contract, language: str = DEFAULT_LANGUAGE) -> str:
    """A contract as the language says it: ``80 hearts doubled``, ``no trumps``."""
    w = words(language)
    if contract.value is None:
        said = trump_text(contract.trump, language)
    else:
        said = bid_text(CoincheBid(contract.value, Suit(contract.trump)), language)
    if contract.multiplier == 2:
        return w("cards.contract.doubled", contract=said)
    if contract.multiplier == 4:
        return w("cards.contract.redoubled", contract=said)
    return said


def announcement_text(announcement: Announcement, language: str = DEFAULT_LANGUAGE) -> str:
    """An announcement's name: ``tierce``, ``carré of jacks``."""
    return announcement_name(announcement.carre_rank, announcement.length, language)


def announcement_name(carre_rank: Rank | None, length: int,
                      language: str = DEFAULT_LANGUAGE) -> str:
    """An announcement's name from what it is made of (a carré's rank, else a run's length)."""
    w = words(language)
    if carre_rank is not None:
        return w(f"cards.announce.carre.{_name(Rank(carre_rank))}")
    if length in _SEQUENCES:
        return w(f"cards.announce.{_SEQUENCES[length]}")
    return w("cards.announce.run", length=length)


_SEQUENCES = {3: "tierce", 4: "quarte", 5: "quinte"}


@cache
def faces(language: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """The eight ranks, seven to ace, as a card's corner prints them in ``language``
    (``cards.face.*``): ``7 8 9 10 J Q K A`` in English and Bulgarian, ``7 8 9 10 V D R A`` in
    French."""
    w = words(language)
    return tuple(w(f"cards.face.{_name(rank)}") for rank in Rank)


def card_label(card: Card, language: str = DEFAULT_LANGUAGE) -> str:
    """A card as a button or a page prints it: its face and its suit's symbol, ``10♥``."""
    return faces(language)[card & 7] + SUIT_SYMBOLS[card >> 3]


def action_label(action: Action, language: str = DEFAULT_LANGUAGE) -> str:
    """An action as its button says it: ``Pass``, ``Take ♥``, ``90 ♠``, ``J♥``."""
    w = words(language)
    if isinstance(action, Pass):
        return w("controls.bid.pass")
    if isinstance(action, Take):
        return w("controls.bid.take") if action.suit is None else \
            w("controls.bid.take_suit", suit=SUIT_SYMBOLS[action.suit])
    if isinstance(action, CoincheBid):
        if action.value == CAPOT:
            return w("controls.bid.capot", suit=SUIT_SYMBOLS[action.suit])
        return w("controls.bid.value", value=action.value, suit=SUIT_SYMBOLS[action.suit])
    if isinstance(action, ContractBid):
        return SUIT_SYMBOLS[action.contract] if action.contract < 4 else \
            w("controls.bid.no_trumps" if action.contract == 4 else "controls.bid.all_trumps")
    if isinstance(action, Play):
        return card_label(action.card, language)
    return w(f"controls.bid.{type(action).__name__.lower()}")  # contre, surcontre, (re)double


# A piece of what an image prints: text, or a suit, printed as its symbol in the suit's colour.
Piece: TypeAlias = str | Suit


def said_pieces(bid: BidAction, language: str = DEFAULT_LANGUAGE) -> list[Piece]:
    """What a seat said, as the table image prints it: ``Pass``, ``90 ♥``, ``Take ♠``,
    ``Contre``, ``No trumps``."""
    w = words(language)
    if isinstance(bid, Pass):
        return [w("image.pass")]
    if isinstance(bid, Take):
        return [w("image.take")] if bid.suit is None else [w("image.take") + " ", bid.suit]
    if isinstance(bid, CoincheBid):
        return [value_said(bid.value, language) + " ", bid.suit]
    if isinstance(bid, ContractBid):
        return trump_pieces(bid.contract, language)
    return [w(f"image.{type(bid).__name__.lower()}")]  # contre, surcontre, (re)double


def trump_pieces(trump: Trump, language: str = DEFAULT_LANGUAGE) -> list[Piece]:
    """A contract's trump as an image prints it: the suit's symbol, or ``No trumps``."""
    if trump.is_suit:
        return [Suit(int(trump))]
    return [words(language)(f"image.trump.{trump.code}")]


def value_said(value: int, language: str = DEFAULT_LANGUAGE) -> str:
    """A coinche bid's value as an image prints it: ``90``, ``Capot``."""
    return words(language)("image.capot") if value == CAPOT else str(value)


def multiplier_said(contract: Contract, variant: Variant,
                    language: str = DEFAULT_LANGUAGE) -> str | None:
    """A contract's contre or double, as the variant calls it (None: none)."""
    if contract.multiplier == 1:
        return None
    w = words(language)
    if variant is Variant.BULGARIAN:
        return w("image.double" if contract.multiplier == 2 else "image.redouble")
    return w("image.contre" if contract.multiplier == 2 else "image.surcontre")


def announcement_title(carre_rank: Rank | None, length: int,
                       language: str = DEFAULT_LANGUAGE) -> str:
    """An announcement's name as an image heads it: ``Tierce``, ``Carré of jacks``."""
    name = announcement_name(carre_rank, length, language)
    return name[:1].upper() + name[1:]
