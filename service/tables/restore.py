"""A restart: every open table comes back from the database, its match replayed from its log.

:func:`stored_table` rebuilds one table the same way for showing only: the live page of a
process that does not run the table (web/live.py's ``Poller``).
"""

from __future__ import annotations

import logging
from typing import Protocol

from db import ChoiceRow, Database, TableStatus
from db.tables import LiveMark, ShardPart
from game.cards import parse_card
from game.choices import check_choice, first_card
from game.errors import IllegalAction
from game.record import ReplayError

from .core import Tables
from .play import Playing
from .state import LiveTable, SeatChoice
from .sweeper import Sweeper
from .turns import Turns

log = logging.getLogger(__name__)


class Shards(ShardPart, Protocol):
    """The shards this process runs, as the restore reads them (the bot's sharding gives
    one): every shard here (``whole``), or which servers' tables are this process's."""

    @property
    def whole(self) -> bool: ...

    def owns(self, guild_id: int | None) -> bool: ...

    def shard_of(self, guild_id: int | None) -> int: ...


async def stored_table(db: Database, table_id: int, mark: LiveMark) -> LiveTable | None:
    """The table as the database holds it, rebuilt as a restart
    rebuilds it: its row, its seats, its match replayed from its log, the turn deadline its
    table message shows (``mark``'s, read just before). For showing only: nothing is armed,
    dealt nor written, and the table is not one of this process's (``Tables.live``). None: no
    such table, or one whose log cannot be replayed (a restart leaves it closed)."""
    row = await db.tables.get(table_id)
    if row is None:
        return None
    live = LiveTable(row, await db.tables.seats(table_id), set())
    if row.status != TableStatus.LOBBY:
        try:
            Playing.replay_match(live, await db.log.entries(table_id))
        except (ReplayError, ValueError) as e:
            log.error("table %s cannot be replayed (%s)", table_id, e)
            return None
    if mark.deadline is not None and mark.turn_seq == live.seq and live.row.is_open:
        live.deadline = mark.deadline
    return live


class Restore:
    def __init__(self, tables: Tables, play: Playing, turns: Turns, sweeper: Sweeper) -> None:
        self.tables = tables
        self.play = play
        self.turns = turns
        self.sweeper = sweeper

    async def restore(self, shards: Shards | None = None) -> list[LiveTable]:
        """Bring back every open table from the database, replaying each match; with
        ``shards``, only the tables of the servers of the shards this process runs (read
        from the database alone: the other processes' tables are not read at all)."""
        db = self.tables.db
        restored = []
        shown = await db.tables.shown_deadlines()  # the turn deadlines the players saw
        count, ids = (1, (0,)) if shards is None else (shards.count, shards.ids)
        down = await self.sweeper.downtime(count)  # per shard, how long the bot was stopped
        # A few queries, not a few per table.
        every = await db.tables.open_tables_whole(None if shards is None or shards.whole
                                                  else shards)
        for row in every.rows:
            if shards is not None and not shards.owns(row.guild_id):
                continue  # the query's rule is the same: this only guards against a drift
            live = LiveTable(row, every.seats[row.id], every.invited[row.id],
                             every.kicked[row.id])
            row.computer_level = row.computer_level or self.tables.computer_level
            if row.status == TableStatus.PLAYING:
                try:
                    self.play.replay_match(live, every.logs[row.id])
                except (ReplayError, ValueError) as e:
                    log.error("table %s cannot be replayed (%s); it stays closed", row.id, e)
                    continue
                if live.match is not None and live.match.winner is not None:
                    await self._finish_restored(live)
                    continue
            await self._restore_choices(live, every.choices[row.id])
            self.tables.live[row.id] = live
            restored.append(live)
            # The idle time a game had left when the bot stopped is what it has now; a
            # deadline passed all the same (the time down unknown: the version before wrote
            # none) closes it at once.
            await self.sweeper.after_downtime(
                live, down.get(0 if shards is None else shards.shard_of(row.guild_id), 0.0))
            await self.sweeper.give_deadline(live)
            self.sweeper.arm(live)
            if live.playing:
                async with self.tables.door(live):
                    await self.play.deal_if_needed(live)
                    # A card chosen ahead whose turn came as the bot stopped: played now,
                    # once (the seat's count of actions says whether it was already).
                    await self.play.play_ahead(live)
                self.turns.schedule_computer(live)
                self.turns.schedule_forced(live)  # a beat the stop cut short starts again
                self.turns.arm_after_restart(live, shown.get(row.id))
        await self.sweeper.start_beat(count, ids)
        log.info("restored %d open table(s)", len(restored))
        return restored

    async def _restore_choices(self, live: LiveTable, saved: list[ChoiceRow]) -> None:
        """Bring back the choices saved for the coming cards. One the rules reject (saved by a
        bot from before they were checked, or a forged one) is dropped: kept, it would make
        every card of that player refused, and the table would stall."""
        db = self.tables.db
        for c in saved:
            try:
                declare = None if c.declare is None else \
                    tuple(tuple(parse_card(card) for card in group) for group in c.declare)
                choice = SeatChoice(c.deal, declare, c.belote, c.ahead, c.ahead_at)
                match = live.match
                if match is not None and match.deal is not None and declare is not None and \
                        c.deal == len(match.deals) and first_card(match.deal, c.seat):
                    check_choice(match.deal, c.seat, declare)
            except (ValueError, TypeError, IllegalAction) as e:
                log.warning("table %s: seat %s's saved announcements %r are dropped: %s",
                            live.id, c.seat, c.declare, e)
                choice = SeatChoice(c.deal, None, c.belote, c.ahead, c.ahead_at)
                await db.tables.put_choice(ChoiceRow(live.id, c.seat, c.deal, None, c.belote,
                                                     c.ahead, c.ahead_at))
            live.choices[c.seat] = choice

    async def _finish_restored(self, live: LiveTable) -> None:
        """The record holds a won match whose result was never stored (a bot from before the
        result and the last card were one transaction, stopped between the two): store it."""
        log.warning("table %s: its match was won but not recorded; recording it now", live.id)
        try:
            ratings = await self.tables.db.results.record_match(**self.play.result_of(live))
        except Exception:
            log.exception("table %s: could not record its finished match", live.id)
            return
        self.play.finished(live, ratings, self.tables.listener)
