"""The double-dummy analysis of finished matches, run one at a time in a worker process.

Discord-free: the replay's Analysis page (cogs/stats.py) and the end of a match on a server
with ``analysis: on`` ask here; whoever shows the analysis listens for its progress.

Analysing one deal takes seconds of pure-Python CPU (game/analysis), a match minutes. The
GIL would stall the event loop, and every click with it, if that ran in the bot's process,
even in a thread: each deal is one job of a worker process, through the ``run`` the bot gives
(bot/analysis_pool.py: a pool that never falls back to threads, its worker at the lowest
priority and a batch process), one job at a time. The queue is the database's
(db/analyses.py): a match asked for is 'queued', 'running' while its deals are analysed, each
deal stored as soon as it is done, then 'done'. A restart takes up what was queued or
running, from the deals stored: no deal is analysed twice, and a run that keeps being cut
short is given up (MAX_STARTS).

Only finished matches are analysed (a match row exists once a match is over): nothing of a
running match, whose hidden cards stay hidden.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from db.analyses import DONE, FAILED, QUEUED, RUNNING, AnalysedStats, AnalysisRow, PlayerCost
from game.analysis.review import record_deal_json

if TYPE_CHECKING:
    from db import Database

    from .guild_settings import GuildSettingsStore
    from .records import Records
    from .tables import LiveTable, TableService

log = logging.getLogger(__name__)

# Runs of one match begun without finishing (restarts in its middle) before it is given up.
MAX_STARTS = 3
# The actions' "by" (docs/game-record.md) whose cards count as their player's choice: their
# click, a choice made ahead of the turn, a computer's own decision.
CHOSEN_BY = (None, "ahead", "computer")

Job = Callable[[dict[str, Any], int], dict[str, Any]]
# What a worker runs for one deal: a game record and a deal's index in, deal_json out.
JOB: Job = record_deal_json
# How a job is run: ``run(job, record, index)`` in a worker process, its answer awaited (a
# worker that dies or cannot start raises).
Run = Callable[[Job, dict[str, Any], int], Awaitable[dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a match's analysis stands: ``done`` of ``deals`` (0 until its run reads them)."""

    table_id: int
    state: str
    done: int
    deals: int

    @staticmethod
    def of(row: AnalysisRow) -> Progress:
        return Progress(row.table_id, row.state, row.done, row.deals)


Listener = Callable[[Progress], Awaitable[None]]


def utc_now() -> datetime:
    return datetime.now(UTC)


def counted(options: list[dict[str, Any]], by: str | None) -> bool:
    """Whether a card counts in its player's accuracy: it had an alternative (a forced card
    is no choice) and its player chose it (not a timer's, a claim's or a takeover's card)."""
    return len(options) > 1 and by in CHOSEN_BY


def player_costs(deals: dict[int, dict[str, Any]],
                 choosers: list[list[tuple[int | None, str | None]]]) -> list[PlayerCost]:
    """What each player's chosen cards cost over the analysed ``deals`` (deal_json's shape):
    ``choosers[deal][action]`` is who took that action (a user id, None for no person) and
    its "by". A person's cards are theirs under their id, a computer's under 0."""
    sums: dict[tuple[int, int], list[int]] = {}
    for index, deal in deals.items():
        actions = choosers[index] if index < len(choosers) else []
        for d in deal["decisions"]:
            options = d["options"]
            if "card" not in options[0]:
                continue
            user, by = actions[d["action"]] if d["action"] < len(actions) else (None, None)
            if not counted(options, by):
                continue
            if by == "computer":
                user = None
            elif user is None:
                continue  # no person chose it and no computer: not counted
            chosen = next(o for o in options if o["card"] == d["played"])
            s = sums.setdefault((d["seat"], user or 0), [0, 0, 0, 0])
            s[0] += 1
            s[1] += chosen["cost"] == 0
            s[2] += chosen["cost"]
            s[3] += chosen["cost_points"]
    return [PlayerCost(seat, user, *s) for (seat, user), s in sorted(sums.items())]


