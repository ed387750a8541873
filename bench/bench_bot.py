"""The bot under load: many tables playing at once through the fake Discord (tests/fakediscord).

    python bench/bench_bot.py [--tables 200] [--seconds 60] [--think 1 4]    # realistic load
    python bench/bench_bot.py --burst --rounds 30                             # stress case

The bot runs in a process of its own (as in production, where Discord's servers are elsewhere):
it gets its gateway events over a loopback socket and makes its REST calls to the fake over HTTP
(tests/fakediscord/remote.py). The fake Discord and the users' clicks run in this process.

Realistic load: every table has four people (with --mixed, every other table has one person
and three computers). When a player's DM shows their controls enabled
(their turn), they think for a uniform random time (--think, 1 to 4 s) and click a random enabled
control (a card, a bid button, a value in a bid menu); a forced card (their only legal one) they
leave to the bot, which plays it after its beat. With --computers N, N seats per table are
computers at their normal delay (COMPUTER_DELAY, 1 s). Burst (--burst): every table's player
clicks at the same instant, round after round: a stress figure, not normal play.

Reports, over the measured period:
- click-to-acknowledgement latency p50/p99/max: from the click's dispatch to the fake receiving
  the interaction callback (measured in this process; the bot cannot stall its clock, and this
  process's own garbage collection is held off while measuring: see --fake-gc), and the part
  of it inside the bot (from the click's event reaching it to its answer leaving) beside the
  answer's own request, and two parts of the inside: the action itself (the table's lock, the
  rules, the database; with its write to the log, the database's queue included, and how long
  every database call waited for the database's lock) and the new hand's image for the answer
  (the worker's queue and drawing);
- REST calls per card played and per action (bids and cards), how many count against Discord's
  global rate limit (interaction callbacks and webhooks do not), and the breakdown by kind;
- CPU time per action of the bot process, of its render worker processes and of this process
  (the fake and the players), and the bot's event-loop lag p50/p99 (a 10 ms sleeper), with its
  garbage collections (how many of each generation, and the longest pause of each);
- memory per live table: its state (tracemalloc while restoring every table from the database)
  and the hand images the bot keeps for its seats;
- calls counted against the global limit per second (mean and the busiest second), 429
  answers, and the bot's global budget (bot/budget.py): how many calls waited for their turn;
- from a click to the table message showing a change (the players' process watches it every
  20 ms; every click timed on its own, one the table message did not show before the next click
  included), and to the next person's hand showing their controls (tables of four people only:
  elsewhere the next person comes after computers), p50/p99; and, measured inside the bot, from
  each change of a table to the first edit of its message Discord accepted that shows it (by
  the log's sequence number: a message that changed may still show an older state); and the
  table message's figure again for the clicks after the first --settle seconds (30): at the
  start every person's first turn is an edit of their hand by the bot (no token of theirs yet);
- with --slow-callbacks MS: how busy the bot's event loop was (every callback timed), and the
  callbacks that held it longer than MS milliseconds, by coroutine (wall and CPU time);
- the longest garbage collection: its generation, wall and CPU time, and what it freed.
With --analysis: the servers' ``analysis`` setting on, and the bot's analysis worker (the
double-dummy solver, service/analysis.py, in its own process at niceness 19) kept busy for the
whole measured period on a shipped record's deal (tests/cli's classic one), job after job, as a
bot whose matches keep ending would keep it: the clicks' figures are then measured beside it,
and the deals it analysed and its CPU are reported.
With --answer-delay MIN MAX the fake Discord answers each request late (a slow Discord: see the
README's figures); the players' figures are measured when the fake receives a request, the
bot's own ("from a change ... Discord accepted") when the answer is back, late answer included.
A click deferred by the bot (interaction callback type 6: acknowledged, its answer completed
through the token) counts as answered, not refused.
Every table is started by a click on its message, whose token then edits that message for 15
minutes, outside the global limit; a run is shorter than that. --old-tables [SHARE] measures
tables past it (all, or that share of them): their tokens are forgotten before the clicks
start, and each of their table edits is a message edit under the global limit.
Targets (issue 4): ack p99 <= 100 ms; <= 3 calls per card, <= 2 global; lag p99 <= 25 ms;
<= 200 KB per table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import functools
import gc
import io
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal, cast

import aiosqlite
import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fakediscord import FakeDiscord, FakeMember, FakeMessage, InteractionResult
from tests.fakediscord.remote import RemoteBot, serve_bot

VARIANTS = ("classic", "coinche", "bulgarian")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def busiest(times: list[float], window: float = 1.0) -> int:
    """The most of ``times`` in any ``window`` seconds (a rolling window)."""
    times, most, first = sorted(times), 0, 0
    for last, t in enumerate(times):
        while times[first] <= t - window:
            first += 1
        most = max(most, last - first + 1)
    return most


def budget_limit() -> str:
    from bot import budget
    spread = getattr(budget, "SPREAD", 1)  # an older build, measured beside this one: none
    return f"{budget.LIMIT} in {budget.PER:g} s, {-(-budget.LIMIT // spread)} in " \
        f"{budget.PER / spread:g} s"


# ---- the bot's process ----------------------------------------------------------------------
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


async def scrape_metrics(port: int, every: float, stop: asyncio.Event) -> list[int]:
    """Read /metrics every ``every`` seconds, as Prometheus would (more often: its default is
    15 s), until ``stop``; the size of each answer."""
    import aiohttp

    sizes: list[int] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as s:
        while not stop.is_set():
            async with s.get(f"http://127.0.0.1:{port}/metrics") as r:
                assert r.status == 200
                sizes.append(len(await r.read()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
    return sizes


# ---- this process: the fake Discord and the players --------------------------------------
class Table:
    def __init__(self, table_id: int, message_id: int, humans: list[FakeMember]) -> None:
        self.id = table_id
        self.message_id = message_id
        self.humans = humans
        self.hand_message: dict[int, int] = {}  # member id -> their DM hand message
        self.old = False  # past its first 15 minutes (--old-tables): no token edits its message
        self.last_seq = -1
        self.clicked_at: float | None = None  # the last click (for the next person's hand)
        # Every click the table message has not shown yet: when it came, and what the table
        # message said then. Each is timed on its own, so a click followed by another before
        # the table changed (the ones that waited longest) is counted too.
        self.unshown: list[tuple[float, str]] = []


def controls(message: FakeMessage, table_id: int) -> list[dict[str, Any]]:
    """The enabled action controls (cards, bids) this table's hand message shows."""
    prefixes = (f"bt:act:{table_id}:", f"bs:bid:{table_id}:")
    return [c for c in message.walk_components()
            if c.get("type") in (2, 3) and not c.get("disabled")
            and str(c.get("custom_id", "")).startswith(prefixes)]


