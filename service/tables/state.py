"""A table in memory, what the service hears and tells, and the table service's settings.

Nothing here touches the database or Discord: these are the shapes the other modules share.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from db import SeatRow, TableRow, TableStatus
from db.tables import LEFT
from game.actions import Declaration
from game.choices import ahead_status
from game.match import Match
from game.players import Player
from game.rules import Options, Variant
from game.view import TableView, table_view
from i18n import DEFAULT_LANGUAGE, Message, Seat, words

from ..computers import computer_name, make_player, seat_seed
from .clock import Handle

# Turn timers: the seconds /belote new offers, and the range the service accepts.
TURN_TIMERS = (30, 60, 120, 300)
TURN_TIMER_LIMITS = (15, 600)
# The turn timer of a table where something is at stake (a stake, the ratings: four people)
# whose host chose none: without one, the person to act could stall until the sweeper ends the
# game, and a losing player get their stake back or keep their rating.
FAIR_TURN_TIMER = 120
# After a restart the person to act keeps the deadline their table showed while it is at least
# this far ahead; a deadline that passed or is nearer is given anew: the whole timer, and at
# least this long (they may not have seen the table while the bot was away).
RESTART_GRACE = 30
# The limits of a table whose server settings were not given (a service used without a bot, a
# table opened before they were stored): the server settings' defaults (service/guild_settings.py),
# but for the turns away: such a table keeps the rule it opened with, one turn run out and a
# computer takes the seat over.
DEFAULT_LOBBY_MINUTES = 30
DEFAULT_IDLE_MINUTES = 60
DEFAULT_AWAY_TURNS = 1
# A person's action moves the idle deadline in memory at once; the database holds it this many
# seconds ahead, written again only once the deadline passes it: a restart may end a table this
# much late at most, never early.
SWEEP_SAVE_STEP = 60.0


def system_rng() -> random.Random:
    """Where a service without a seed draws its tables' seeds and first dealers: the system's
    randomness. (The test suite replaces it with a seeded generator.)"""
    return random.SystemRandom()


class TableListener(Protocol):
    """What the service tells the delivery layer. Each call only schedules work."""

    def table_changed(self, live: LiveTable) -> None: ...
    def hands_changed(self, live: LiveTable, seats: Iterable[int]) -> None: ...
    # A person's action is applied in memory and on its way to the log: what the answer to
    # their click will show may be made meanwhile (it is told again, as a change, once saved).
    def acted(self, live: LiveTable, seat: int) -> None: ...
    def deal_finished(self, live: LiveTable, deal_index: int) -> None: ...
    def match_finished(self, live: LiveTable, ratings: dict[int, tuple[float, float]]) -> None: ...
    def table_closed(self, live: LiveTable, reason: str) -> None: ...


class NullListener:
    def table_changed(self, live: LiveTable) -> None:
        pass

    def hands_changed(self, live: LiveTable, seats: Iterable[int]) -> None:
        pass

    def acted(self, live: LiveTable, seat: int) -> None:
        pass

    def deal_finished(self, live: LiveTable, deal_index: int) -> None:
        pass

    def match_finished(self, live: LiveTable, ratings: dict[int, tuple[float, float]]) -> None:
        pass

    def table_closed(self, live: LiveTable, reason: str) -> None:
        pass


class LiveTable:
    """A table in memory: its row, its seats, and (once started) the match replayed from its log.
    """

    __slots__ = ("beat", "choices", "claimed", "closed_why", "computers", "deadline", "forced",
                 "invited", "kicked", "lock", "lost", "match", "moved", "row", "seats", "seq",
                 "sweep", "sweep_saved", "task", "timer", "timer_key", "tournament")

    def __init__(self, row: TableRow, seats: Iterable[SeatRow], invited: set[int],
                 kicked: set[int] | None = None) -> None:
        self.row = row
        self.seats: dict[int, SeatRow] = {s.seat: s for s in seats}
        self.invited = invited
        self.kicked: set[int] = kicked if kicked is not None else set()  # may not sit again
        # The sweeper's call at ``row.sweep_at``, and the deadline the database holds.
        self.sweep: Handle | None = None
        self.sweep_saved = row.sweep_at
        self.match: Match | None = None
        self.seq = 0  # the sequence number of the next log entry
        # Taken only through ``Tables.door``: every change to this table passes it.
        self.lock = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None  # computer turns in progress
        self.computers: dict[int, Player] = {}
        # What each person chose ahead of their cards this deal (saved, so a restart keeps it).
        self.choices: dict[int, SeatChoice] = {}
        # The turn timer: the (seq, seat) of the turn it runs for, when it runs out (Unix
        # time, for Discord's timestamps), and the clock's handle that fires then.
        self.timer_key: tuple[int, int] | None = None
        self.deadline: float | None = None
        self.timer: Handle | None = None
        # A forced card's beat: the clock's handle that plays it (turns.py), and the cards
        # played so for each seat this deal, until the seat acts itself (the table shows them).
        self.beat: Handle | None = None
        self.forced: dict[int, int] = {}
        # The deals (0-based) a claim played out, and who claimed (their deal sheet says so).
        self.claimed: dict[int, int] = {}
        # Why the table message cannot be shown now (its channel deleted, a permission
        # taken away), or None. The game goes on; the players read this in their hands.
        self.lost: Message | None = None
        # Why it closed before a winner (core.ENDED, ABANDONED...), once it has; None while
        # open or once won (the end hooks read it: a tournament replays a table ended early).
        self.closed_why: str | None = None
        # The ratings its end moved, {user id: (shown before, after)}: an abandoned game's
        # leavers' (its idle players among them), which its closed notice tells.
        self.moved: dict[int, tuple[float, float]] = {}
        # A tournament's table (the runner says so when it seats it, and again at a restart):
        # a person who leaves it is out of the tournament, and cannot take the seat back.
        self.tournament = False

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def variant(self) -> Variant:
        return Variant(self.row.variant)

    @property
    def options(self) -> Options:
        return Options.for_variant(self.variant, self.row.options)

    @property
    def playing(self) -> bool:
        return self.row.status == TableStatus.PLAYING and self.match is not None

    @property
    def rated(self) -> bool:
        """Four people hold the seats (those a computer stands in for included): the match
        moves ratings."""
        return len(self.seats) == 4 and all(s.user_id is not None for s in self.seats.values())

    @property
    def turn_timer(self) -> int | None:
        """The seconds a person has to act here, or None: the table's own timer, else
        ``FAIR_TURN_TIMER`` at a staked or rated table (a tournament sets its own)."""
        if self.row.turn_timer:
            return self.row.turn_timer
        return FAIR_TURN_TIMER if self.row.stake or self.rated else None

    @property
    def level(self) -> str:
        """The level of the computers that fill seats and take over at this table."""
        return self.row.computer_level or "easy"

    @property
    def language(self) -> str:
        """What the table's thread, public messages and images are written in."""
        return self.row.language

    @property
    def paused(self) -> bool:
        """Every person ran out of time: the computers wait until one takes their seat back."""
        return self.playing and not self.humans()

    def seat_of(self, user_id: int) -> int | None:
        """The seat this user plays now (not one a computer holds for them)."""
        for s in self.seats.values():
            if s.user_id == user_id and s.computer is None:
                return s.seat
        return None

    def held_seat(self, user_id: int) -> int | None:
        """The seat this user holds, played by them or by a computer standing in."""
        for s in self.seats.values():
            if s.user_id == user_id:
                return s.seat
        return None

    def names(self, language: str = DEFAULT_LANGUAGE) -> list[str]:
        """Who sits at each seat; an empty seat is named in ``language`` ("(North)")."""
        out = []
        for i in range(4):
            s = self.seats.get(i)
            if s is None:
                out.append(words(language)("table.empty_seat", seat=Seat(i)))
            elif s.computer is not None and s.user_id is None:
                out.append(computer_name(i))  # from the seat: older rows hold another name
            elif s.computer is not None:  # standing in for a person who is away
                out.append(f"{s.name} ({computer_name(i)})")
            else:
                out.append(s.name)
        return out

    def rename(self) -> None:
        """The match's player names follow the seats (a computer took over, a person is back)."""
        if self.match is not None:
            self.match.players = tuple(self.names())

    def choice(self, seat: int) -> SeatChoice:
        """The seat's choices for the current deal (the defaults if none were made)."""
        deal = len(self.match.deals) if self.match is not None else 0
        c = self.choices.get(seat)
        return c.for_deal(deal) if c is not None else SeatChoice(deal)

    def ahead(self, seat: int) -> tuple[str | None, str | None]:
        """(status, code) of what the seat chose ahead of its turn (game/choices.py's
        ``ahead_status``: WAITING, DUE, DROPPED; None: nothing pending)."""
        c = self.choice(seat)
        deal = self.match.deal if self.match is not None else None
        status = ahead_status(deal, seat, c.ahead, c.ahead_at)
        return status, c.ahead if status is not None else None

    def view(self, seat: int | None = None) -> TableView | None:
        return table_view(self.match, seat) if self.match is not None else None

    def humans(self) -> list[SeatRow]:
        return [s for s in self.seats.values() if s.is_human]

    def player(self, seat: int) -> Player:
        s = self.seats[seat]
        assert s.computer is not None
        p = self.computers.get(seat)
        if p is None:
            p = self.computers[seat] = make_player(s.computer, seat_seed(self.row.seed, seat))
        return p

    @property
    def lobby_minutes(self) -> int:
        return self.row.lobby_minutes or DEFAULT_LOBBY_MINUTES

    @property
    def idle_minutes(self) -> int:
        return self.row.idle_minutes or DEFAULT_IDLE_MINUTES

    @property
    def away_turns(self) -> int:
        return self.row.away_turns or DEFAULT_AWAY_TURNS

    def may_take_back(self, seat: SeatRow) -> bool:
        """Whether the person of this seat, played by a computer, may take it back: not one a
        moderator removed, nor one who left a tournament's table."""
        return seat.user_id not in self.kicked and \
            not (self.tournament and seat.departed == LEFT)

    def leavers(self) -> list[int]:
        """The people who left this match (or were kicked) and did not come back."""
        return [s.user_id for s in self.seats.values()
                if s.user_id is not None and s.departed is not None]

    def stop_sweep(self) -> None:
        if self.sweep is not None:
            self.sweep.cancel()
        self.sweep = None

    def stop_timer(self) -> None:
        """No turn timer runs for this table any more."""
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.timer_key = self.deadline = None

    def stop_beat(self) -> None:
        """No forced card is waiting to be played at this table any more."""
        if self.beat is not None:
            self.beat.cancel()
        self.beat = None


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """A player's choices for the coming cards of one deal."""

    deal: int  # the deal number (1-based) they were made in
    declare: tuple[Declaration, ...] | None = None  # None: the best announcements
    belote: bool = True
    # What they chose ahead of their turn (game/choices.py: ``pass`` or a card), and the
    # seat's count of actions in the deal when they did; None: nothing chosen ahead.
    ahead: str | None = None
    ahead_at: int = 0

    def for_deal(self, deal: int) -> SeatChoice:
        return self if self.deal == deal else SeatChoice(deal)


@dataclass(frozen=True, slots=True)
class NewTable:
    guild_id: int
    channel_id: int
    host_id: int
    host_name: str
    variant: str
    options: dict[str, Any]
    private: bool = False
    fill: bool = False  # computers sit in the other seats (people may still take them)
    turn_timer: int | None = None  # seconds a person has to act; None or 0: no timer
    computer_level: str | None = None  # None: the bot's COMPUTER_LEVEL
    # The server's limits (service/guild_settings.py); None: the defaults above.
    lobby_minutes: int | None = None
    idle_minutes: int | None = None
    away_turns: int | None = None
    language: str = "en"  # one of i18n.languages(): the table's public words and images
    stake: int = 0  # virtual credits each person stakes (tables of four people only)
    # The decks and the first dealer; None: drawn (the daily deal gives its day's).
    seed: int | None = None
    first_dealer: int | None = None
    autoplay: bool = True  # a person's only legal card is played for them (the server's)
