"""The bot's metrics in Prometheus's format (the official prometheus-client), served on
``/metrics`` by the web app (web/ops.py) when ``WEB_PORT`` is set.

Instrumented at the few places everything passes, at the cost of a counter's increment:
every request to Discord (the aiohttp hooks on discord.py's session the budget uses too), every
interaction as it arrives (discord.py's parser of INTERACTION_CREATE) and its answer, the global
budget's waits, the render and compute pools, the database's statements, and a timer on the
event loop. What is a level rather than a count (open tables, the Outbox's backlog, the queues)
is read when Prometheus scrapes, so it costs nothing in between.

Each bot has its own registry (several bots in one test process never mix their counts). Every
metric carries ``shard``: the table's or the interaction's shard where it belongs to one, else
the shards this process runs (``0``, ``0-1``). No label ever holds a user, a token, a card or a
message: only kinds, statuses, states, variants and pool names, a bounded set.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import aiohttp
from discord.http import Route
from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from service import compute

from . import render_pool
from .logjson import on_interaction_create
from .settings import shard_ranges

if TYPE_CHECKING:
    from db import Database

    from .host import Host

# The event-loop timer: it sleeps this long and measures how late it wakes up.
LAG_TICK = 0.5
LAG_TASK = "belote-loop-lag"
# Interactions seen arriving and not answered yet are forgotten past this many (an interaction
# nobody answers, a bug, must not grow the map for ever).
ARRIVALS_KEPT = 4096

# Seconds: the answer to a click must reach Discord within 3 s; the rest are short waits.
ANSWER_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
SHORT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback")
_CHANNEL = re.compile(r"/channels/(\d+)/messages(/\d+)?$")


def request_kind(method: str, path: str, dm: Callable[[int], bool]) -> str:
    """What a request to Discord is, from its method and path (after the API's base): the
    answer to an interaction, an edit through an interaction's token, a message edited or
    posted, a DM (posted to or edited in a DM channel, or one opened), else ``other``."""
    if path.startswith("/interactions/"):
        return "interaction_answer"
    if path.startswith("/webhooks/"):
        return "token_edit" if method == "PATCH" else "followup"
    if path == "/users/@me/channels":
        return "dm"
    found = _CHANNEL.match(path)
    if found is not None and method in ("POST", "PATCH"):
        if dm(int(found.group(1))):
            return "dm"
        return "message_edit" if method == "PATCH" else "post"
    return "other"


def status_class(status: int) -> str:
    if status == 429:
        return "429"
    if status >= 500:
        return "5xx"
    if status >= 400:
        return "4xx"
    return "2xx"


class BotMetrics:
    """The metrics of one bot: ``instrument`` hooks them in, ``close`` takes them out."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.shard = shard_ranges(bot.sharding.ids)  # the process's shards, as SHARDS says
        # No ``*_created`` series beside each counter and histogram: a third of the exposition
        # for a start time nobody graphs (prometheus-client's switch is process-wide).
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter(
            "belote_discord_requests", "Requests sent to Discord (each attempt), by kind and "
            "by the answer's status class (error: no answer)",
            ["shard", "kind", "status"], registry=r)
        self.answers = Histogram(
            "belote_answer_seconds", "From an interaction's arrival to Discord's acknowledgement "
            "of its answer (a click's, a command's), seconds", ["shard", "kind"],
            buckets=ANSWER_BUCKETS, registry=r)
        self.actions = Counter(
            "belote_actions", "Game actions applied and logged (people's and computers')",
            ["shard", "variant"], registry=r)
        self.budget_wait = Histogram(
            "belote_budget_wait_seconds", "Time a request waited for its turn in the global "
            "budget (only those that waited)", ["shard"], buckets=SHORT_BUCKETS, registry=r)
        self.pool_seconds = Histogram(
            "belote_pool_job_seconds", "Time of a render or compute job, from asked to done",
            ["shard", "pool"], buckets=SHORT_BUCKETS, registry=r)
        self.db_seconds = Histogram(
            "belote_db_statement_seconds", "Time of a database statement (read, write) or a "
            "whole transaction", ["shard", "kind"], buckets=SHORT_BUCKETS, registry=r)
        self.loop_lag = Histogram(
            "belote_event_loop_lag_seconds", "How late the event loop ran a timer (measured "
            f"every {LAG_TICK} s)", ["shard"], buckets=SHORT_BUCKETS, registry=r)
        self.outages = Counter(
            "belote_discord_outages", "Times Discord was taken as down (3 failures in a row)",
            ["shard"], registry=r)
        r.register(Levels(self))
        self._by_answer: dict[tuple[str, str], Any] = {}
        self._arrived: dict[int, tuple[float, str, str]] = {}
        self._lag: asyncio.Task[None] | None = None
        self._undo: list[Callable[[], None]] = []
        self.outages.labels(self.shard)  # shown at 0 before the first one
        self.budget_wait.labels(self.shard)
        self.loop_lag.labels(self.shard)

    # ---- hooks -------------------------------------------------------------------------
    def instrument(self) -> None:
        """Before login (the HTTP session takes the hooks when it is made)."""
        bot = self.bot
        trace = bot.http.http_trace  # the budget's TraceConfig (bot/budget.py: meter)
        assert trace is not None
        http_trace(trace, self)
        def arrived(data: Any) -> None:
            kind = {2: "command", 3: "click", 5: "click"}.get(data.get("type"))
            if kind is not None:
                guild = data.get("guild_id")
                shard = str(bot.sharding.shard_of(int(guild) if guild else None))
                if len(self._arrived) >= ARRIVALS_KEPT:
                    self._arrived.pop(next(iter(self._arrived)))
                self._arrived[int(data["id"])] = (time.perf_counter(), shard, kind)
            parse(data)

        parse = on_interaction_create(bot, arrived)
        outbox = bot.delivery.jobs
        budget = outbox.budget
        wait = self.budget_wait.labels(self.shard)
        budget.on_wait = wait.observe
        self._undo.append(lambda: setattr(budget, "on_wait", None))
        told = outbox.on_outage
        outages = self.outages.labels(self.shard)

        def outage() -> None:
            outages.inc()
            if told is not None:
                told()

        outbox.on_outage = outage
        for hooks, pool in ((render_pool.TIMED, None), (compute.TIMED, "compute")):
            timed = self._pool_timer(pool)
            hooks.append(timed)
            self._undo.append(functools.partial(hooks.remove, timed))

    def _pool_timer(self, pool: str | None) -> Callable[[str, float], None]:
        children: dict[str, Any] = {}

        def timed(name: str, seconds: float) -> None:
            child = children.get(name)
            if child is None:
                child = children[name] = self.pool_seconds.labels(self.shard, pool or name)
            child.observe(seconds)
        return timed

    def database(self, db: Database) -> None:
        """Time every statement of ``db`` and count the actions its log receives."""
        time_database(db, lambda kind: self.db_seconds.labels(self.shard, kind))
        bot = self.bot
        counted: dict[tuple[int, str], Any] = {}

        def applied(table_id: int, entries: Iterable[Any]) -> None:
            n = sum(1 for e in entries if getattr(e, "kind", None) == "action")
            live = bot.service.live.get(table_id) if hasattr(bot, "service") else None
            if n and live is not None:
                key = (bot.sharding.shard_of(live.row.guild_id), live.row.variant)
                child = counted.get(key)
                if child is None:
                    child = counted[key] = self.actions.labels(str(key[0]), key[1])
                child.inc(n)

        append = db.log.append

        async def logged(table_id: int, entries: list[Any]) -> None:
            await append(table_id, entries)
            applied(table_id, entries)

        record = db.results.record_match

        async def recorded(**kwargs: Any) -> Any:
            result = await record(**kwargs)
            applied(kwargs["table_id"], kwargs.get("entries") or ())
            return result

        setattr(db.log, "append", logged)  # noqa: B010 (an instance's method, wrapped)
        setattr(db.results, "record_match", recorded)  # noqa: B010

    def answered(self, interaction_id: int) -> None:
        """An interaction's answer reached Discord (its callback came back)."""
        seen = self._arrived.pop(interaction_id, None)
        if seen is None:
            return
        at, shard, kind = seen
        child = self._by_answer.get((shard, kind))
        if child is None:
            child = self._by_answer[(shard, kind)] = self.answers.labels(shard, kind)
        child.observe(time.perf_counter() - at)

    def start(self) -> None:
        """The event loop's timer (once the loop runs)."""
        if self._lag is None:
            self._lag = asyncio.get_running_loop().create_task(self._watch_loop(),
                                                               name=LAG_TASK)

    async def _watch_loop(self) -> None:
        lag = self.loop_lag.labels(self.shard)
        while True:
            before = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            lag.observe(max(0.0, time.perf_counter() - before - LAG_TICK))

    async def close(self) -> None:
        for undo in self._undo:
            with contextlib.suppress(ValueError):
                undo()
        self._undo.clear()
        task, self._lag = self._lag, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


class Levels(Collector):
    """What is read at scrape time: open tables, queues, backlogs, Discord's state, shards."""

    def __init__(self, metrics: BotMetrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        bot, shard = self.metrics.bot, self.metrics.shard
        tables = GaugeMetricFamily("belote_open_tables", "Open tables, by state and variant",
                                   labels=["shard", "state", "variant"])
        counts: dict[tuple[str, str, str], int] = {}
        service = getattr(bot, "service", None)
        for live in list(service.live.values()) if service is not None else ():
            key = (str(bot.sharding.shard_of(live.row.guild_id)), str(live.row.status),
                   live.row.variant)
            counts[key] = counts.get(key, 0) + 1
        for key, n in sorted(counts.items()):
            tables.add_metric(key, n)
        yield tables
        outbox = bot.delivery.jobs
        yield gauge("belote_outbox_backlog", "Messages with a send on its way or waiting",
                    shard, outbox.pending())
        yield gauge("belote_budget_queue", "Requests waiting for their turn in the global "
                    "budget", shard, outbox.budget.waiting())
        yield gauge("belote_discord_down", "1 while Discord is taken as down (an outage)",
                    shard, int(outbox.down))
        queues = GaugeMetricFamily("belote_pool_queue", "Jobs asked of a pool and not done "
                                   "(queued or on their way)", labels=["shard", "pool"])
        for pool in sorted(render_pool.POOLS, key=lambda p: p.name):
            queues.add_metric([shard, pool.name], pool.queued())
        queues.add_metric([shard, "compute"], compute.in_flight())
        yield queues
        health = getattr(bot, "health", None)
        shards = GaugeMetricFamily("belote_shard_connected", "1 while the shard's gateway "
                                   "connection is up", labels=["shard"])
        for sid in bot.sharding.ids:
            shards.add_metric([str(sid)], int(health is not None and health.connected(sid)))
        yield shards


def gauge(name: str, text: str, shard: str, value: float) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, text, labels=["shard"])
    family.add_metric([shard], value)
    return family


def http_trace(trace: aiohttp.TraceConfig, metrics: BotMetrics) -> None:
    """Count each request to Discord as its answer comes (or it fails), by kind and status;
    an interaction's callback also ends its answer's time."""
    bot = metrics.bot
    children: dict[tuple[str, str], Any] = {}

    def dm(channel_id: int) -> bool:
        return bot._connection._get_private_channel(channel_id) is not None

    def count(params: Any, status: str) -> str | None:
        url = str(params.url)
        base = Route.BASE
        if not url.startswith(base + "/"):
            return None  # the gateway, the CDN
        path = url[len(base):].split("?", 1)[0]
        key = (request_kind(params.method, path, dm), status)
        child = children.get(key)
        if child is None:
            child = children[key] = metrics.requests.labels(metrics.shard, *key)
        child.inc()
        return path

    async def on_request_end(session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        path = count(params, status_class(status))
        if path is not None and status < 300 and path.startswith("/interactions/"):
            found = _CALLBACK.match(path)
            if found is not None:
                metrics.answered(int(found.group(1)))

    async def on_request_exception(session: aiohttp.ClientSession, context: SimpleNamespace,
                                   params: aiohttp.TraceRequestExceptionParams) -> None:
        count(params, "error")

    trace.on_request_end.append(on_request_end)
    trace.on_request_exception.append(on_request_exception)


def time_database(db: Database, child: Callable[[str], Any]) -> None:
    """Wrap ``db``'s statements (reads, writes) and transactions in a timer."""
    for name, kind in (("fetchone", "read"), ("fetchall", "read"), ("write", "write")):
        method, timer = getattr(db, name), child(kind)

        async def timed(sql: str, params: Iterable[Any] = (), *, _method: Any = method,
                        _timer: Any = timer) -> Any:
            start = time.perf_counter()
            try:
                return await _method(sql, params)
            finally:
                _timer.observe(time.perf_counter() - start)
        setattr(db, name, timed)
    transaction, whole = db.transaction, child("transaction")

    @asynccontextmanager
    async def timed_transaction() -> AsyncIterator[Any]:
        start = time.perf_counter()
        try:
            async with transaction() as tx:
                yield tx
        finally:
            whole.observe(time.perf_counter() - start)

    setattr(db, "transaction", timed_transaction)  # noqa: B010