class Players:
    def __init__(self, fake: FakeDiscord, remote: RemoteBot, seed: int) -> None:
        self.fake = fake
        self.remote = remote
        # The fake's driver takes a discord.Client; it treats a RemoteBot as a connected bot.
        self.as_bot = cast(discord.Client, remote)
        self.rng = random.Random(seed)
        self.clicks: list[tuple[InteractionResult, str]] = []
        self.to_table: list[float] = []  # click -> the table message changed
        self.to_table_by_people: dict[int, list[float]] = {}  # the same, by people at the table
        self.to_table_by_age: dict[bool, list[float]] = {}  # the same, by Table.old
        self.to_table_when: list[float] = []  # when each of those clicks came
        self.to_hand: list[float] = []  # click -> the next person's controls (4 people)
        # Each hand message's controls, kept until an edit replaces its components: players
        # look every 20 ms, and walking 800 messages' components that often took a third of
        # this process's CPU, which the bot's process shares on a small machine.
        self._seen: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}

    def controls(self, message: FakeMessage, table_id: int) -> list[dict[str, Any]]:
        seen = self._seen.get(message.id)
        if seen is None or seen[0] is not message.components:
            seen = self._seen[message.id] = (message.components, controls(message, table_id))
        return seen[1]

    def turn(self, table: Table) -> tuple[FakeMember, int, int] | None:
        """(member, hand message id, seq) of the player whose controls are up, if any."""
        for m in table.humans:
            mid = table.hand_message.get(m.id)
            if mid is None:
                continue
            found = self.controls(self.fake.message(mid), table.id)
            if found:
                seq = int(found[0]["custom_id"].split(":")[3])
                if seq > table.last_seq:
                    return m, mid, seq
        return None

    def forced(self, table: Table, found: tuple[FakeMember, int, int]) -> bool:
        """Whether the hand's one enabled control is a card: the rules leave it alone, and
        the bot plays it by itself (autoplay, on by default)."""
        up = self.controls(self.fake.message(found[1]), table.id)
        return len(up) == 1 and ":play." in str(up[0]["custom_id"])

    def over(self, table: Table) -> bool:
        return "win the match" in self.fake.message(table.message_id).content

    async def wait_turn(self, table: Table, until: float) -> tuple[FakeMember, int, int] | None:
        while time.perf_counter() < until:
            found = self.turn(table)
            if found is not None:
                if table.clicked_at is not None and len(table.humans) == 4:
                    self.to_hand.append(time.perf_counter() - table.clicked_at)
                table.clicked_at = None
                return found
            if self.over(table):
                return None
            await asyncio.sleep(0.02)
        return None

    async def click(self, table: Table, member: FakeMember, mid: int, seq: int) -> None:
        """A random enabled control: a card, a bid button, or a value in a bid menu."""
        table.last_seq = seq
        table.clicked_at = time.perf_counter()
        table.unshown.append((table.clicked_at, self.fake.message(table.message_id).content))
        message = self.fake.message(mid)
        choice = self.rng.choice(controls(message, table.id))
        if choice["type"] == 3:
            value = self.rng.choice(choice["options"])["value"]
            r = await self.fake.select(self.as_bot, member, message, choice["custom_id"],
                                       [value], wait=False)
            self.clicks.append((r, "bid"))
        else:
            r = await self.fake.click(self.as_bot, member, message, choice["custom_id"],
                                      wait=False)
            self.clicks.append((r, "card" if ":play." in choice["custom_id"] else "bid"))

    async def watch_tables(self, tables: list[Table], stop: asyncio.Event) -> None:
        """Every 20 ms: the clicks whose table message changed since they came."""
        while not stop.is_set():
            now = time.perf_counter()
            for t in tables:
                if not t.unshown:
                    continue
                content = self.fake.message(t.message_id).content
                waiting = [(at, before) for at, before in t.unshown if before == content]
                if len(waiting) < len(t.unshown):
                    came = [at for at, before in t.unshown if before != content]
                    shown = [now - at for at in came]
                    self.to_table.extend(shown)
                    self.to_table_when.extend(came)
                    self.to_table_by_people.setdefault(len(t.humans), []).extend(shown)
                    self.to_table_by_age.setdefault(t.old, []).extend(shown)
                    t.unshown = waiting
            await asyncio.sleep(0.02)

    async def realistic(self, table: Table, until: float, think: tuple[float, float]) -> None:
        while True:
            found = await self.wait_turn(table, until)
            if found is None:
                return
            if self.forced(table, found):
                # Their only legal card: the bot plays it for them after its beat (0.8 s,
                # FORCED_DELAY), and a person sees it go rather than clicking it 1-4 s later
                # (such a click comes after the card was played: refused as out of date).
                table.last_seq = found[2]
                continue
            await asyncio.sleep(self.rng.uniform(*think))
            if time.perf_counter() >= until:
                return
            if self.turn(table) != found:
                continue  # the hand changed while they thought (sent again, a timer): look again
            await self.click(table, *found)

    async def burst(self, tables: list[Table], rounds: int) -> None:
        for _ in range(rounds):
            deadline = time.perf_counter() + 10
            turns = await asyncio.gather(*(self.wait_turn(t, deadline) for t in tables))
            pairs = zip(tables, turns, strict=True)
            await asyncio.gather(*(self.click(t, *found) for t, found in pairs if found))
            await self.remote.settle()


