"""The rules' refusals in words: ``rule_text(err, language)`` for a player, ``rule_reason`` for
the command line. The rules core says why as a code and game values (cards, suits, bids); this
module turns each value into text as the language writes it (``cards.po``) and the code into the
message ``rule.<code>`` (``rules.po``). The CLI and the bot both word refusals here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import reduce
from typing import TYPE_CHECKING

from game.actions import (
    CAPOT,
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
from game.cards import Card, Rank, Suit
from game.contract import Contract
from game.errors import Cards, IllegalAction, InvalidOptions, word_options_with, word_reasons_with
from game.rules import Trump

from .catalogue import DEFAULT_LANGUAGE, Term, Words, texts, words

if TYPE_CHECKING:
    from game.errors import RuleParam

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
    w = words(language)
    if announcement.carre_rank is not None:
        return w(f"cards.announce.carre.{_name(announcement.carre_rank)}")
    if announcement.length in _SEQUENCES:
        return w(f"cards.announce.{_SEQUENCES[announcement.length]}")
    return w("cards.announce.run", length=announcement.length)


_SEQUENCES = {3: "tierce", 4: "quarte", 5: "quinte"}


def _param_text(value: RuleParam, w: Words) -> str:
    if isinstance(value, Cards):
        return cards_text(value, w.language)
    if isinstance(value, Suit):
        return w(f"cards.suit_name.{_name(value)}")
    if isinstance(value, Trump):
        return trump_text(value, w.language)
    if isinstance(value, int):
        return w.number(value)
    return bid_text(value, w.language)


def rule_reason(err: IllegalAction, language: str = DEFAULT_LANGUAGE) -> str:
    """Why the rules refused, as a clause: ``you must follow suit: play QH or KH``."""
    w = words(language)
    return w(f"rule.{err.code}", **{k: _param_text(v, w) for k, v in err.params.items()})


def rule_text(err: IllegalAction, language: str = DEFAULT_LANGUAGE) -> str:
    """Why the rules refused, as the sentence a player reads: ``You must follow suit: ...``."""
    reason = rule_reason(err, language)
    return reason[:1].upper() + reason[1:] + "."


@dataclass(frozen=True, slots=True)
class RuleSentence(Term):
    """Why the rules refused, as a parameter: worded in the language of the message it fills
    (a refusal answered to a French player reads French)."""

    error: IllegalAction

    def text(self, w: Words) -> str:
        return rule_text(self.error, w.language)


word_reasons_with(rule_reason)  # logs, and callers not yet worded here, read English reasons


def options_reason(err: InvalidOptions, language: str = DEFAULT_LANGUAGE) -> str:
    """Why a table's options do not work, as a clause: ``the target must be at most 100000``."""
    w = words(language)
    params: dict[str, object] = dict(err.params)
    if err.code == "unknown":  # a known variant's code: its name as the reader's language says it
        params["variant"] = w(f"commands.choice.variant.{params['variant']}")
    option = params.get("option")
    if isinstance(option, str) and f"commands.new.{option}.name" in texts(DEFAULT_LANGUAGE):
        params["option"] = w(f"commands.new.{option}.name")  # as /belote new names it here
    return w(f"options.{err.code}", **params)


@dataclass(frozen=True, slots=True)
class OptionsReason(Term):
    """Why options do not work, as a parameter: worded in the language of the message it
    fills."""

    error: InvalidOptions

    def text(self, w: Words) -> str:
        return options_reason(self.error, w.language)


word_options_with(options_reason)  # logs and the command line read English reasons
