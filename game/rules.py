"""Variants, contract kinds and table options, with the defaults of docs/rules.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum, IntEnum, StrEnum
from typing import Any

from .errors import InvalidOptions


class Variant(StrEnum):
    CLASSIC = "classic"
    COINCHE = "coinche"
    BULGARIAN = "bulgarian"


class Trump(IntEnum):
    """What a contract makes trump. 0-3 are the suits, in bulgarian bidding order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NO_TRUMPS = 4
    ALL_TRUMPS = 5

    @property
    def code(self) -> str:
        return TRUMP_CODES[self]

    @property
    def is_suit(self) -> bool:
        return self <= 3

    @property
    def notation(self) -> str:
        """The trump in the records' and logs' notation (``hearts``, ``no trumps``): stored in
        match records, so it never changes. Players read i18n's wording, not this."""
        return self.name.lower().replace("_", " ")


TRUMP_CODES = ("C", "D", "H", "S", "NT", "AT")


def parse_trump(code: str) -> Trump:
    if not isinstance(code, str) or code.strip().upper() not in TRUMP_CODES:
        raise ValueError(f"unknown contract {code!r}: use C D H S NT AT")
    return Trump(TRUMP_CODES.index(code.strip().upper()))


class Shuffle(StrEnum):
    RANDOM = "random"
    CUT = "cut"


DEFAULT_TARGET = {Variant.CLASSIC: 501, Variant.COINCHE: 701, Variant.BULGARIAN: 151}
# Targets a table host picks from in the bot (any positive whole number is valid in a record).
SUGGESTED_TARGETS = {
    Variant.CLASSIC: (501, 1001),
    Variant.COINCHE: (701, 1000, 2000),
    Variant.BULGARIAN: (151,),
}
MAX_TARGET = 100_000
# The most deals a deal cap may allow (tournament games use 7).
MAX_DEAL_CAP = 100


@dataclass(frozen=True, slots=True)
class Options:
    """The options of a table. Build with :meth:`for_variant` to get the variant's defaults."""

    target: int
    announcements: bool
    must_undertrump: bool
    shuffle: Shuffle = Shuffle.RANDOM
    # Tournament games: after this many played deals the higher total wins (None: no cap).
    # Set by the bot for tournament tables, not a table host's option (not in OPTION_NAMES).
    deal_cap: int | None = None

    @staticmethod
    def for_variant(variant: Variant, given: Mapping[str, Any] | None = None) -> Options:
        """The defaults of ``variant`` overridden by ``given``; unknown or bad options raise."""
        # Options are immutable: the defaults of a variant are built once and shared (a new
        # match, one every few random deals, built them anew at a quarter of a deal's cost).
        base = _DEFAULTS[variant] if type(variant) is Variant else _defaults(variant)
        if not given:
            return base
        if not isinstance(given, Mapping):
            raise InvalidOptions("not_an_object")
        known = set(OPTION_NAMES[variant]) | set(MATCH_ONLY_OPTIONS)
        changes: dict[str, Any] = {}
        for key, value in given.items():
            if key not in known:
                raise InvalidOptions("unknown", variant=variant.value, option=str(key))
            if key == "target":
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise InvalidOptions("target_not_positive")
                if value > MAX_TARGET:
                    raise InvalidOptions("target_too_high", high=MAX_TARGET)
                changes[key] = value
            elif key == "deal_cap":
                if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                          or not 1 <= value <= MAX_DEAL_CAP):
                    raise InvalidOptions("deal_cap_range", high=MAX_DEAL_CAP)
                changes[key] = value
            elif key == "shuffle":
                try:
                    changes[key] = Shuffle(value)
                except ValueError:
                    raise InvalidOptions("shuffle") from None
            else:
                if not isinstance(value, bool):
                    raise InvalidOptions("not_a_flag", option=key)
                changes[key] = value
        return replace(base, **changes)

    def to_json(self, variant: Variant) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in OPTION_NAMES[variant]:
                value = getattr(self, f.name)
                out[f.name] = value.value if isinstance(value, Enum) else value
        if self.deal_cap is not None:  # absent when unset: records of normal tables unchanged
            out["deal_cap"] = self.deal_cap
        return out


# The option keys each variant has (codes of the records and of /belote new, not words).
def _defaults(variant: Variant) -> Options:
    return Options(
        target=DEFAULT_TARGET[variant],
        announcements=variant is not Variant.COINCHE,
        must_undertrump=variant is Variant.CLASSIC,
    )


_DEFAULTS = {v: _defaults(v) for v in Variant}

OPTION_NAMES: dict[Variant, tuple[str, ...]] = {
    Variant.CLASSIC: ("target", "announcements", "must_undertrump", "shuffle"),
    Variant.COINCHE: ("target", "announcements", "must_undertrump", "shuffle"),
    Variant.BULGARIAN: ("target", "announcements", "shuffle"),
}
# Options of every variant that the bot sets itself (tournament tables), never a host's choice.
MATCH_ONLY_OPTIONS: tuple[str, ...] = ("deal_cap",)