async def open_tables(fake: FakeDiscord, remote: RemoteBot, guild: Any, channels: list[Any],
                      computers: int, mixed: bool = False, at_once: int = 50) -> list[Table]:
    """/belote new, sit, (computers), start: through the bot, ``at_once`` tables at a time.

    Each step waits for its own answer only (the lobby posted, the click answered), not for
    the whole bot to be idle: a bot opening many tables is never idle, and waiting for it
    after every click made the opening of 200 tables take ten minutes. Once all are started,
    the bot settles once and each person's hand is looked up."""
    # A server allows 50 open tables by default: a moderator raises it to the most it takes.
    mod = guild.add_member("bench-mod", manage_guild=True)
    await fake.slash(remote, mod, channels[0], "belote config",  # type: ignore[arg-type]
                     max_tables_server=1000, wait=False)
    await remote.settle(600)
    gate = asyncio.Semaphore(at_once)

    async def until(ready: Callable[[], Any], what: str) -> Any:
        deadline = time.perf_counter() + 600
        while not (found := ready()):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"opening the tables: {what} never happened")
            await asyncio.sleep(0.02)
        return found

    async def click(who: Any, lobby: Any, custom_id: str) -> None:
        r = await fake.click(remote, who, lobby, custom_id, wait=False)  # type: ignore
        await until(lambda: r.responded, f"an answer to {custom_id}")
        if r.callback_type not in (6, 7):
            raise RuntimeError(f"opening the tables: {custom_id} refused: {r.text}")

    def lobby_of(channel: Any) -> Any:
        return next((m for th in fake.threads(channel) for m in fake.messages(th)
                     if any(c.startswith("bt:sit:") for c in m.custom_ids)), None)

    async def one(t: int) -> tuple[int, Any, list[Any]]:
        async with gate:
            channel = channels[t]
            cpus = 3 if mixed and t % 2 else computers
            people = [guild.add_member(f"p{t}_{i}") for i in range(4 - cpus)]
            await fake.slash(remote, people[0], channel, "belote new",  # type: ignore[arg-type]
                             variant=VARIANTS[t % 3], wait=False)
            lobby = await until(lambda: lobby_of(channel), f"the lobby of table {t}")
            table_id = int(next(c for c in lobby.custom_ids
                                if c.startswith("bt:sit:")).split(":")[2])
            for seat, who in enumerate(people[1:], start=1):
                await click(who, lobby, f"bt:sit:{table_id}:{seat}")
            for seat in range(4 - cpus, 4):
                await click(people[0], lobby, f"bt:cpu:{table_id}:{seat}")
            await click(people[0], lobby, f"bt:start:{table_id}")
            return table_id, lobby, people

    opened = await asyncio.gather(*(one(t) for t in range(len(channels))))
    await remote.settle(600)  # every hand sent
    out = []
    for table_id, lobby, people in opened:
        table = Table(table_id, lobby.id, people)
        for m in people:
            dms = [d for d in fake.dm_messages(m) if any(
                c.startswith((f"bt:act:{table_id}:", f"bs:bid:{table_id}:"))
                for c in d.custom_ids) or f"table #{table_id}" in d.content]
            if dms:
                table.hand_message[m.id] = dms[-1].id
        out.append(table)
    return out


