"""Typed errors. A refused action carries a reason code and its parameters, not words: the
catalogue (``i18n``, message ``rule.<code>``) words it for the player in their language."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from types import MappingProxyType
from typing import Protocol, TypeAlias

from .cards import Card, Suit, card_str


class BeloteError(Exception):
    """Base of every error the rules core raises on purpose."""


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards named in a reason, worded as the language writes cards. ``joined`` says how a
    list reads: ``"or"`` (play QH or KH), ``"list"`` (QH, KH) or ``"run"`` (7H 8H 9H)."""

    cards: tuple[Card, ...]
    joined: str = "or"

    def __str__(self) -> str:
        return " ".join(card_str(c) for c in self.cards)


class Described(Protocol):
    """A game value that names itself in the logs' notation: a bid (``game.actions``). Named
    by what it does, not imported: actions and rules raise these errors."""

    def describe(self) -> str: ...


# What a reason's parameter may be: a number, cards, a suit or a contract's trump (both IntEnums,
# so numbers too: ``_show`` tells them apart), or a bid.
RuleParam: TypeAlias = int | Cards | Suit | Described


class IllegalAction(BeloteError):
    """An action the rules forbid right now: why, as ``code`` and ``params``.

    A player reads the catalogue's message ``rule.<code>`` (``i18n.rule_text``). ``str(err)`` is
    for logs: the English reason once the catalogue is loaded (it registers itself with
    :func:`word_reasons_with`: the rules core never imports it), else the code and parameters."""

    code: str
    params: Mapping[str, RuleParam]

    def __init__(self, code: str, **params: RuleParam) -> None:
        super().__init__(code)
        self.code = code
        self.params = MappingProxyType(params)

    def __str__(self) -> str:
        if _wording is not None:
            try:
                return _wording(self)
            except LookupError:  # a code the catalogue lacks: a test catches that; log the code
                pass
        if not self.params:
            return self.code
        shown = ", ".join(f"{k}={_show(v)}" for k, v in self.params.items())
        return f"{self.code} ({shown})"


_wording: Callable[[IllegalAction], str] | None = None


def word_reasons_with(wording: Callable[[IllegalAction], str]) -> None:
    """How ``str(err)`` words a refusal: the catalogue's English, set when it loads."""
    global _wording
    _wording = wording


def _show(value: RuleParam) -> str:
    if isinstance(value, IntEnum):  # a suit or a trump
        return value.name.lower()
    if isinstance(value, int | Cards):
        return str(value)
    return value.describe()


class NotYourTurn(IllegalAction):
    """An action by a seat that is not the one to act."""

    def __init__(self) -> None:
        super().__init__("not_your_turn")


class GameOver(IllegalAction):
    """An action after the match has ended."""

    def __init__(self) -> None:
        super().__init__("match_over")


class InvalidOptions(BeloteError):
    """Options a variant does not know, or values out of range: why, as ``code`` and
    ``params`` (option names, numbers). The catalogue's ``options.<code>`` words it for the
    reader; ``str(err)`` is for logs and the command line: the English reason once the
    catalogue is loaded (:func:`word_options_with`), else the code and parameters."""

    code: str
    params: Mapping[str, str | int]

    def __init__(self, code: str, **params: str | int) -> None:
        super().__init__(code)
        self.code = code
        self.params = MappingProxyType(params)

    def __str__(self) -> str:
        if _options_wording is not None:
            try:
                return _options_wording(self)
            except LookupError:
                pass
        shown = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.code} ({shown})" if shown else self.code


_options_wording: Callable[[InvalidOptions], str] | None = None


def word_options_with(wording: Callable[[InvalidOptions], str]) -> None:
    """How ``str(err)`` words invalid options: the catalogue's English, set when it loads."""
    global _options_wording
    _options_wording = wording
