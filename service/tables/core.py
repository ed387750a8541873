"""The open tables, and the one door to each: a table changes only inside ``door``.

One asyncio.Lock per table applies requests to a table one at a time; different tables never
wait for each other. Seating changes that span tables (one table per person and server) also
take their server's seating lock, after the table's own lock and never before one.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from db import Database, SeatRow, TableStatus
from i18n import Levels, Message

from ..computers import available_levels, computer_name
from ..keyed_lock import KeyedLock
from ..log_context import about_table
from ..refusals import Refusal
from . import state
from .clock import Clock
from .stakes import stakes_returned
from .state import LiveTable, TableListener

log = logging.getLogger(__name__)

# Why a table closed before a winner (``Tables.close``, and the ``closed_hooks``): its host or
# a moderator ended it, every person left, the sweeper closed a lobby that did not start in
# time, or ended a game nobody played any more (recorded as abandoned).
ENDED, EVERYBODY_LEFT, LOBBY_EXPIRED, ABANDONED = \
    "ended", "everybody_left", "lobby_expired", "abandoned"


class Tables:
    """What every part of the service shares: the database, the live tables, the listener."""

    def __init__(self, db: Database, listener: TableListener, rng: random.Random,
                 computer_level: str, clock: Clock) -> None:
        self.db = db
        # The time and the timers of the service (turn timers, the sweeper's deadlines).
        self.clock = clock
        self.listener = listener
        # Draws each new table's seed (its decks, its computers) and first dealer. A seeded
        # generator (TABLE_SEED) makes every table of a run reproducible.
        self.rng = rng
        self.computer_level = computer_level
        self.live: dict[int, LiveTable] = {}
        # One lock per server for the seating changes that span tables (create, sit, take a
        # seat back): held from the one-table-per-person check to the seat's write, so two
        # such requests of one person cannot both pass the check. Taken after a table's own
        # lock, never before one (create's new table is nobody else's yet).
        # A server's lock is forgotten once nobody holds or waits on it (service/keyed_lock.py).
        self._seating: KeyedLock[int] = KeyedLock()
        # Called with a table once it ends for good: its match won (``live.match.winner``)
        # or closed without a winner (ended, abandoned). Each hook only schedules work.
        self.end_hooks: list[Callable[[LiveTable], None]] = []
        # Called (table, why) when a table closes before a winner (``why``: ENDED,
        # EVERYBODY_LEFT, LOBBY_EXPIRED or ABANDONED), after it is closed; a won match is told
        # to the listener's ``match_finished`` instead. A failing hook is logged, not raised.
        self.closed_hooks: list[Callable[[LiveTable, str], None]] = []
        # A member's credits in a server, their starting grant given if due (service/credits.py);
        # None: the bot has no credits (tables with a stake cannot be opened).
        self.balance_of: Callable[[int, int], Awaitable[int]] | None = None

    # ---- the door ------------------------------------------------------------------------
    @asynccontextmanager
    async def door(self, table: int | LiveTable) -> AsyncIterator[LiveTable]:
        """The table (by id: refused if it is closed), held for one change at a time."""
        live = self.get(table) if isinstance(table, int) else table
        about_table(live.id, live.row.guild_id)  # the log lines that follow name it
        async with live.lock:
            # Looked up before the wait: whoever held the lock may have closed it meanwhile
            # (its winning card saved, ended, swept). Refused as if asked after, so nothing
            # closes a table twice.
            if isinstance(table, int) and self.live.get(table) is not live:
                if live.row.status == TableStatus.FINISHED:
                    raise Refusal("tables.game_over")
                raise Refusal("tables.closed", table=table)
            yield live

    def seating(self, guild_id: int) -> AbstractAsyncContextManager[None]:
        return self._seating(guild_id)

    # ---- lookups -------------------------------------------------------------------------
    def get(self, table_id: int) -> LiveTable:
        live = self.live.get(table_id)
        if live is None:
            raise Refusal("tables.closed", table=table_id)
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

    # ---- checks and small changes shared by the parts ----------------------------------
    @staticmethod
    def check_host(live: LiveTable, user_id: int, message_id: str) -> None:
        """Refused (``message_id``, naming the host) unless ``user_id`` hosts the table."""
        if user_id != live.row.host_id:
            raise Refusal(message_id, host_id=live.row.host_id)

    @staticmethod
    def check_level(level: str) -> None:
        if level != "random" and level not in available_levels():
            raise Refusal("tables.no_level", level=repr(level),
                          levels=Levels(available_levels()))

    def computer_seat(self, table_id: int, seat: int, level: str | None = None) -> SeatRow:
        level = level or self.computer_level
        return SeatRow(table_id, seat, None, computer_name(seat), computer=level)

    async def put_seat(self, live: LiveTable, seat: SeatRow) -> None:
        await self.db.tables.put_seat(seat)
        live.seats[seat.seat] = seat
        live.computers.pop(seat.seat, None)

    def set_lost(self, live: LiveTable, reason: Message | None) -> None:
        """The table message cannot be shown (``reason``), or can be again (None)."""
        if live.lost == reason:
            return
        live.lost = reason
        self.listener.table_changed(live)
        self.listener.hands_changed(live, range(4))

    async def touch(self, live: LiveTable) -> None:
        """A person acted at this started table: its idle deadline moves on. Caller holds the
        door.

        Not every action writes: the deadline is saved ``SWEEP_SAVE_STEP`` seconds ahead, and
        saved again only once the deadline passes what was saved. A restart reads back a
        deadline at most a step late, never early: a game is not ended before its idle time."""
        if live.row.status != TableStatus.PLAYING:
            return
        at = self.clock.now() + 60.0 * live.idle_minutes
        live.row.sweep_at = at
        if live.sweep_saved is None or at > live.sweep_saved:
            saved = at + state.SWEEP_SAVE_STEP
            await self.db.tables.set_sweep_at(live.id, saved)
            live.sweep_saved = saved

    async def close(self, live: LiveTable, status: TableStatus, reason: str,
                    why: str = ENDED) -> None:
        """Close the table for good (``reason``: for the listener; ``why``: for the
        ``closed_hooks``). Caller holds the door."""
        # A match ended before a winner returns every stake (taken when it started).
        refunds = stakes_returned(live) if live.row.status == TableStatus.PLAYING else []
        await self.db.tables.set_status(live.id, status, guild_id=live.row.guild_id,
                                        credits=refunds)
        live.row.status = status
        live.closed_why = why
        self.live.pop(live.id, None)
        live.stop_timer()
        live.stop_sweep()
        if live.task is not None and live.task is not asyncio.current_task():
            live.task.cancel()
        self.listener.table_closed(live, reason)
        for hook in self.closed_hooks:
            try:
                hook(live, why)
            except Exception:
                log.exception("table %s: a closed hook failed", live.id)
        self.ended(live)

    def ended(self, live: LiveTable) -> None:
        """Tell the end hooks a table ended for good (won or closed); a failing hook is
        logged, not raised: the table is over whatever a hook does."""
        for hook in self.end_hooks:
            try:
                hook(live)
            except Exception:
                log.exception("table %s: an end hook failed", live.id)