def kind_of(fake: FakeDiscord, r: Any) -> str:
    """A short name for what a request did."""
    if r.route.startswith("/interactions/"):
        body = r.json if isinstance(r.json, dict) else {}
        return f"interaction callback type {body.get('type')}"
    edited = fake.edited_message(r)
    if r.route.startswith("/webhooks/") and edited is not None:
        message = fake.message(edited)
        where = "DM hand" if fake.channel(message.channel_id).guild is None else \
            "private hand" if message.ephemeral else "table message"
        return f"edit {where} through a click's token"
    if r.route.startswith("/webhooks/"):
        return f"webhook {r.method} (ephemeral/follow-up)"
    if r.route == "/channels/{channel_id}/messages/{message_id}" and r.method == "PATCH":
        cid = int(r.path.split("/")[2])
        dm = fake.channel(cid).guild is None
        return "edit DM hand" if dm else "edit table message"
    if r.route == "/channels/{channel_id}/messages" and r.method == "POST":
        cid = int(r.path.split("/")[2])
        return "new DM message" if fake.channel(cid).guild is None else "post in thread"
    return f"{r.method} {r.route}"


async def run(args: argparse.Namespace) -> dict[str, float]:
    fake = FakeDiscord().start()
    fake.install()
    fake.keep_upload_bytes = False
    # The limits are off while the tables open: they are what is measured, the opening is
    # not, and its few hundred new DM channels (one bucket for the whole bot, 5 in 5 s in
    # the fake) would hold it to one new player a second. The bot's own budget still paces it.
    fake.rate_limits = False
    guild = fake.add_guild("Bench")
    channels = [guild.add_text_channel(f"t{t}") for t in range(args.tables)]
    db_path = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    argv = [sys.executable, __file__, "--child", str(db_path),
            "--computer-delay", str(args.computer_delay)]
    if args.profile:
        argv += ["--profile", args.profile]
    if args.slow_callbacks is not None:
        argv += ["--slow-callbacks", str(args.slow_callbacks)]
    if args.with_metrics:
        argv += ["--with-metrics"]
    remote = await RemoteBot.spawn(fake, argv)
    t0 = time.perf_counter()
    tables = await open_tables(fake, remote, guild, channels, args.computers, args.mixed)
    mix = "half of four people, half of one person and three computers" if args.mixed \
        else f"{4 - args.computers} people per table"
    print(f"{len(tables)} tables open and dealt in {time.perf_counter() - t0:.0f} s ({mix})",
          flush=True)

    if args.old_tables:
        old = set(await remote.call("forget_table_tokens", args.old_tables))
        for t in tables:
            t.old = t.id in old
        print(f"{len(old)} tables past their first 15 minutes (their Start click's token "
              "forgotten)")
    fake.rate_limits = args.rate_limits
    if args.answer_delay:
        low, high = args.answer_delay
        fake.answer_delay = functools.partial(random.Random(2).uniform, low, high)
    players = Players(fake, remote, seed=1)
    cards_before = await remote.call("cards")
    mark = fake.mark()
    if not args.fake_gc:
        # This process stands in for Discord's servers, and it keeps every request and every
        # version of every message: its full garbage collections grew to 100-250 ms pauses,
        # during which no answer of the bot's is received, and they were counted as the
        # bot's latency. What the setup made is frozen, and collection waits for the end.
        gc.collect()
        gc.freeze()
        gc.disable()
    if args.analysis:
        await remote.call("analysis_start")
    await remote.call("start")
    started = time.perf_counter()
    here = time.process_time()
    stop_watching = asyncio.Event()
    watcher = asyncio.create_task(players.watch_tables(tables, stop_watching))
    port = await remote.call("web_port") if args.with_metrics else None
    stop_scraping = asyncio.Event()
    scraper = asyncio.create_task(scrape_metrics(port, 1.0, stop_scraping)) \
        if port is not None else None
    if args.burst:
        await players.burst(tables, args.rounds)
        load = f"burst: every table clicks at once, {args.rounds} rounds"
    else:
        until = started + args.seconds
        await asyncio.gather(*(players.realistic(t, until, tuple(args.think)) for t in tables))
        load = (f"realistic: think time uniform {args.think[0]:g}-{args.think[1]:g} s, "
                f"{args.seconds:g} s")
    clicked_for = time.perf_counter() - started
    stop_scraping.set()
    scrapes = await scraper if scraper is not None else []
    await remote.settle(600)
    measured_for = time.perf_counter() - started
    stop_watching.set()
    await watcher
    probe = await remote.call("finish")
    here = time.process_time() - here
    analysed = await remote.call("analysis_finish") if args.analysis else None
    gc.enable()
    cards_after = await remote.call("cards")
    requests = fake.requests_to(since=mark)

    played = {k: cards_after.get(k, 0) - cards_before.get(k, 0) for k in cards_after}
    cards = played.get("play", 0)
    deals = played.pop("<deals>", 0)
    actions = sum(played.values())
    acked = [r.latency for r, _ in players.clicks if r.latency is not None]
    lost = len(players.clicks) - len(acked)
    # 7 answered with the new hand; 6 deferred (acknowledged in time, answer completed via
    # the token): both answered. Anything else is the bot saying no.
    refused = sum(1 for r, _ in players.clicks if r.callback_type not in (6, 7, None))
    deferred = sum(1 for r, _ in players.clicks if r.callback_type == 6)
    rest = len(requests)
    glob = sum(1 for r in requests if r.counts_against_global_limit)
    late = f"; answers {args.answer_delay[0]}-{args.answer_delay[1]} s late" \
        if args.answer_delay else ""
    print(f"load: {load}; {len(tables)} tables{late}")
    print(f"clicks: {len(players.clicks)} in {clicked_for:.1f} s "
          f"({len(players.clicks) / clicked_for:.0f}/s); actions applied: {actions} "
          f"(cards {cards}, new deals {deals}); unanswered {lost}, refused {refused}, "
          f"deferred {deferred}")
    if scrapes:
        print(f"metrics on: /metrics read {len(scrapes)} times (every second), "
              f"{scrapes[-1] / 1024:.1f} KB at the end")
    if acked:
        print(f"click-to-ack: p50 {pct(acked, .5) * 1000:.1f} ms, "
              f"p99 {pct(acked, .99) * 1000:.1f} ms, max {max(acked) * 1000:.1f} ms")
    # A bid and a card cost the same calls; dividing by cards alone would charge the bids'
    # calls to the cards, so the per-action figure is the cost of one card (or bid).
    print(f"REST calls per action (a card or a bid): {rest / max(1, actions):.2f} "
          f"({glob / max(1, actions):.2f} against the global limit); all calls over cards "
          f"played only: {rest / max(1, cards):.2f} ({glob / max(1, cards):.2f} global)")
    seconds = Counter(int(r.at) for r in requests if r.counts_against_global_limit)
    print(f"global-limited calls per second: {glob / max(1e-9, measured_for):.1f} mean over "
          f"{measured_for:.0f} s, {max(seconds.values(), default=0)} in the busiest second "
          f"(Discord's limit: 50); 429 answers: "
          f"{sum(1 for r in requests if r.status == 429)}; the bot's budget let "
          f"{probe['budget_taken']} calls through, {probe['budget_waited']} of them after "
          f"waiting their turn, {probe['budget_held']} global 429s held it")
    arrived = [r.at for r in requests if r.counts_against_global_limit]
    print(f"busiest rolling second of global-limited calls: {busiest(probe['sent'])} as the "
          f"bot's budget let them leave (its limit: {budget_limit()}), {busiest(arrived)} as "
          f"the fake Discord received them")
    if probe["inside"]:
        print(f"inside the bot, from a click's event to its answer leaving: p50 "
              f"{pct(probe['inside'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['inside'], .99) * 1000:.1f} ms; the answer's request: p50 "
              f"{pct(probe['answer'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['answer'], .99) * 1000:.1f} ms")
        print(f"  of it, the action (the table's lock, the rules, the database): p50 "
              f"{pct(probe['acting'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['acting'], .99) * 1000:.1f} ms (its write to the log, waiting for the "
              f"database included: p50 {pct(probe['logging'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['logging'], .99) * 1000:.1f} ms; of any database call, the wait for "
              f"the database's lock: p50 {pct(probe['lock_waits'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['lock_waits'], .99) * 1000:.1f} ms, {len(probe['lock_waits'])} "
              f"calls); the new hand's image: p50 "
              f"{pct(probe['hand_images'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['hand_images'], .99) * 1000:.1f} ms (of a hand job, in the hand "
              f"worker's pipe and process until its answer is read: p50 "
              f"{pct(probe['hand_worker'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['hand_worker'], .99) * 1000:.1f} ms, {len(probe['hand_worker'])} "
              "jobs)")
    if probe["trips"]:
        trips = Counter(probe["trips"])
        print(f"trips to the database's thread: {trips.total() / max(1, actions):.2f} per "
              f"action ({trips.total()} in all)")
        for key, n in trips.most_common(12):
            print(f"    {n / max(1, actions):.3f} per action  {key} ({n})")
    limited = [r for r in requests if r.status == 429]
    if limited:
        routes = Counter(
            f"{r.method} {r.route}"
            f"{' (global)' if isinstance(r.response, dict) and r.response.get('global') else ''}"
            for r in limited)
        print("429 answers by route: " + ", ".join(f"{k}: {n}" for k, n in routes.most_common()))
    if players.to_table:
        print(f"click to the table message showing it: p50 "
              f"{pct(players.to_table, .5) * 1000:.0f} ms, p99 "
              f"{pct(players.to_table, .99) * 1000:.0f} ms ({len(players.to_table)} clicks; "
              f"{sum(len(t.unshown) for t in tables)} not shown yet when the run ended)")
        if probe["table_shown"]:
            print(f"    from a change (inside the bot) to the first edit showing it: p50 "
                  f"{pct(probe['table_shown'], .5) * 1000:.0f} ms, p99 "
                  f"{pct(probe['table_shown'], .99) * 1000:.0f} ms "
                  f"({len(probe['table_shown'])} changes; {probe['never_shown']} not shown "
                  "when the run ended)")
        for people, waits in sorted(players.to_table_by_people.items(), reverse=True):
            print(f"    at tables of {people} {'person' if people == 1 else 'people'}: p50 "
                  f"{pct(waits, .5) * 1000:.0f} ms, p99 {pct(waits, .99) * 1000:.0f} ms "
                  f"({len(waits)} clicks)")
        if len(players.to_table_by_age) > 1:
            for past, waits in sorted(players.to_table_by_age.items()):
                print(f"    at tables {'past' if past else 'in'} their first 15 minutes: p50 "
                      f"{pct(waits, .5) * 1000:.0f} ms, p99 {pct(waits, .99) * 1000:.0f} ms "
                      f"({len(waits)} clicks)")
        # The run's first seconds carry every person's first turn at their table, each an
        # edit of their hand by the bot (no click token of theirs yet) at the acting player's
        # priority: a start of the whole server at once, measured apart from what follows.
        later = [w for at, w in zip(players.to_table_when, players.to_table, strict=True)
                 if at >= started + args.settle]
        if later:
            print(f"    clicks after the first {args.settle:.0f} s: p50 "
                  f"{pct(later, .5) * 1000:.0f} ms, p99 {pct(later, .99) * 1000:.0f} ms "
                  f"({len(later)} clicks)")
        # The players' figure compares the message's text: a click after which the table
        # reads the same again (a person who led, the computers' run, the person to lead
        # again) counts until the next different text. The bot's figure (by the log's
        # sequence number) has no such blind spot.
        settled = [w for at, w in zip(probe["table_changed"], probe["table_shown"], strict=True)
                   if at >= args.settle]
        if settled:
            print(f"    changes after the first {args.settle:.0f} s (inside the bot): p50 "
                  f"{pct(settled, .5) * 1000:.0f} ms, p99 {pct(settled, .99) * 1000:.0f} ms "
                  f"({len(settled)} changes)")
    if players.to_hand:
        print(f"click to the next person's hand showing their controls: p50 "
              f"{pct(players.to_hand, .5) * 1000:.0f} ms, p99 "
              f"{pct(players.to_hand, .99) * 1000:.0f} ms ({len(players.to_hand)} clicks)")
    by_kind = Counter(kind_of(fake, r) for r in requests)
    for key, n in by_kind.most_common():
        print(f"    {n / max(1, cards):.3f} per card, {n / max(1, actions):.3f} per action"
              f"  {key} ({n})")
    errors = Counter(r.error_code or r.status for r in requests if r.status >= 400)
    if errors:
        print(f"    refused by the fake: {dict(errors)}")
    per = 1000 / max(1, actions)
    print(f"CPU per action: bot process {probe['cpu'] * per:.1f} ms "
          f"({probe['cpu'] / probe['wall'] * 100:.0f}% of a core), its render workers "
          f"{probe['workers'] * per:.1f} ms ({probe['workers'] / probe['wall'] * 100:.0f}%), "
          f"fake Discord and players {here * per:.1f} ms "
          f"({here / probe['wall'] * 100:.0f}%); {os.cpu_count()} cores")
    if analysed is not None:
        print(f"analysis worker (niceness 19) beside it: {analysed['deals']} deals analysed, "
              f"{analysed['cpu']:.0f} s of CPU ({analysed['cpu'] / probe['wall'] * 100:.0f}% "
              "of a core)")
    print(f"bot process event-loop lag: "
          f"p50 {probe['lag_p50'] * 1000:.1f} ms, p99 {probe['lag_p99'] * 1000:.1f} ms, "
          f"max {probe['lag_max'] * 1000:.1f} ms; garbage collections of the young, middle "
          f"and oldest (full) generations: {'/'.join(map(str, probe['gc_by_generation']))}, "
          f"the longest pause of each "
          f"{'/'.join(f'{t * 1000:.0f}' for t in probe['gc_max_by_generation'])} ms")
    if probe["gc_longest"]:
        generation, wall, cpu, collected = probe["gc_longest"]
        print(f"  the longest collection: generation {generation}, {wall * 1000:.0f} ms "
              f"({cpu * 1000:.0f} ms of it on the processor), {collected} objects freed")
    if probe["slow_callbacks"]:
        clock = probe["slow_callbacks"]
        slow = sorted(clock["slow"].items(), key=lambda kv: -kv[1][1])
        print(f"bot event loop: {clock['count']} callbacks, {clock['busy']:.1f} s of them "
              f"({clock['busy'] / probe['wall'] * 100:.0f}% of the time); over "
              f"{clock['threshold'] * 1000:g} ms: {sum(v[0] for _, v in slow)} callbacks, "
              f"{sum(v[1] for _, v in slow):.2f} s (CPU {sum(v[2] for _, v in slow):.2f} s)")
        for key, (n, w, c, longest) in slow[:25]:
            print(f"    {int(n):5d} x, {w * 1000:7.0f} ms (CPU {c * 1000:6.0f} ms), longest "
                  f"{longest * 1000:4.0f} ms  {key}")
    memory = await remote.call("memory")
    print(f"memory per live table: {(memory['per_table'] + memory['images_per_table']) / 1024:.1f}"
          f" KB: {memory['per_table'] / 1024:.1f} KB of table state ({memory['restored']} "
          f"tables restored; {memory['open']} still open) and "
          f"{memory['images_per_table'] / 1024:.1f} KB of kept hand images (they saved "
          f"{memory['image_hits']} of {memory['image_hits'] + memory['image_misses']} hand "
          "images since the start)")
    if args.profile:
        out = io.StringIO()
        pstats.Stats(args.profile, stream=out).sort_stats("cumulative").print_stats(40)
        print(out.getvalue())
    await fake.close_bots()
    fake.close()
    return {"ack_p99": pct(acked, .99) if acked else 0.0, "cpu_per_action": probe["cpu"] * per,
            "lag_p99": probe["lag_p99"], "actions": actions}


