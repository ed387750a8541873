"""The table service: owns the live tables, judges every request, persists before answering.

One asyncio.Lock per table applies requests to a table one at a time; different tables never
wait for each other. The rules core decides legality; the database log is written (one
transaction) before anybody is answered; a listener (the Discord delivery) is told what changed
and does its work in the background, so the service itself never waits on Discord.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from db import ChoiceRow, Database, LogEntry, MatchPlayer, SeatRow, TableRow, TableStatus, to_record
from game.actions import Action, Declaration, Play
from game.announcements import check_choice
from game.cards import card_str, parse_card
from game.choices import first_card, may_call_belote
from game.errors import IllegalAction, InvalidOptions
from game.match import Match
from game.players import Player
from game.record import ReplayError, action_to_json, replay
from game.rules import Options, Variant
from game.tally import tally
from game.view import TableView, table_view

from .computers import available_levels, computer_name, make_player, seat_seed
from .uncancelled import to_the_end

log = logging.getLogger(__name__)

# Seat 0 sits at the bottom of the table image and play goes counter-clockwise
# (rendering and game.view agree), so seat 1 is on the right and seat 2 at the top.
SEAT_NAMES = ("South", "East", "North", "West")
TEAM_NAMES = ("North–South", "East–West")

# Turn timers: the seconds /belote new offers, and the range the service accepts.
TURN_TIMERS = (30, 60, 120, 300)
TURN_TIMER_LIMITS = (15, 600)
# After a restart the person to act gets the whole timer again, and at least this long: they
# may not have seen the table while the bot was away.
RESTART_GRACE = 30
# How long a timer's second lasts. Only tests change it, to run timers in a fraction of a
# second while every number the players read and the service checks stays the real one.
TIMER_SECOND = 1.0


def system_rng() -> random.Random:
    """Where a service without a seed draws its tables' seeds and first dealers: the system's
    randomness. (The test suite replaces it with a seeded generator.)"""
    return random.SystemRandom()


class Refusal(Exception):
    """A request the service turns down. ``str()`` is what the user reads, privately."""


def said(e: IllegalAction) -> str:
    """The rules' reason as a sentence for the player."""
    text = str(e)
    return text[:1].upper() + text[1:] + "."


class TableListener(Protocol):
    """What the service tells the delivery layer. Each call only schedules work."""

    def table_changed(self, live: LiveTable) -> None: ...
    def hands_changed(self, live: LiveTable, seats: Iterable[int]) -> None: ...
    def deal_finished(self, live: LiveTable, deal_index: int) -> None: ...
    def match_finished(self, live: LiveTable, ratings: dict[int, tuple[float, float]]) -> None: ...
    def table_closed(self, live: LiveTable, reason: str) -> None: ...


class NullListener:
    def table_changed(self, live: LiveTable) -> None:
        pass

    def hands_changed(self, live: LiveTable, seats: Iterable[int]) -> None:
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

    __slots__ = ("choices", "computers", "deadline", "invited", "lock", "lost", "match", "row",
                 "seats", "seq", "task", "timer", "timer_key")

    def __init__(self, row: TableRow, seats: Iterable[SeatRow], invited: set[int]) -> None:
        self.row = row
        self.seats: dict[int, SeatRow] = {s.seat: s for s in seats}
        self.invited = invited
        self.match: Match | None = None
        self.seq = 0  # the sequence number of the next log entry
        self.lock = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None  # computer turns in progress
        self.computers: dict[int, Player] = {}
        # What each person chose ahead of their cards this deal (saved, so a restart keeps it).
        self.choices: dict[int, SeatChoice] = {}
        # The turn timer: the (seq, seat) of the turn it runs for, when it runs out (Unix
        # time, for Discord's timestamps), and the loop's handle that fires then.
        self.timer_key: tuple[int, int] | None = None
        self.deadline: float | None = None
        self.timer: asyncio.TimerHandle | None = None
        # Why the table message cannot be shown now (its channel deleted, a permission
        # taken away), or None. The game goes on; the players read this in their hands.
        self.lost: str | None = None

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
    def level(self) -> str:
        """The level of the computers that fill seats and take over at this table."""
        return self.row.computer_level or "easy"

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

    def names(self) -> list[str]:
        out = []
        for i in range(4):
            s = self.seats.get(i)
            if s is None:
                out.append(f"({SEAT_NAMES[i]})")
            elif s.computer is not None and s.user_id is None:
                out.append(computer_name(i))  # from the seat: older rows hold another name
            elif s.computer is not None:  # standing in for a person who is away
                out.append(f"{s.name} ({computer_name(i)})")
            else:
                out.append(s.name)
        return out

    def choice(self, seat: int) -> SeatChoice:
        """The seat's choices for the current deal (the defaults if none were made)."""
        deal = len(self.match.deals) if self.match is not None else 0
        c = self.choices.get(seat)
        return c.for_deal(deal) if c is not None else SeatChoice(deal)

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


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """A player's choices for the coming cards of one deal."""

    deal: int  # the deal number (1-based) they were made in
    declare: tuple[Declaration, ...] | None = None  # None: the best announcements
    belote: bool = True

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


