"""Game values that messages name, worded in the reader's language: seats, teams, computer
levels, Discord permissions. Pass them as parameters (``seat=Seat(2)``); the catalogue words
them when the message is (``table.po``/``messages.po``, ``commands.po``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from .catalogue import DEFAULT_LANGUAGE, Term, Words, words

# Seat 0 sits at the bottom of the table image and play goes counter-clockwise.
SEAT_IDS = ("south", "east", "north", "west")
TEAM_IDS = ("north_south", "east_west")  # team 0 holds seats 0 and 2


class _Numbered(Term):
    """A value known by its number, worded by the message ``PREFIX.<IDS[number]>``."""

    __slots__ = ()
    PREFIX: ClassVar[str]
    IDS: ClassVar[tuple[str, ...]]
    number: int

    def text(self, w: Words) -> str:
        return w(f"{self.PREFIX}.{self.IDS[self.number]}")


@dataclass(frozen=True, slots=True)
class Seat(_Numbered):
    """A seat by its number (0 South, 1 East, 2 North, 3 West)."""

    PREFIX, IDS = "table.seat_name", SEAT_IDS
    number: int


@dataclass(frozen=True, slots=True)
class Team(_Numbered):
    """A team by its number (0 North–South, 1 East–West)."""

    PREFIX, IDS = "table.team_name", TEAM_IDS
    number: int


@dataclass(frozen=True, slots=True)
class Seats(Term):
    """Several seats, listed: ``North, West``."""

    numbers: Sequence[int]

    def text(self, w: Words) -> str:
        return listed([Seat(n).text(w) for n in self.numbers], w)


@dataclass(frozen=True, slots=True)
class Level(Term):
    """A computer level by its code (``easy``, ``hard``, ``random``)."""

    code: str

    def text(self, w: Words) -> str:
        return w(f"table.level.{self.code}")


@dataclass(frozen=True, slots=True)
class Levels(Term):
    """The levels one may choose from: ``easy or hard``."""

    codes: Sequence[str]

    def text(self, w: Words) -> str:
        return listed([Level(c).text(w) for c in self.codes], w, "cards.either")


@dataclass(frozen=True, slots=True)
class Permissions(Term):
    """Discord permissions by their flag names (``send_messages``), listed as Discord's client
    names them in the reader's language."""

    flags: Sequence[str]

    def text(self, w: Words) -> str:
        return listed([w(f"permissions.{flag}") for flag in self.flags], w)


@dataclass(frozen=True, slots=True)
class Number(Term):
    """A score, a rating or a count, written as the reader's language writes numbers: 1,180 in
    English, 1 180 in French. (Table numbers and ids stay plain: they are names, not
    amounts.) ``signed`` writes a change: +12, -7."""

    value: float
    signed: bool = False

    def text(self, w: Words) -> str:
        shown = w.number(abs(round(self.value)) if self.signed else round(self.value))
        if not self.signed:
            return shown
        return ("+" if self.value >= 0 else "-") + shown


@dataclass(frozen=True, slots=True)
class Message(Term):
    """A whole message kept to be worded later, once per reader. ``str()`` gives the English,
    for logs and tests."""

    message_id: str
    params: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, message_id: str, **params: object) -> Message:
        """``Message.of("belote.lost.channel_deleted", table=4)``."""
        return cls(message_id, params)

    def text(self, w: Words) -> str:
        return w(self.message_id, **self.params)

    def __str__(self) -> str:
        return self.text(words(DEFAULT_LANGUAGE))


def listed(items: Sequence[str], w: Words, join: str = "cards.list") -> str:
    """Items joined as ``w``'s language writes a list (``a, b``; ``join="cards.either"``:
    ``a or b``)."""
    out = items[0] if items else ""
    for item in items[1:]:
        out = w(join, first=out, then=item)
    return out


def seat_name(seat: int, language: str = DEFAULT_LANGUAGE) -> str:
    return Seat(seat).text(words(language))


def team_name(team: int, language: str = DEFAULT_LANGUAGE) -> str:
    return Team(team).text(words(language))