async def metrics_ab(args: argparse.Namespace) -> None:
    """The same load with metrics off and on, alternately (a shared machine's load drifts),
    each round a fresh fake and bot; then the figures side by side."""
    results: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    for n in range(args.metrics_ab):
        for on in (False, True):
            print(f"---- round {n + 1}, metrics {'on' if on else 'off'}", flush=True)
            args.with_metrics = on
            results[on].append(await run(args))
    print("---- metrics off / on (each round's figure; median of the rounds)")
    for key, label, scale, unit in (("ack_p99", "click-to-ack p99", 1000, "ms"),
                                    ("cpu_per_action", "bot CPU per action", 1, "ms"),
                                    ("lag_p99", "event-loop lag p99", 1000, "ms")):
        row = []
        for on in (False, True):
            values = [r[key] * scale for r in results[on]]
            row.append(f"{statistics.median(values):.1f} {unit} "
                       f"({', '.join(f'{v:.1f}' for v in values)})")
        print(f"{label}: off {row[0]}; on {row[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long the realistic load runs")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 4.0),
                        metavar=("MIN", "MAX"), help="a person's think time, seconds")
    parser.add_argument("--settle", type=float, default=30.0, metavar="SECONDS",
                        help="also report the table message's figure for clicks after the "
                             "first SECONDS of the run (once everyone has had a turn)")
    parser.add_argument("--burst", action="store_true",
                        help="stress: every table's player clicks at the same instant")
    parser.add_argument("--rounds", type=int, default=30, help="rounds of the burst")
    parser.add_argument("--computers", type=int, default=0, choices=range(4),
                        help="computer seats per table")
    parser.add_argument("--mixed", action="store_true",
                        help="every other table: one person and three computers")
    parser.add_argument("--computer-delay", type=float, default=1.0)
    parser.add_argument("--rate-limits", action="store_true",
                        help="apply Discord's rate limits in the fake")
    parser.add_argument("--answer-delay", type=float, nargs=2, metavar=("MIN", "MAX"),
                        help="a slow Discord: each answer leaves a uniform random MIN to MAX "
                             "seconds after its request was done (counted when it arrived)")
    parser.add_argument("--old-tables", type=float, nargs="?", const=1.0, default=0.0,
                        metavar="SHARE",
                        help="this share of the tables (all without SHARE) is past its "
                             "first 15 minutes: no click's token edits their message (each "
                             "of its edits counts against the global limit)")
    parser.add_argument("--analysis", action="store_true",
                        help="analysis on, its worker kept busy while measuring")
    parser.add_argument("--profile", help="cProfile the bot process into this file")
    parser.add_argument("--slow-callbacks", type=float, metavar="MS",
                        help="time every callback of the bot's event loop and list those "
                             "longer than MS milliseconds")
    parser.add_argument("--fake-gc", action="store_true",
                        help="let the fake Discord's process collect garbage while measuring "
                             "(its pauses then count as the bot's latency)")
    parser.add_argument("--with-metrics", action="store_true",
                        help="the bot serves /metrics (WEB_PORT), read every second")
    parser.add_argument("--metrics-ab", type=int, nargs="?", const=1, default=0,
                        metavar="ROUNDS",
                        help="run the load with metrics off then on, ROUNDS times each "
                             "(alternately), and print both figures side by side")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the bot's process: its database
    args = parser.parse_args()
    if args.child:
        child(args)
    elif args.metrics_ab:
        asyncio.run(metrics_ab(args))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