class TableService:
    def __init__(self, db: Database, *, listener: TableListener | None = None,
                 computer_delay: float = 1.0, computer_level: str = "easy",
                 rng: random.Random | None = None) -> None:
        self.db = db
        # Draws each new table's seed (its decks, its computers) and first dealer. A seeded
        # generator (TABLE_SEED) makes every table of a run reproducible.
        self.rng = rng if rng is not None else system_rng()
        self.listener: TableListener = listener or NullListener()
        self.computer_delay = computer_delay
        self.computer_level = computer_level
        self.live: dict[int, LiveTable] = {}
        # Called (table, seat) when a person runs out of time and a computer takes over.
        self.timeout_hooks: list[Callable[[LiveTable, SeatRow], None]] = []
        self._timeouts: set[asyncio.Task[None]] = set()
        # While Discord is down (hold_timers), the seconds each running turn timer had left.
        self._held: dict[int, float] | None = None
        # One lock per server for the seating changes that span tables (create, sit, take a
        # seat back): held from the one-table-per-person check to the seat's write, so two
        # such requests of one person cannot both pass the check. Taken after a table's own
        # lock, never before one (create's new table is nobody else's yet).
        self._seating: dict[int, asyncio.Lock] = {}

    # ---- start and stop ----------------------------------------------------------------
    async def restore(self) -> list[LiveTable]:
        """Bring back every open table from the database, replaying each match."""
        restored = []
        for row in await self.db.tables.open_tables():
            live = LiveTable(row, await self.db.tables.seats(row.id),
                             await self.db.tables.invited(row.id))
            row.computer_level = row.computer_level or self.computer_level
            if row.status == TableStatus.PLAYING:
                try:
                    await self._load_match(live)
                except (ReplayError, ValueError) as e:
                    log.error("table %s cannot be replayed (%s); it stays closed", row.id, e)
                    continue
                if live.match is not None and live.match.winner is not None:
                    await self._finish_restored(live)
                    continue
            await self._restore_choices(live)
            self.live[row.id] = live
            restored.append(live)
            if live.playing:
                async with live.lock:
                    await self._deal_if_needed(live)
                self._schedule_computer(live)
                self._arm_timer(live, grace=RESTART_GRACE)
        log.info("restored %d open table(s)", len(restored))
        return restored

    async def _restore_choices(self, live: LiveTable) -> None:
        """Bring back the choices saved for the coming cards. One the rules reject (saved by a
        bot from before they were checked, or a forged one) is dropped: kept, it would make
        every card of that player refused, and the table would stall."""
        for c in await self.db.tables.choices(live.id):
            try:
                declare = None if c.declare is None else \
                    tuple(tuple(parse_card(card) for card in group) for group in c.declare)
                choice = SeatChoice(c.deal, declare, c.belote)
                match = live.match
                if match is not None and match.deal is not None and declare is not None and \
                        c.deal == len(match.deals) and first_card(match.deal, c.seat):
                    check_choice(match.deal, c.seat, declare)
            except (ValueError, TypeError, IllegalAction) as e:
                log.warning("table %s: seat %s's saved announcements %r are dropped: %s",
                            live.id, c.seat, c.declare, e)
                choice = SeatChoice(c.deal, None, c.belote)
                await self.db.tables.put_choice(ChoiceRow(live.id, c.seat, c.deal, None,
                                                          c.belote))
            live.choices[c.seat] = choice

    async def _finish_restored(self, live: LiveTable) -> None:
        """The record holds a won match whose result was never stored (a bot from before the
        result and the last card were one transaction, stopped between the two): store it."""
        log.warning("table %s: its match was won but not recorded; recording it now", live.id)
        try:
            ratings = await self.db.results.record_match(**self._result_of(live))
        except Exception:
            log.exception("table %s: could not record its finished match", live.id)
            return
        self._finished(live, ratings)

    async def _load_match(self, live: LiveTable) -> None:
        entries = await self.db.log.entries(live.id)
        record = to_record(live.row.variant, live.row.options, live.names(), entries)
        live.match = replay(record) if record["deals"] else Match(
            live.variant, live.options, first_dealer=live.row.first_dealer, players=live.names())
        live.seq = len(entries)

    async def close(self) -> None:
        for live in self.live.values():
            if live.task is not None:
                live.task.cancel()
            if live.timer is not None:
                live.timer.cancel()
        for task in self._timeouts:
            task.cancel()
        tasks = [t.task for t in self.live.values() if t.task is not None]
        await asyncio.gather(*tasks, *self._timeouts, return_exceptions=True)

    # ---- lookups -------------------------------------------------------------------------
    def get(self, table_id: int) -> LiveTable:
        live = self.live.get(table_id)
        if live is None:
            raise Refusal(f"Table #{table_id} is closed (or never existed): that control "
                          "no longer does anything. `/belote new` opens a new table.")
        return live

    def table_of(self, guild_id: int, user_id: int, *, held: bool = False) -> LiveTable | None:
        """The open table in this server where the user plays (or holds a seat, if ``held``)."""
        for live in self.live.values():
            if live.row.guild_id != guild_id:
                continue
            seat = live.held_seat(user_id) if held else live.seat_of(user_id)
            if seat is not None:
                return live
        return None

    # ---- the lobby -----------------------------------------------------------------------
    def _seating_lock(self, guild_id: int) -> asyncio.Lock:
        lock = self._seating.get(guild_id)
        if lock is None:
            lock = self._seating[guild_id] = asyncio.Lock()
        return lock

    async def create(self, spec: NewTable) -> LiveTable:
        try:
            options = Options.for_variant(Variant(spec.variant), spec.options)
        except (InvalidOptions, ValueError) as e:
            raise Refusal(f"Those options do not work: {e}.") from None
        timer = spec.turn_timer or None
        low, high = TURN_TIMER_LIMITS
        if timer is not None and not low <= timer <= high:
            raise Refusal(f"A turn timer runs from {low} to {high} seconds.")
        level = spec.computer_level or self.computer_level
        self._check_level(level)
        async with self._seating_lock(spec.guild_id):
            other = self.table_of(spec.guild_id, spec.host_id)
            if other is not None:
                raise Refusal(f"You already sit at table #{other.id}: leave it first "
                              "(`/belote leave`).")
            variant = Variant(spec.variant)
            row = await self.db.tables.create(
                guild_id=spec.guild_id, channel_id=spec.channel_id, host_id=spec.host_id,
                variant=variant.value, options=options.to_json(variant), private=spec.private,
                seed=self.rng.getrandbits(62), first_dealer=self.rng.randrange(4),
                turn_timer=timer, computer_level=level)
            live = LiveTable(row, [], set())
            async with live.lock:  # a click may reach the table before its seats are saved
                self.live[row.id] = live
                await self._put_seat(live, SeatRow(row.id, 0, spec.host_id, spec.host_name))
                if spec.fill:
                    for seat in (1, 2, 3):
                        await self._put_seat(live, self._computer_seat(row.id, seat, level))
        return live

    async def attach(self, table_id: int, *, thread_id: int | None, message_id: int,
                     channel_id: int | None = None) -> None:
        """Remember where the table's thread and message are (and its channel, if it moved)."""
        live = self.get(table_id)
        async with live.lock:
            live.row.thread_id, live.row.message_id = thread_id, message_id
            if channel_id is not None:
                live.row.channel_id = channel_id
            await self.db.tables.set_location(table_id, thread_id=thread_id,
                                              message_id=message_id, channel_id=channel_id)
            self.set_lost(live, None)

    def set_lost(self, live: LiveTable, reason: str | None) -> None:
        """The table message cannot be shown (``reason``), or can be again (None)."""
        if live.lost == reason:
            return
        live.lost = reason
        self.listener.table_changed(live)
        self.listener.hands_changed(live, range(4))

    async def sit(self, table_id: int, user_id: int, name: str, seat: int) -> LiveTable:
        live = self.get(table_id)
        async with live.lock:
            if live.row.status == TableStatus.PLAYING and live.held_seat(user_id) is not None:
                return await self._reclaim(live, user_id)
            if live.row.status != TableStatus.LOBBY:
                raise Refusal("This game has already started: you can watch it.")
            if live.row.private and user_id != live.row.host_id and \
                    user_id not in live.invited:
                raise Refusal("This table is private: ask the host for an invitation.")
            async with self._seating_lock(live.row.guild_id):
                other = self.table_of(live.row.guild_id, user_id)
                if other is not None and other is not live:
                    raise Refusal(f"You already sit at table #{other.id}: leave it first.")
                taken = live.seats.get(seat)
                if taken is not None and taken.user_id == user_id:
                    raise Refusal("You already sit there.")
                if taken is not None and taken.computer is None:
                    raise Refusal(f"{SEAT_NAMES[seat]} is taken by {live.names()[seat]}.")
                current = live.seat_of(user_id)
                if current is not None:
                    await self.db.tables.remove_seat(live.id, current)
                    del live.seats[current]
                await self._put_seat(live, SeatRow(live.id, seat, user_id, name))
        self.listener.table_changed(live)
        return live

    async def add_computer(self, table_id: int, user_id: int, seat: int,
                           level: str | None = None) -> LiveTable:
        live = self.get(table_id)
        async with live.lock:
            self._check_host(live, user_id, "add a computer")
            if live.row.status != TableStatus.LOBBY:
                raise Refusal("Computers are added before the game starts.")
            if seat in live.seats:
                raise Refusal(f"{SEAT_NAMES[seat]} is already taken.")
            level = level or live.level
            self._check_level(level)
            await self._put_seat(live, self._computer_seat(live.id, seat, level))
        self.listener.table_changed(live)
        return live

    async def invite(self, table_id: int, host_id: int, user_id: int, *,
                     is_bot: bool = False) -> LiveTable:
        """The host lets ``user_id`` sit at their private table (``is_bot``: that user is a
        bot account, which cannot play)."""
        live = self.get(table_id)
        async with live.lock:
            self._check_host(live, host_id, "invite players")
            if user_id == host_id:
                raise Refusal("You cannot invite yourself: as the host you may always sit at "
                              "your table.")
            if is_bot:
                raise Refusal("Bots cannot sit at a table: invite a person. (A computer player "
                              "takes a seat with the 🤖 buttons on the table message.)")
            if user_id not in live.invited:
                await self.db.tables.invite(table_id, user_id)
                live.invited.add(user_id)
        return live

    async def start(self, table_id: int, user_id: int) -> LiveTable:
        live = self.get(table_id)
        async with live.lock:
            self._check_host(live, user_id, "start the game")
            if live.row.status != TableStatus.LOBBY:
                raise Refusal("The game has already started.")
            empty = [SEAT_NAMES[i] for i in range(4) if i not in live.seats]
            if empty:
                raise Refusal(f"Every seat needs a player first: {', '.join(empty)} "
                              f"{'is' if len(empty) == 1 else 'are'} empty. "
                              "Add a computer or wait for players.")
            live.match = Match(live.variant, live.options, first_dealer=live.row.first_dealer,
                               players=live.names())
            live.seq = 0
            # The save ends even if the request is cancelled meanwhile (then the table
            # plays, as saved); nothing after it awaits.
            await to_the_end(self._save_start(live, self._deal_entry(live, 0)))
            live.row.status = TableStatus.PLAYING
            live.seq = 1
            self._arm_timer(live)
        self.listener.table_changed(live)
        self.listener.hands_changed(live, range(4))
        self._schedule_computer(live)
        return live

    async def _save_start(self, live: LiveTable, deal: LogEntry) -> None:
        """Save the start (the status and the first deal: one transaction); if it cannot be
        saved, the table stays the lobby it was."""
        try:
            await self.db.tables.start(live.id, [deal])
        except Exception:
            log.exception("table %s: could not save its start", live.id)
            live.match = None
            raise Refusal("That could not be saved; nothing changed. Try again.") from None

    async def leave(self, table_id: int, user_id: int) -> str:
        """A person leaves. Returns what to tell them."""
        live = self.get(table_id)
        async with live.lock:
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refusal("You are not playing at this table.")
            if live.row.status == TableStatus.LOBBY:
                await self.db.tables.remove_seat(live.id, seat)
                del live.seats[seat]
                if not live.humans():
                    await self._close(live, TableStatus.ENDED, "everybody left the lobby")
                    return "You left; the table is closed since nobody else sits there."
                if user_id == live.row.host_id:
                    new_host = live.humans()[0].user_id
                    assert new_host is not None
                    live.row.host_id = new_host
                    await self.db.tables.set_host(live.id, new_host)
                message = "You left the table."
            else:
                await self._take_over(live, seat, timed_out=False)
                self._arm_timer(live)  # stops it if it ran for them
                # Closed when nobody may come back; a player who ran out of time may.
                if not live.humans() and not any(s.timed_out for s in live.seats.values()):
                    await self._close(live, TableStatus.ENDED, "every player left")
                    return "You left; the game is closed since no person plays any more."
                message = ("You left: a computer plays your seat. **Take my seat back** on "
                           "the table message or in your hand (`/belote hand`) to play again.")
                self.listener.hands_changed(live, [seat])
        self.listener.table_changed(live)
        self._schedule_computer(live)
        return message

    async def reclaim(self, table_id: int, user_id: int) -> LiveTable:
        live = self.get(table_id)
        async with live.lock:
            return await self._reclaim(live, user_id)

    async def _reclaim(self, live: LiveTable, user_id: int) -> LiveTable:
        seat = live.held_seat(user_id)
        if seat is None:
            raise Refusal("You have no seat at this table.")
        s = live.seats[seat]
        if s.computer is None:
            raise Refusal("You already play your seat.")
        async with self._seating_lock(live.row.guild_id):
            other = self.table_of(live.row.guild_id, user_id)
            if other is not None and other is not live:
                raise Refusal(f"You sit at table #{other.id} now: leave it first.")
            s.computer, s.timed_out = None, False
            live.computers.pop(seat, None)
            await self.db.tables.put_seat(s)
        self._rename(live)
        self._arm_timer(live)  # their turn, if it is, starts now
        self.listener.table_changed(live)
        self.listener.hands_changed(live, [seat])
        self._schedule_computer(live)  # a paused table goes on
        return live

    async def end(self, table_id: int, user_id: int, *, can_manage: bool) -> LiveTable:
        live = self.get(table_id)
        async with live.lock:
            if user_id != live.row.host_id and not can_manage:
                raise Refusal("Only the host or a member with Manage Server can end a table.")
            await self._close(live, TableStatus.ENDED, "ended by its host or a moderator")
        return live

    # ---- play ----------------------------------------------------------------------------
    async def act(self, table_id: int, user_id: int, seq: int, action: Action) -> LiveTable:
        """A person's action, checked and committed; raises Refusal saying why not."""
        live = self.get(table_id)
        async with live.lock:
            match = live.match
            if live.row.status != TableStatus.PLAYING or match is None:
                raise Refusal("This game is over." if live.row.status == TableStatus.FINISHED
                              else "This game has not started yet.")
            seat = live.seat_of(user_id)
            if seat is None:
                if live.held_seat(user_id) is not None:
                    raise Refusal("A computer plays your seat since you left: take it back "
                                  "with **Take my seat back** (table message or your hand).")
                raise Refusal("You are not playing at this table.")
            if seq != live.seq:
                raise Refusal("That button is out of date: the game has moved on since. "
                              "Use the newest controls.")
            if match.to_act != seat:
                raise Refusal(f"It is not your turn: it is {live.names()[match.to_act]}'s "
                              "turn." if match.to_act is not None else "Nobody can act now.")
            if isinstance(action, Play):
                # The card buttons name only the card; the announcements and belote chosen
                # beforehand (``choose``) go with it.
                choice = live.choice(seat)
                deal = match.deal
                action = Play(action.card,
                              belote=choice.belote or not may_call_belote(deal, action.card),
                              declare=choice.declare if first_card(deal, seat) else None)
            await self._commit(live, seat, action, user_id)
        self._schedule_computer(live)
        return live

    async def choose(self, table_id: int, user_id: int, deal: int, *,
                     declare: tuple[Declaration, ...] | bool | None = False,
                     belote: bool | None = None) -> LiveTable:
        """Remember what a player will announce with their first card (``declare``; False
        keeps the earlier choice) and whether they announce belote, for the current deal."""
        live = self.get(table_id)
        async with live.lock:
            if not live.playing or live.match is None:
                raise Refusal("This game is not being played.")
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refusal("You are not playing at this table.")
            if deal != len(live.match.deals):
                raise Refusal("That control is from an earlier deal.")
            choice = live.choice(seat)
            if declare is not False:
                current = live.match.deal
                try:  # the rules say what this hand may announce, here and now
                    if current is not None:
                        check_choice(current, seat, declare)  # type: ignore[arg-type]
                except IllegalAction as e:
                    raise Refusal(said(e)) from None
                if not first_card(live.match.deal, seat):
                    raise Refusal("Announcements are made with your first card only, and "
                                  "you have played it.")
                choice = SeatChoice(choice.deal, declare, choice.belote)  # type: ignore[arg-type]
            if belote is not None:
                choice = SeatChoice(choice.deal, choice.declare, belote)
            stored = None if choice.declare is None else \
                [[card_str(c) for c in group] for group in choice.declare]
            await self.db.tables.put_choice(
                ChoiceRow(live.id, seat, choice.deal, stored, choice.belote))
            live.choices[seat] = choice
        return live

    async def _commit(self, live: LiveTable, seat: int, action: Action,
                      user_id: int | None) -> None:
        """Apply, log (one transaction), then tell the listener. Caller holds the lock."""
        match = live.match
        assert match is not None
        deal_before = len(match.deals)
        phase_before = match.deal.phase if match.deal is not None else None
        try:
            match.apply(action, seat)
        except IllegalAction as e:
            raise Refusal(said(e)) from None
        entries = [LogEntry(live.seq, "action", action_to_json(seat, action), user_id)]
        finished = match.deal is not None and match.deal.is_over
        if finished and match.winner is None:
            entries.append(self._deal_entry(live, live.seq + 1))
        # Applied in memory: from here the step is saved (or undone) even if the request is
        # cancelled meanwhile, so memory never drifts from the log; what follows the save
        # has no await, and the listener hears of it before the caller answers the click.
        ratings = await to_the_end(self._save(live, entries))
        live.seq += len(entries)
        self._arm_timer(live)  # before the listener runs: the messages show the new deadline
        if finished:
            self.listener.deal_finished(live, deal_before - 1)
        if ratings is not None:
            self._finished(live, ratings)
            return
        self.listener.table_changed(live)
        deal = match.deal
        if finished or (deal is not None and deal.phase != phase_before):
            self.listener.hands_changed(live, range(4))  # new cards or new controls for all
        else:
            nxt = match.to_act
            self.listener.hands_changed(live, [seat] if nxt is None else {seat, nxt})

    async def _save(self, live: LiveTable, entries: list[LogEntry]
                    ) -> dict[int, tuple[float, float]] | None:
        """Log the step ``_commit`` applied (one transaction; with the result if it won the
        match: the ratings are returned); if it cannot be logged, reload the match from the
        log and refuse."""
        match = live.match
        assert match is not None
        try:
            if match.winner is not None:
                # The winning action, the result, the ratings and the closed table: one
                # transaction, so no crash leaves a won match without its result.
                return await self.db.results.record_match(
                    **self._result_of(live), entries=entries)
            await self.db.log.append(live.id, entries)
        except Exception:
            log.exception("table %s: could not log seq %s; reloading", live.id, live.seq)
            await self._load_match(live)
            raise Refusal("That could not be saved; nothing changed. Try again.") from None
        return None

    def _deal_entry(self, live: LiveTable, seq: int) -> LogEntry:
        match = live.match
        assert match is not None
        deck = match.new_deck(live.row.seed)
        deal = match.start_deal(deck)
        return LogEntry(seq, "deal", {"dealer": deal.dealer,
                                      "deck": [card_str(c) for c in deck]})

    async def _deal_if_needed(self, live: LiveTable) -> None:
        match = live.match
        if match is not None and match.needs_deal:
            entry = self._deal_entry(live, live.seq)
            await self.db.log.append(live.id, [entry])
            live.seq += 1

    def _result_of(self, live: LiveTable) -> dict[str, Any]:
        """The arguments of ``results.record_match`` for a won match."""
        match = live.match
        assert match is not None and match.winner is not None
        players = [MatchPlayer(s.seat, s.user_id, s.computer if s.user_id is None else None)
                   for s in live.seats.values()]
        winner = match.winner
        return {"table_id": live.id, "guild_id": live.row.guild_id,
                "variant": live.row.variant, "winner": winner,
                "totals": (match.totals[0], match.totals[1]), "deals": len(match.deals),
                "players": players, "tally": tally(match)}

    def _finished(self, live: LiveTable, ratings: dict[int, tuple[float, float]]) -> None:
        """The match's result is stored (and the table closed there): close it here too."""
        live.row.status = TableStatus.FINISHED
        self.live.pop(live.id, None)
        self._arm_timer(live)  # stops it
        self.listener.table_changed(live)
        self.listener.hands_changed(live, range(4))
        self.listener.match_finished(live, ratings)

    # ---- computers -----------------------------------------------------------------------
    def _schedule_computer(self, live: LiveTable) -> None:
        if live.task is not None or self._computer_to_act(live) is None:
            return
        live.task = asyncio.create_task(self._computer_turns(live),
                                        name=f"belote-computer-{live.id}")

    def _computer_to_act(self, live: LiveTable) -> int | None:
        if not live.playing or live.match is None or live.paused:
            return None
        seat = live.match.to_act
        if seat is None or live.match.needs_deal:
            return None
        s = live.seats.get(seat)
        return seat if s is not None and s.computer is not None else None

    async def _computer_turns(self, live: LiveTable) -> None:
        try:
            while True:
                await asyncio.sleep(self.computer_delay)
                async with live.lock:
                    seat = self._computer_to_act(live)
                    if seat is None or live.id not in self.live:
                        return
                    view = table_view(live.match, seat)  # type: ignore[arg-type]
                    # Decisions can take a while (search): keep the event loop free.
                    action = await asyncio.to_thread(live.player(seat).choose, view)
                    await self._commit(live, seat, action, None)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: computer turn failed", live.id)
        finally:
            live.task = None

    async def settle(self) -> None:
        """Wait until no computer has a turn pending (tests and benchmarks)."""
        while True:
            tasks = [t.task for t in self.live.values() if t.task is not None]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    # ---- turn timers -----------------------------------------------------------------------
    def _turn_key(self, live: LiveTable) -> tuple[int, int] | None:
        """(seq, seat) of the person's turn a timer should run for now, or None."""
        match = live.match
        if live.row.turn_timer is None or not live.playing or live.id not in self.live or \
                match is None or match.needs_deal or match.to_act is None:
            return None
        s = live.seats.get(match.to_act)
        return (live.seq, match.to_act) if s is not None and s.is_human else None

    def _arm_timer(self, live: LiveTable, grace: float | None = None) -> None:
        """Run the timer for the person to act now (a timer already running for this very
        turn runs on); stop it when no person is to act. ``grace``: the least time to give."""
        key = self._turn_key(live)
        if key is not None and key == live.timer_key and grace is None:
            return
        if live.timer is not None:
            live.timer.cancel()
        live.timer = live.timer_key = live.deadline = None
        if key is None:
            return
        seconds = float(live.row.turn_timer or 0)
        if grace is not None:
            seconds = max(seconds, grace)
        delay = seconds * TIMER_SECOND
        live.timer_key, live.deadline = key, time.time() + delay
        if self._held is not None:  # Discord is down: it starts when Discord is back
            self._held[live.id] = delay
            return
        live.timer = asyncio.get_running_loop().call_later(delay, self._timer_fired, live, key)

    def hold_timers(self) -> None:
        """Discord is down and nobody can see the tables: no turn timer runs meanwhile."""
        if self._held is not None:
            return
        now, self._held = time.time(), {}
        for live in self.live.values():
            if live.timer is not None and live.deadline is not None:
                live.timer.cancel()
                live.timer = None
                self._held[live.id] = max(0.0, live.deadline - now)

    def release_timers(self) -> None:
        """Discord is back: each turn timer goes on with the time it had left when Discord
        went down (the new deadline is shown)."""
        held, self._held = self._held or {}, None
        now = time.time()
        for table_id, left in held.items():
            live = self.live.get(table_id)
            if live is None or live.timer_key is None or live.timer is not None:
                continue
            live.deadline = now + left
            live.timer = asyncio.get_running_loop().call_later(
                left, self._timer_fired, live, live.timer_key)
            self.listener.table_changed(live)
            self.listener.hands_changed(live, [live.timer_key[1]])

    def _timer_fired(self, live: LiveTable, key: tuple[int, int]) -> None:
        live.timer = None
        task = asyncio.create_task(self._time_out(live, key), name=f"belote-timeout-{live.id}")
        self._timeouts.add(task)
        task.add_done_callback(self._timeouts.discard)

    async def _time_out(self, live: LiveTable, key: tuple[int, int]) -> None:
        """The person to act ran out of time: a computer plays their seat, as if they left."""
        try:
            async with live.lock:
                if self._turn_key(live) != key:
                    return  # they acted (or left, or the table closed) just in time
                seat = key[1]
                await self._take_over(live, seat, timed_out=True)
                live.timer_key = live.deadline = None
                log.info("table %s: seat %s ran out of time", live.id, seat)
                self.listener.table_changed(live)
                self.listener.hands_changed(live, [seat])
                for hook in self.timeout_hooks:
                    hook(live, live.seats[seat])
            self._schedule_computer(live)
        except Exception:
            log.exception("table %s: the turn timer's takeover failed", live.id)

    async def _take_over(self, live: LiveTable, seat: int, *, timed_out: bool) -> None:
        """A computer of the table's level plays this person's seat until they come back."""
        s = live.seats[seat]
        s.computer, s.timed_out = live.level, timed_out
        await self.db.tables.put_seat(s)
        live.computers.pop(seat, None)
        self._rename(live)

    # ---- helpers -------------------------------------------------------------------------
    def _check_host(self, live: LiveTable, user_id: int, what: str) -> None:
        if user_id != live.row.host_id:
            raise Refusal(f"Only the host (<@{live.row.host_id}>) can {what}.")

    @staticmethod
    def _check_level(level: str) -> None:
        if level != "random" and level not in available_levels():
            raise Refusal(f"There is no computer level {level!r}: choose "
                          f"{' or '.join(available_levels())}.")

    def _computer_seat(self, table_id: int, seat: int, level: str | None = None) -> SeatRow:
        level = level or self.computer_level
        return SeatRow(table_id, seat, None, computer_name(seat), computer=level)

    async def _put_seat(self, live: LiveTable, seat: SeatRow) -> None:
        await self.db.tables.put_seat(seat)
        live.seats[seat.seat] = seat
        live.computers.pop(seat.seat, None)

    def _rename(self, live: LiveTable) -> None:
        if live.match is not None:
            live.match.players = tuple(live.names())

    async def _close(self, live: LiveTable, status: TableStatus, reason: str) -> None:
        await self.db.tables.set_status(live.id, status)
        live.row.status = status
        self.live.pop(live.id, None)
        self._arm_timer(live)  # stops it
        if live.task is not None and live.task is not asyncio.current_task():
            live.task.cancel()
        self.listener.table_closed(live, reason)
