"""The table service: the one thing the cogs and the delivery ask about tables.

It owns the live tables, judges every request and persists before answering. It only composes
the parts, each in its own module: the open tables and their one door (``core``), seating
(``lobby``), the game (``play``), computers and turn timers (``turns``) and a restart
(``restore``). Every change to a table goes through ``Tables.door``, its lock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from db import Database, SeatRow
from db.activity import last_activity
from game.actions import Action, Declaration
from i18n import Message

from . import clock as clocks
from . import state
from .clock import Clock
from .core import Tables
from .lobby import Lobby
from .play import Playing
from .restore import Restore
from .state import LiveTable, NewTable, NullListener, TableListener
from .sweeper import Sweeper
from .turns import Turns

if TYPE_CHECKING:
    from .restore import Shards


class TableService:
    def __init__(self, db: Database, *, listener: TableListener | None = None,
                 computer_delay: float = 1.0, computer_level: str = "easy",
                 rng: random.Random | None = None, clock: Clock | None = None,
                 forced_delay: float | None = None) -> None:
        self.tables = Tables(db, listener or NullListener(),
                             rng if rng is not None else state.system_rng(), computer_level,
                             clock if clock is not None else clocks.system_clock())
        # Computers commit through the same door and commit as people (``play.commit``).
        self.turns = Turns(self.tables, lambda live, seat, action, listener, by:
                           self.play.commit(live, seat, action, None, listener=listener,
                                            by=by),
                           computer_delay, forced_delay)
        self.play = Playing(self.tables, self.turns)
        # A forced card is the person's, played for them: logged as decided "forced".
        self.turns.commit_forced = lambda live, seat, action: \
            self.play.commit(live, seat, action, None, by="forced")
        self.sweeper = Sweeper(self.tables, self.play)
        self.lobby = Lobby(self.tables, self.play, self.turns, self.sweeper)
        self._restore = Restore(self.tables, self.play, self.turns, self.sweeper)

    @property
    def db(self) -> Database:
        return self.tables.db

    @property
    def live(self) -> dict[int, LiveTable]:
        """The open tables by id."""
        return self.tables.live

    @property
    def listener(self) -> TableListener:
        return self.tables.listener

    @property
    def rng(self) -> random.Random:
        return self.tables.rng

    @property
    def clock(self) -> Clock:
        return self.tables.clock

    @property
    def computer_level(self) -> str:
        return self.tables.computer_level

    @property
    def computer_delay(self) -> float:
        return self.turns.computer_delay

    @property
    def closed_hooks(self) -> list[Callable[[LiveTable, str], None]]:
        """Called (table, why) when a table closes before a winner: why is ``"ended"`` (by
        its host or a moderator), ``"everybody_left"``, ``"lobby_expired"`` or
        ``"abandoned"`` (the sweeper). A won match goes to the listener's match_finished."""
        return self.tables.closed_hooks

    @property
    def timeout_hooks(self) -> list[Callable[[LiveTable, SeatRow], None]]:
        """Called (table, seat) when a person runs out of time and a computer takes over."""
        return self.turns.timeout_hooks

    @property
    def end_hooks(self) -> list[Callable[[LiveTable], None]]:
        """Called (table) when a table ends for good, its match won or not (tournaments)."""
        return self.tables.end_hooks

    # ---- lookups -------------------------------------------------------------------------
    def get(self, table_id: int) -> LiveTable:
        """The open table; refused if it is closed (or never existed)."""
        return self.tables.get(table_id)

    def table_of(self, guild_id: int, user_id: int, *, held: bool = False) -> LiveTable | None:
        """The open table in this server where the user plays (or holds a seat, if ``held``)."""
        return self.tables.table_of(guild_id, user_id, held=held)

    def set_lost(self, live: LiveTable, reason: Message | None) -> None:
        """The table message cannot be shown (``reason``), or can be again (None)."""
        self.tables.set_lost(live, reason)

    # ---- the lobby -----------------------------------------------------------------------
    async def create(self, spec: NewTable) -> LiveTable:
        return await self.lobby.create(spec)

    async def attach(self, table_id: int, *, thread_id: int | None, message_id: int,
                     channel_id: int | None = None) -> None:
        await self.lobby.attach(table_id, thread_id=thread_id, message_id=message_id,
                                channel_id=channel_id)

    async def sit(self, table_id: int, user_id: int, name: str, seat: int) -> LiveTable:
        return await self.lobby.sit(table_id, user_id, name, seat)

    async def add_computer(self, table_id: int, user_id: int, seat: int,
                           level: str | None = None) -> LiveTable:
        return await self.lobby.add_computer(table_id, user_id, seat, level)

    async def invite(self, table_id: int, host_id: int, user_id: int, *,
                     is_bot: bool = False) -> bool:
        return await self.lobby.invite(table_id, host_id, user_id, is_bot=is_bot)

    async def start(self, table_id: int, user_id: int) -> LiveTable:
        return await self.lobby.start(table_id, user_id)

    async def leave(self, table_id: int, user_id: int) -> str:
        """A person leaves. Returns the message id of what to tell them."""
        return await self.lobby.leave(table_id, user_id)

    async def reclaim(self, table_id: int, user_id: int) -> LiveTable:
        return await self.lobby.reclaim(table_id, user_id)

    async def end(self, table_id: int, user_id: int, *, can_manage: bool) -> LiveTable:
        return await self.lobby.end(table_id, user_id, can_manage=can_manage)

    async def kick(self, table_id: int, actor_id: int, user_id: int, *,
                   can_manage: bool) -> LiveTable:
        """The host or a moderator removes a person from the table for good."""
        return await self.lobby.kick(table_id, actor_id, user_id, can_manage=can_manage)

    # ---- play ----------------------------------------------------------------------------
    async def act(self, table_id: int, user_id: int, seq: int, action: Action) -> LiveTable:
        """A person's action, checked and committed; raises Refusal saying why not."""
        return await self.play.act(table_id, user_id, seq, action)

    async def choose(self, table_id: int, user_id: int, deal: int, *,
                     declare: tuple[Declaration, ...] | bool | None = False,
                     belote: bool | None = None) -> LiveTable:
        """What a player will announce with their first card, and whether belote."""
        return await self.play.choose(table_id, user_id, deal, declare=declare, belote=belote)

    async def claim(self, table_id: int, user_id: int, seq: int) -> LiveTable:
        """The person to act claims the rest of the deal (refused unless it is sure)."""
        return await self.play.claim(table_id, user_id, seq)

    async def ahead(self, table_id: int, user_id: int, deal: int, action: Action, *,
                    on: bool) -> LiveTable:
        """The card a person means to play next (or a pass), chosen before their turn
        (``on``), or that choice cancelled."""
        return await self.play.ahead(table_id, user_id, deal, action, on=on)

    # ---- start, stop, and Discord's outages ----------------------------------------------
    async def restore(self, shards: Shards | None = None) -> list[LiveTable]:
        """Bring back every open table from the database, replaying each match; with
        ``shards``, only those of the servers of the shards this process runs."""
        return await self._restore.restore(shards)

    async def close(self) -> None:
        await self.sweeper.close()
        await self.turns.close()

    async def stopped(self) -> None:
        """The tables stop running here: until when they ran is written, for the next start
        (issue 48: the time the bot is down is not idle time). After ``close``."""
        await self.sweeper.stopped()

    async def settle(self) -> None:
        """Wait until no computer has a turn pending and no timeout or sweep is being handled
        (tests and benchmarks)."""
        await self.sweeper.settle()
        await self.turns.settle()

    def hold_timers(self) -> None:
        """Discord is down and nobody can see the tables: no turn timer runs meanwhile, and no
        game is ended as abandoned."""
        self.turns.hold()
        self.sweeper.hold()

    def release_timers(self) -> None:
        """Discord is back: each turn timer goes on with the time it had left, each game's idle
        deadline moves on by the outage's length."""
        self.turns.release()
        self.sweeper.release()

    # ---- read-only queries for the cogs ----------------------------------------------------
    async def last_actions(self, table_ids: Iterable[int]) -> dict[int, datetime]:
        """Per table, when a seat last acted (or when it opened, if nobody has yet)."""
        return await last_activity(self.db, table_ids)
