"""The sweeper: a table nobody plays closes itself.

A lobby not started within its server's ``lobby_minutes`` closes; a started game without any
person's action for ``idle_minutes`` (everybody away, run out of time, or gone quiet) is ended
and recorded as abandoned. Its idle players are its leavers, with those who left: the person it
waited for, each person a computer stands in for because they ran out of time, and each person
who never acted there. They lose their stake (nobody receives it), the others have theirs back;
at a table of four people each leaver loses the match on the ratings, alone, as a leaver of a
match played out does (nobody else moves); a tournament table is lost by the idle side
(service/tournaments.py).
Each table's deadline is ``row.sweep_at``, stored, so a restart arms it again, and a table
whose deadline passed while the bot was down is closed as soon as it starts. A person's action
moves a game's deadline (``Tables.touch``): when the clock's call comes and the deadline has
moved, it is armed again. While Discord is down nobody can play, so no game is swept then: its
idle time stops with the turn timers (``hold``) and each game's deadline moves on by the
outage's length when Discord is back (``release``), so nobody becomes the leaver of a game they
could not see.
While the bot is stopped nobody can play either: a running service says every ``UP_BEAT``
seconds (and as it stops) until when it was up with Discord reachable (``up_until``, per shard),
and a start moves each game's idle deadline on by the time since (``after_downtime``), so the
players come back to a live game with the idle time it had left. Without that record (the first
start after the version that wrote none) nothing moves.
"""

from __future__ import annotations

import asyncio
import logging

from db import TableStatus
from db.tables import LEFT
from game.tally import tally
from i18n import words

from .clock import Handle
from .core import ABANDONED, LOBBY_EXPIRED, Tables
from .play import Playing
from .stakes import abandoned_credits
from .state import LiveTable

log = logging.getLogger(__name__)

# How often a running service writes until when it was up: a crash's time is known to within
# this (its games get up to this much more idle time after the restart, never less).
UP_BEAT = 30.0


