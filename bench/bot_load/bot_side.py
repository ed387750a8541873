"""The bot's process of bench_bot: the probe the harness calls into (its clocks, event-loop
lag, garbage collections, CPU, the database's and the budget's waits), and the handlers that
count cards, measure memory per table, age tokens and keep the analysis worker busy."""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import random
import time
import tracemalloc
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import aiosqlite

from tests.fakediscord.remote import serve_bot

from .figures import pct


def timed(call: Callable[..., Awaitable[Any]], into: list[float],
          counts: Callable[[dict[str, Any]], bool] = lambda kw: True
          ) -> Callable[..., Awaitable[Any]]:
    """``call``, each await of it timed into ``into`` (when ``counts`` says so of its
    keywords)."""
    async def timed_call(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            if counts(kwargs):
                into.append(time.perf_counter() - t)
    return timed_call


class CallbackClock:
    """Times every callback the bot's event loop runs (asyncio's Handle._run), and names the
    ones that held the loop longer than a threshold: what the loop's lag is made of."""

    def __init__(self, threshold_ms: float) -> None:
        self.threshold = threshold_ms / 1000
        self.count = 0
        self.busy = 0.0  # seconds of callbacks, wall
        self.slow: dict[str, list[float]] = {}  # name -> [count, wall, cpu, longest]
        self._run: Any = None

    @staticmethod
    def name(handle: Any) -> str:
        """A task step is named by its coroutine and where it stopped; others by function."""
        cb = handle._callback
        task = getattr(cb, "__self__", None)
        if not isinstance(task, asyncio.Task):
            task = next((r for r in gc.get_referents(cb) if isinstance(r, asyncio.Task)), None)
        if task is None:
            return getattr(cb, "__qualname__", type(cb).__name__)
        coro: Any = task.get_coro()
        name = getattr(coro, "__qualname__", "?")
        frame = getattr(coro, "cr_frame", None)
        inner = coro
        while getattr(inner, "cr_await", None) is not None and \
                getattr(inner.cr_await, "cr_frame", None) is not None:
            inner = inner.cr_await
            frame = inner.cr_frame
        where = f" (waits in {frame.f_code.co_qualname}:{frame.f_lineno})" if frame else " (done)"
        return f"task {name}{where}"

    def install(self) -> None:
        from asyncio import events
        self._run = run = events.Handle._run
        clock, perf, cpu = self, time.perf_counter, time.thread_time

        def timed_run(handle: Any) -> None:
            w, c = perf(), cpu()
            run(handle)
            w = perf() - w
            clock.count += 1
            clock.busy += w
            if w > clock.threshold:
                c = cpu() - c
                entry = clock.slow.setdefault(clock.name(handle), [0, 0.0, 0.0, 0.0])
                entry[0] += 1
                entry[1] += w
                entry[2] += c
                entry[3] = max(entry[3], w)

        setattr(events.Handle, "_run", timed_run)  # noqa: B010

    def uninstall(self) -> dict[str, Any]:
        from asyncio import events
        setattr(events.Handle, "_run", self._run)  # noqa: B010
        return {"count": self.count, "busy": self.busy, "threshold": self.threshold,
                "slow": self.slow}


class Probe:
    """What the bot's process measures about itself: loop lag, CPU time, a profile."""

    def __init__(self, profile: str | None, slow_callbacks: float | None = None) -> None:
        self.lag: list[float] = []
        self.callbacks = CallbackClock(slow_callbacks) if slow_callbacks is not None else None
        self.sent: list[float] = []
        self.stop = asyncio.Event()
        self.cpu = 0.0
        self.workers: dict[int, float] = {}
        self.wall = 0.0
        self.task: asyncio.Task[None] | None = None
        self.profile_path = profile
        self.profiler: cProfile.Profile | None = None
        self.inside: list[float] = []
        self.answer: list[float] = []
        self.acting: list[float] = []  # service.act: the table's lock, the rules, the database
        self.hand_images: list[float] = []  # a hand image an answer waits for
        self.logging: list[float] = []  # an action's write to the log (the database's queue too)
        self.lock_waits: list[float] = []  # every wait for the database's lock
        self.trips: Counter[str] = Counter()  # trips to the database's thread, by statement
        self.hand_worker: list[float] = []  # a hand job from its pipe write to its answer read
        # (generation, seconds, CPU seconds, objects collected) per collection
        self.gc_pauses: list[tuple[int, float, float, int]] = []
        self._gc_started = (0.0, 0.0)
        self._unwatch: Callable[[], object] = lambda: None
        self._unwatch_tables: Callable[[], object] = lambda: None
        self.changes: list[tuple[int, int, float]] = []  # (table, seq, when) per change
        self.edits: list[tuple[int, int, float]] = []  # (table, seq shown, when) per edit

    async def sample(self) -> None:
        while not self.stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lag.append(time.perf_counter() - t - 0.01)

    def watch_answers(self, bot: Any) -> None:
        """Time each click inside the bot: from its event reaching the bot to its answer
        leaving, and the answer's request itself (to the fake and back)."""
        from discord.webhook.async_ import AsyncWebhookAdapter
        state = bot._connection
        received: dict[int, float] = {}
        self.inside, self.answer = inside, answer = [], []
        parse = state.parse_interaction_create
        respond = AsyncWebhookAdapter.create_interaction_response

        def parse_timed(data: Any) -> None:
            received[int(data["id"])] = time.perf_counter()
            parse(data)

        async def respond_timed(adapter: Any, interaction_id: int, *args: Any,
                                **kwargs: Any) -> Any:
            t = time.perf_counter()
            came = received.pop(interaction_id, None)
            if came is not None:
                inside.append(t - came)
            try:
                return await respond(adapter, interaction_id, *args, **kwargs)
            finally:
                answer.append(time.perf_counter() - t)

        # The real gateway looks the parser up in state.parsers, the fake's socket by name.
        state.parsers["INTERACTION_CREATE"] = state.parse_interaction_create = parse_timed
        setattr(AsyncWebhookAdapter, "create_interaction_response", respond_timed)  # noqa: B010

        import bot.images as images
        service, db = bot.service, bot.service.db
        repo = db.log
        act, hand_image, append = service.act, images.hand_image, repo.append
        self.acting, self.hand_images, self.logging = [], [], []

        def answering(kw: dict[str, Any]) -> bool:
            return kw.get("need", images.Need.ANSWER) is images.Need.ANSWER  # not a DM edit's

        # The wait for the database's lock (SQLite: one statement or transaction at a time),
        # apart from the trips themselves. Swapped in while nothing runs but the load.
        old_lock = getattr(db, "_lock", None)
        self.lock_waits = lock_waits = []

        class TimedLock(asyncio.Lock):
            async def acquire(self) -> Literal[True]:
                t = time.perf_counter()
                try:
                    return await super().acquire()
                finally:
                    lock_waits.append(time.perf_counter() - t)

        if isinstance(old_lock, asyncio.Lock):
            db._lock = TimedLock()

        # Every trip to SQLite's thread (aiosqlite queues one function per trip), named by
        # its statement's first words, or by the cursor method when it carries none.
        # (SQLite only: on PostgreSQL, bench_shards, there is no such thread.)
        conn: Any = getattr(db, "_conn", None)
        self.trips = trips = Counter[str]()
        queue = getattr(conn, "_execute", None) if isinstance(conn, aiosqlite.Connection) \
            else None
        if queue is not None:
            async def counted(fn: Any, *a: Any, **kw: Any) -> Any:
                sql = a[0] if a and isinstance(a[0], str) else ""
                trips[" ".join(sql.split()[:4]) or getattr(fn, "__name__", "?")] += 1
                return await queue(fn, *a, **kw)
            conn._execute = counted

        # The hand worker's part of a hand image: from the job written to its pipe to its
        # answer read by the event loop (the rest of a hand's wait is the pool's queue).
        from bot import render_pool
        self.hand_worker = in_worker = []
        send = render_pool._Worker.send

        def send_timed(worker: Any, job: Any) -> None:
            send(worker, job)
            if worker.pool is images.HANDS:
                t = time.perf_counter()
                job[3].add_done_callback(lambda _: in_worker.append(time.perf_counter() - t))

        setattr(render_pool._Worker, "send", send_timed)  # noqa: B010
        service.act = timed(act, self.acting)
        setattr(images, "hand_image", timed(hand_image, self.hand_images, answering))  # noqa: B010
        repo.append = timed(append, self.logging)

        def unwatch() -> None:
            if isinstance(old_lock, asyncio.Lock):
                db._lock = old_lock
            if queue is not None:
                del conn._execute
            setattr(render_pool._Worker, "send", send)  # noqa: B010
            del service.act
            del repo.append
            images.hand_image = hand_image
            setattr(AsyncWebhookAdapter, "create_interaction_response", respond)  # noqa: B010
            state.parsers["INTERACTION_CREATE"] = parse
            del state.parse_interaction_create

        self._unwatch = unwatch

    def watch_table_edits(self, bot: Any) -> Callable[[], None]:
        """Inside the bot: when each table changed (its log's next sequence number, and the
        time the delivery was told), and each table message edit Discord accepted with the
        sequence number of the state it showed. From the two, the time from a change to the
        first edit that shows it (``table_shown``); returns the function that undoes it."""
        delivery = bot.delivery
        changed, payload, edit = (delivery.table_changed, delivery.screens.table_payload,
                                  delivery._edit_table)
        self.changes, self.edits = changes, edits = [], []
        building: dict[int, int] = {}

        def table_changed(live: Any) -> None:
            changes.append((live.id, live.seq, time.perf_counter()))
            changed(live)

        async def table_payload(live: Any, closed: str | None = None) -> Any:
            building[live.id] = live.seq  # read with the view, before the first await
            return await payload(live, closed)

        async def edit_table(live: Any, closed: str | None) -> None:
            await edit(live, closed)
            seq = building.pop(live.id, None)
            if seq is not None:
                edits.append((live.id, seq, time.perf_counter()))

        delivery.table_changed, delivery.screens.table_payload = table_changed, table_payload
        delivery._edit_table = edit_table

        def unwatch() -> None:
            del delivery.table_changed, delivery.screens.table_payload, delivery._edit_table

        return unwatch

    def table_shown(self) -> tuple[list[float], list[float], int]:
        """(for each change, the seconds until an edit showed it; when it came, in seconds
        since ``start``; changes never shown)."""
        shown_at: dict[int, list[tuple[int, float]]] = {}
        for table, seq, at in self.edits:
            shown_at.setdefault(table, []).append((seq, at))
        waits, whens, never = [], [], 0
        for table, seq, at in self.changes:
            first = next((t for s, t in shown_at.get(table, []) if s >= seq and t >= at), None)
            if first is None:
                never += 1
            else:
                waits.append(first - at)
                whens.append(at - self.wall)
        return waits, whens, never

    def _gc_timed(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = (time.perf_counter(), time.thread_time())
        else:
            wall, cpu = self._gc_started
            self.gc_pauses.append((info["generation"], time.perf_counter() - wall,
                                   time.thread_time() - cpu, info["collected"]))

    async def start(self, bot: Any) -> None:
        self.watch_answers(bot)
        self._unwatch_tables = self.watch_table_edits(bot)
        self.gc_pauses = []
        gc.callbacks.append(self._gc_timed)
        sent: list[float] = []  # when each global-limited call left, by the budget's clock
        self.sent = sent
        bot.delivery.jobs.budget.on_send = sent.append
        self.lag.clear()
        self.stop.clear()
        self.cpu, self.wall = time.process_time(), time.perf_counter()
        self.workers = worker_cpu()
        self.task = asyncio.create_task(self.sample(), name="fakediscord-lag")
        if self.callbacks is not None:
            self.callbacks.install()
        if self.profile_path:
            self.profiler = cProfile.Profile()
            self.profiler.enable()

    async def finish(self, bot: Any) -> dict[str, Any]:
        cpu, wall = time.process_time() - self.cpu, time.perf_counter() - self.wall
        workers = sum(t - self.workers.get(pid, 0.0) for pid, t in worker_cpu().items())
        if self.profiler is not None:
            self.profiler.disable()
            assert self.profile_path is not None
            self.profiler.dump_stats(self.profile_path)
        self.stop.set()
        if self.task is not None:
            await self.task
        slow = self.callbacks.uninstall() if self.callbacks is not None else {}
        budget = bot.delivery.jobs.budget
        budget.on_send = None
        self._unwatch()
        self._unwatch_tables()
        gc.callbacks.remove(self._gc_timed)
        table_shown, table_changed, never_shown = self.table_shown()
        return {"table_shown": table_shown, "table_changed": table_changed,
                "never_shown": never_shown,
                "sent": self.sent, "inside": self.inside, "answer": self.answer,
                "acting": self.acting, "hand_images": self.hand_images,
                "logging": self.logging, "lock_waits": self.lock_waits,
                "trips": dict(self.trips), "hand_worker": self.hand_worker,
                "gc_by_generation": [sum(1 for g, *_ in self.gc_pauses if g == n)
                                     for n in range(3)],
                "gc_longest": max(self.gc_pauses, key=lambda p: p[1], default=None),
                "gc_max_by_generation": [max((t for g, t, *_ in self.gc_pauses if g == n),
                                             default=0.0) for n in range(3)],
                "lag_p50": pct(self.lag, .5), "lag_p99": pct(self.lag, .99),
                "lag_max": max(self.lag, default=0.0), "cpu": cpu, "wall": wall,
                "workers": workers, "budget_taken": budget.taken,
                "budget_waited": budget.waited, "budget_held": budget.held,
                "slow_callbacks": slow}


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far, from /proc (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_cpu() -> dict[int, float]:
    """CPU seconds used so far by each render worker process of the bot."""
    from bot import images
    return {pid: process_cpu(pid) for pid in images.worker_pids()}


async def count_cards(bot: Any) -> dict[str, int]:
    rows = await bot.db.fetchall(
        "SELECT json_extract(payload, '$.action') AS a, count(*) AS n FROM actions "
        "WHERE kind = 'action' GROUP BY a")
    deals = await bot.db.fetchall("SELECT count(*) AS n FROM actions WHERE kind = 'deal'")
    out = {str(r["a"]): int(r["n"]) for r in rows}
    out["<deals>"] = int(deals[0]["n"])
    return out


async def memory_per_table(bot: Any) -> dict[str, float]:
    """Restore every open table into a fresh service from the same database, measured."""
    from service.tables import TableService
    open_now = len(bot.service.live)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    again = TableService(bot.service.db)
    restored = await again.restore()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    from bot import images
    cached = images.HAND_IMAGES.nbytes()  # the running bot's hand images, kept per seat
    return {"per_table": grown / max(1, len(restored)), "restored": len(restored),
            "open": open_now, "images_per_table": cached / max(1, open_now),
            "image_hits": images.HAND_IMAGES.hits, "image_misses": images.HAND_IMAGES.misses}


async def forget_table_tokens(bot: Any, share: float) -> list[int]:
    """As if the last click on a table's message (its Start) were more than 15 minutes old,
    for this share of the tables (a seeded draw: every other table is of one person with
    --mixed, so no pattern by id): their message is edited as a message, under the global
    limit. The ids of those tables."""
    tokens = bot.delivery.tokens.table
    ids = sorted(tokens)
    old = random.Random(3).sample(ids, round(len(ids) * share))
    for table_id in old:
        del tokens[table_id]
    return old


async def web_port(bot: Any) -> int | None:
    """The port of the bot's web server (metrics on), or None."""
    return bot.web.port if bot.web is not None else None


class AnalysisLoad:
    """--analysis: the bot's analysis worker kept busy while the clicks are measured."""

    def __init__(self) -> None:
        self.task: asyncio.Task[None] | None = None
        self.deals = 0
        self.cpu0: dict[int, float] = {}

    async def start(self, bot: Any) -> None:
        from service import analysis
        from tests.cli.test_cli import RECORD  # a shipped classic record: ~1 s a deal
        record = RECORD
        for guild in bot.guilds:
            await bot.guild_settings.change(guild.id, {"analysis": "on"})
        await bot.analysis_pool.run(analysis.JOB, record, 0)  # the worker started, warm
        self.cpu0 = {pid: process_cpu(pid) for pid in bot.analysis_pool.pool.pids()}

        async def busy() -> None:
            while True:
                await bot.analysis_pool.run(analysis.JOB, record, 0)
                self.deals += 1
        # Named as the harness's own tasks, which its settle does not wait for.
        self.task = asyncio.create_task(busy(), name="fakediscord-analysis-load")

    async def finish(self, bot: Any) -> dict[str, float]:
        if self.task is not None:
            self.task.cancel()
        cpu = sum(process_cpu(pid) - self.cpu0.get(pid, 0.0)
                  for pid in bot.analysis_pool.pool.pids())
        return {"deals": self.deals, "cpu": cpu}


def child(args: argparse.Namespace) -> None:
    from bot import create_bot
    probe = Probe(args.profile, args.slow_callbacks)
    load = AnalysisLoad()
    handlers: dict[str, Callable[..., Awaitable[Any]]] = {
        "start": probe.start, "finish": probe.finish, "cards": count_cards,
        "memory": memory_per_table, "forget_table_tokens": forget_table_tokens,
        "web_port": web_port, "analysis_start": load.start, "analysis_finish": load.finish}
    web = {"web_port": 0} if args.with_metrics else {}
    asyncio.run(serve_bot(create_bot, handlers, args.child,
                          computer_delay=args.computer_delay, **web))
