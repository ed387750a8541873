"""The rules' refusals in words: ``rule_text(err, language)`` for a player, ``rule_reason`` for
the command line. The rules core says why as a code and game values (cards, suits, bids); this
module turns each value into text as the language writes it (``cards.po``) and the code into the
message ``rule.<code>`` (``rules.po``). The CLI and the bot both word refusals here."""

from __future__ import annotations

from dataclasses import dataclass

from game.actions import BidAction
from game.cards import Suit
from game.errors import (
    Cards,
    IllegalAction,
    InvalidOptions,
    RuleParam,
    word_options_with,
    word_reasons_with,
)
from game.rules import Trump

from .catalogue import DEFAULT_LANGUAGE, Term, Words, texts, words
from .values import bid_text, cards_text, trump_text


def _param_text(value: RuleParam, w: Words) -> str:
    if isinstance(value, Cards):
        return cards_text(value, w.language)
    if isinstance(value, Suit):
        return w(f"cards.suit_name.{value.name.lower()}")
    if isinstance(value, Trump):
        return trump_text(value, w.language)
    if isinstance(value, int):
        return w.number(value)
    if isinstance(value, BidAction):
        return bid_text(value, w.language)
    raise LookupError(f"a reason's parameter the catalogue cannot word: {value.describe()}")


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