class Sweeper:
    def __init__(self, tables: Tables, play: Playing) -> None:
        self.tables = tables
        self.play = play
        self._tasks: set[asyncio.Task[None]] = set()
        # When Discord went down (the tables' clock), while it is down.
        self._held_since: float | None = None
        # The shards (count, ids) whose tables this service runs, once restored: until when
        # they were up is written for them (``_beat``), and the last time written.
        self._up: tuple[int, tuple[int, ...]] | None = None
        self._up_written: float | None = None
        self._beat: Handle | None = None
        self._beat_task: asyncio.Task[None] | None = None

    def lobby_deadline(self, minutes: int) -> float:
        return self.tables.clock.now() + 60.0 * minutes

    def idle_deadline(self, live: LiveTable) -> float:
        return self.tables.clock.now() + 60.0 * live.idle_minutes

    def arm(self, live: LiveTable) -> None:
        """Call the sweeper at the table's deadline (at once if it has passed)."""
        live.stop_sweep()
        at = live.row.sweep_at
        if at is None or live.id not in self.tables.live:
            return
        live.sweep = self.tables.clock.call_at(at, lambda: self._due(live))

    async def give_deadline(self, live: LiveTable) -> None:
        """A table without a deadline (opened before they were stored) gets a full one now."""
        if live.row.sweep_at is not None:
            return
        at = self.idle_deadline(live) if live.row.status == TableStatus.PLAYING \
            else self.lobby_deadline(live.lobby_minutes)
        await self.tables.db.tables.set_sweep_at(live.id, at)
        live.row.sweep_at = live.sweep_saved = at

    # ---- the bot's own downtime ------------------------------------------------------------
    async def downtime(self, count: int) -> dict[int, float]:
        """Per shard (of ``count``), how long its tables were down before this start."""
        now = self.tables.clock.now()
        up = await self.tables.db.tables.up_until(count)
        return {shard: max(0.0, now - at) for shard, at in up.items()}

    async def after_downtime(self, live: LiveTable, away: float) -> None:
        """A restored game's idle deadline moves on by the time the bot was down (``away``),
        saved; a lobby's does not (closing one loses nobody anything)."""
        if away <= 0 or live.row.status != TableStatus.PLAYING or live.row.sweep_at is None:
            return
        at = live.row.sweep_at + away
        await self.tables.db.tables.set_sweep_at(live.id, at)
        live.row.sweep_at = live.sweep_saved = at
        log.info("table %s: the bot was down %.0f s; its idle deadline moves on as much",
                 live.id, away)

    async def start_beat(self, count: int, ids: tuple[int, ...]) -> None:
        """The tables of these shards are running: say so now, then every ``UP_BEAT``."""
        self._up = (count, ids)
        await self._write_up()
        self._arm_beat()

    def _arm_beat(self) -> None:
        self._beat = self.tables.clock.call_at(self.tables.clock.now() + UP_BEAT, self._beaten)

    def _beaten(self) -> None:
        self._arm_beat()
        if self._beat_task is None or self._beat_task.done():  # one write on its way at most
            self._beat_task = asyncio.create_task(self._write_up(), name="belote-up-beat")
            self._tasks.add(self._beat_task)
            self._beat_task.add_done_callback(self._tasks.discard)

    async def _write_up(self) -> None:
        """Write until when the tables were up: now, or when Discord went down if it is."""
        if self._up is None:
            return
        at = self._held_since if self._held_since is not None else self.tables.clock.now()
        if at == self._up_written:
            return
        try:
            await self.tables.db.tables.set_up_until(*self._up, at)
            self._up_written = at
        except Exception as e:  # the next beat tries again
            log.warning("could not write until when the tables were up: %s", e)

    def _due(self, live: LiveTable) -> None:
        live.sweep = None
        task = asyncio.create_task(self._sweep(live), name=f"belote-sweep-{live.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def hold(self) -> None:
        """Discord is down: no game is ended as abandoned until it is back."""
        if self._held_since is None:
            self._held_since = self.tables.clock.now()

    def release(self) -> None:
        """Discord is back: every game's idle deadline moves on by the time it was down (and
        is saved, so a restart keeps it); a lobby's does not (closing one loses nobody
        anything)."""
        since, self._held_since = self._held_since, None
        if since is None:
            return
        away = self.tables.clock.now() - since
        moved = []
        for live in self.tables.live.values():
            if live.row.status == TableStatus.PLAYING and live.row.sweep_at is not None:
                live.row.sweep_at += away
                self.arm(live)
                moved.append(live)
        if moved:
            task = asyncio.create_task(self._save(moved), name="belote-sweep-release")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _save(self, moved: list[LiveTable]) -> None:
        for live in moved:
            try:
                async with self.tables.door(live):
                    at = live.row.sweep_at
                    if live.id in self.tables.live and at is not None and \
                            (live.sweep_saved is None or at > live.sweep_saved):
                        await self.tables.db.tables.set_sweep_at(live.id, at)
                        live.sweep_saved = at
            except Exception:
                log.exception("table %s: its idle deadline could not be saved", live.id)

    async def _sweep(self, live: LiveTable) -> None:
        try:
            async with self.tables.door(live):
                at = live.row.sweep_at
                if live.id not in self.tables.live or at is None:
                    return
                if self._held_since is not None and live.row.status == TableStatus.PLAYING:
                    return  # Discord is down: ``release`` arms it again, later
                if self.tables.clock.now() < at:  # somebody acted meanwhile
                    self.arm(live)
                    return
                if live.row.status == TableStatus.LOBBY:
                    log.info("table %s: not started within %s minutes; closing it", live.id,
                             live.lobby_minutes)
                    await self.tables.close(
                        live, TableStatus.ENDED,
                        words().plural("sweeper.reason.lobby_expired", live.lobby_minutes),
                        LOBBY_EXPIRED)
                elif live.playing:
                    log.info("table %s: no person acted for %s minutes; ending it as abandoned",
                             live.id, live.idle_minutes)
                    await self._abandon(live)
        except Exception:
            log.exception("table %s: the sweeper could not close it", live.id)

    async def idle(self, live: LiveTable) -> list[int]:
        """The people an abandoned game is abandoned by (who have not left it already): the
        person to act, those a computer stands in for after they ran out of time, and those
        who never acted at it."""
        match = live.match
        assert match is not None
        acted = await self.tables.db.log.actors(live.id)
        out = []
        for s in sorted(live.seats.values(), key=lambda s: s.seat):
            if s.user_id is None or s.departed is not None:
                continue
            if (s.is_human and match.to_act == s.seat) or s.timed_out or \
                    s.user_id not in acted:
                out.append(s.user_id)
        return out

    async def _abandon(self, live: LiveTable) -> None:
        """Record the match as abandoned (the leavers marked, its idle players among them, who
        lose their stakes and, at a table of four people, the match on the ratings, each
        alone), then close."""
        match = live.match
        assert match is not None
        idle = await self.idle(live)
        for s in live.seats.values():
            if s.user_id in idle:
                s.departed = LEFT  # in memory: the end hooks (tournaments) read the leavers
        live.moved = await self.tables.db.results.record_match(
            table_id=live.id, guild_id=live.row.guild_id, variant=live.row.variant,
            winner=None, totals=(match.totals[0], match.totals[1]), deals=len(match.deals),
            players=self.play.players_of(live), tally=tally(match), ending="abandoned",
            left=live.leavers(), credits=abandoned_credits(live, idle))
        live.row.status = TableStatus.ENDED  # the stakes are settled: close returns none
        await self.tables.close(
            live, TableStatus.ENDED,
            words().plural("sweeper.reason.abandoned", live.idle_minutes), ABANDONED)

    async def settle(self) -> None:
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        for live in self.tables.live.values():
            live.stop_sweep()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def stopped(self) -> None:
        """The stop's time, written last (after the sends stopped, before the database
        closes): the next start moves the games' idle deadlines on from here."""
        await self._write_up()
        self._up = None