class AnalysisRunner:
    """The queue of analyses: :meth:`ask` for a finished match, :meth:`listen` for its
    progress; one match at a time, each deal a job of the worker process."""

    def __init__(self, db: Database, records: Records, run: Run, *, job: Job | None = None,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.db = db
        self.repo = db.analyses
        self.records = records
        self.job = job if job is not None else JOB
        self.run = run
        self.clock = clock
        self.ran: list[tuple[int, int]] = []  # (table, deal) analysed by this process
        self._waiting: deque[tuple[int, int]] = deque()  # (guild, table), in turn
        self._queued: set[int] = set()
        self._listeners: dict[int, list[Listener]] = {}
        self._task: asyncio.Task[None] | None = None
        self._told: set[asyncio.Task[None]] = set()
        self._closed = False

    # ---- asking ------------------------------------------------------------------------------
    async def ask(self, guild_id: int, table_id: int) -> Progress | None:
        """The analysis of this server's finished match ``table_id``: queued unless it is
        stored or on its way already (or it failed: then queued again). None: no finished
        match of that number here."""
        if await self.db.results.match(guild_id, table_id) is None:
            return None
        row = await self.repo.ask(table_id, guild_id, self.clock().isoformat())
        if row.state == QUEUED:
            self._enqueue(guild_id, table_id)
        return Progress.of(row)

    async def progress(self, table_id: int) -> Progress | None:
        """Where the match's analysis stands; None: never asked for."""
        row = await self.repo.get(table_id)
        return Progress.of(row) if row is not None else None

    async def stored(self, table_id: int) -> tuple[dict[int, dict[str, Any]], list[PlayerCost]]:
        """A match's analysis as stored: each deal's (by its index in the match) and what
        each player's cards cost over the match (empty until it is done)."""
        return await self.repo.stored_deals(table_id), await self.repo.players(table_id)

    async def done_deal(self, table_id: int, index: int) -> dict[str, Any] | None:
        """Deal ``index``'s analysis (from 0) once the whole match's is done (what its deal
        sheet shows); None before that, and for a deal not analysed (one nobody played)."""
        row = await self.repo.get(table_id)
        if row is None or row.state != DONE:
            return None
        return await self.repo.stored_deal(table_id, index)

    async def member_stats(self, guild_id: int, user_id: int, variant: str) -> AnalysedStats:
        """A member's chosen cards over their analysed matches of a variant here."""
        return await self.repo.member_stats(guild_id, user_id, variant)

    def listen(self, table_id: int, listener: Listener) -> Callable[[], None]:
        """Tell ``listener`` each step of this match's analysis (each deal stored, the end);
        returns what stops it. A listener that fails is logged, nothing else."""
        self._listeners.setdefault(table_id, []).append(listener)

        def stop() -> None:
            listeners = self._listeners.get(table_id, [])
            if listener in listeners:
                listeners.remove(listener)
            if not listeners:
                self._listeners.pop(table_id, None)
        return stop

    def watch_ends(self, service: TableService, settings: GuildSettingsStore) -> None:
        """A server with ``analysis: on`` has every match analysed at its end."""
        def ended(live: LiveTable) -> None:
            task = asyncio.get_running_loop().create_task(
                self._ended(live.row.guild_id, live.id, settings))
            self._told.add(task)
            task.add_done_callback(self._told.discard)
        service.end_hooks.append(ended)

    async def _ended(self, guild_id: int, table_id: int, settings: GuildSettingsStore) -> None:
        try:
            if (await settings.get(guild_id)).analysis == "on":
                await self.ask(guild_id, table_id)
        except Exception:
            log.exception("match %s: its analysis could not be asked for", table_id)

    async def resume(self, owns: Callable[[int], bool] = lambda guild: True) -> None:
        """After a start: the analyses queued or running (of the servers this process runs)
        take their turn again, oldest first."""
        for row in await self.repo.unfinished():
            if owns(row.guild_id):
                self._enqueue(row.guild_id, row.table_id)

    def _enqueue(self, guild_id: int, table_id: int) -> None:
        if self._closed or table_id in self._queued:
            return
        self._queued.add(table_id)
        self._waiting.append((guild_id, table_id))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._drain(), name="belote-analysis")

    async def _drain(self) -> None:
        while self._waiting:
            guild_id, table_id = self._waiting[0]
            try:
                await self._analyse(guild_id, table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("match %s: analysis failed", table_id)
                await self._fail(table_id, "internal error")
            finally:
                if self._waiting and self._waiting[0] == (guild_id, table_id):
                    self._waiting.popleft()
                self._queued.discard(table_id)

    # ---- a run -------------------------------------------------------------------------------
    async def _analyse(self, guild_id: int, table_id: int) -> None:
        row = await self.repo.get(table_id)
        if row is None or row.state not in (QUEUED, RUNNING):
            return
        if row.starts >= MAX_STARTS:
            log.error("match %s: its analysis began %d times without finishing: given up",
                      table_id, row.starts)
            await self._fail(table_id, f"began {row.starts} times without finishing")
            return
        rp = await self.records.replay(guild_id, table_id)
        if rp is None:
            await self._fail(table_id, "the match's record does not replay")
            return
        over = [i for i, deal in enumerate(rp.match.deals) if deal.is_over]
        row = await self.repo.start(table_id, len(over))
        stored = await self.repo.stored_deals(table_id)
        self._tell(Progress(table_id, RUNNING, len(stored), len(over)))
        for index in over:
            if index in stored:
                continue  # analysed before a restart
            try:
                analysis = await self.run(self.job, rp.record, index)
            except Exception as e:  # the worker died, or the job raised
                if self._closed:
                    raise asyncio.CancelledError from e  # the bot stops: resumed at start
                log.error("match %s: deal %s's analysis failed: %r", table_id, index, e)
                await self._fail(table_id, str(e) or type(e).__name__)
                return
            done = await self.repo.store_deal(table_id, index, analysis)
            stored[index] = analysis
            self.ran.append((table_id, index))
            self._tell(Progress(table_id, RUNNING, done, len(over)))
        choosers = await self.choosers(table_id)
        await self.repo.finish(table_id, guild_id, rp.row.variant,
                               player_costs(stored, choosers), self.clock().isoformat())
        self._tell(Progress(table_id, DONE, len(over), len(over)))
        log.info("match %s analysed (%d deals)", table_id, len(over))

    async def choosers(self, table_id: int) -> list[list[tuple[int | None, str | None]]]:
        """Who took each action of each deal (a user id or None) and its "by"."""
        deals: list[list[tuple[int | None, str | None]]] = []
        for e in await self.db.log.entries(table_id):
            if e.kind == "deal":
                deals.append([])
            elif deals:
                deals[-1].append((e.user_id, e.payload.get("by")))
        return deals

    async def _fail(self, table_id: int, error: str) -> None:
        await self.repo.fail(table_id, error, self.clock().isoformat())
        row = await self.repo.get(table_id)
        self._tell(Progress.of(row) if row is not None else
                   Progress(table_id, FAILED, 0, 0))

    def _tell(self, progress: Progress) -> None:
        for listener in list(self._listeners.get(progress.table_id, ())):
            task = asyncio.get_running_loop().create_task(self._told_one(listener, progress))
            self._told.add(task)
            task.add_done_callback(self._told.discard)
        if progress.state in (DONE, FAILED):
            self._listeners.pop(progress.table_id, None)

    @staticmethod
    async def _told_one(listener: Listener, progress: Progress) -> None:
        try:
            await listener(progress)
        except Exception:
            log.exception("match %s: an analysis listener failed", progress.table_id)

    # ---- the end -----------------------------------------------------------------------------
    async def close(self) -> None:
        """Stop: the analysis under way stays 'running' in the database (the next start
        resumes it from its stored deals). The bot ends the worker after this."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        for told in list(self._told):
            told.cancel()
        self._waiting.clear()
        self._queued.clear()

    async def settled(self) -> None:
        """Wait until nothing is queued or under way (the ends heard asked for theirs, every
        match queued analysed, each listener told): for tests and a clean stop."""
        while True:
            waits = [t for t in (self._task, *self._told)
                     if t is not None and not t.done() and t is not asyncio.current_task()]
            if not waits:
                return
            await asyncio.wait(waits)

    async def told(self) -> None:
        """Wait until every listener told so far has done with it (tests)."""
        while waits := [t for t in self._told if not t.done() and t is not asyncio.current_task()]:
            await asyncio.wait(waits)

    def pending(self) -> Iterable[int]:
        """The matches waiting or under way in this process, in turn (for tests, metrics)."""
        return [table for _, table in self._waiting]
