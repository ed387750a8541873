"""The one place that sends to Discord: every message the bot keeps up to date goes through an
Outbox, one worker per message.

A worker sends the newest state of its message (its job computes it when it runs); a request
while it runs only marks it dirty, and it runs once more. What Discord confirmed is recorded by
the job after the send succeeded, so a send that failed is simply sent again:

- a transient failure (a 5xx, a dropped connection, a timeout) is retried with exponential
  backoff and jitter, with the newest state at that time, never an older one after a newer
  (one worker per message sends one thing at a time);
- a refusal (4xx) is not retried: the job planned what follows, and it is one WARNING line;
- anything else is a bug: logged with its traceback.

When Discord fails broadly (several failures in a row and no success), the Outbox stops
hammering it: every worker waits, and one at a time tries its message as a probe, further and
further apart (up to PROBE_MAX). The first success ends the outage: every waiting worker sends
its newest state, and one INFO line says how long Discord was away and how many messages were
brought up to date. ``on_outage`` / ``on_recovery`` let the bot pause and give back turn timers.

The clock, the sleep and the random jitter are injected, so tests move through backoffs and
outages without waiting. Pacing and priorities (what the acting player needs first) belong here
too, being the one place that decides when a send goes: each message's edits at the pace of its
channel (bot/pacing.py), and every call under the global budget (bot/budget.py) at the priority
its message asks, so a recovery after an outage goes out as fast as Discord allows, and no
faster.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import discord

from .budget import PRIORITY, RESERVED, Budget, Priority, Reservation, Ticket
from .digests import canonical
from .pacing import Pacer

log = logging.getLogger(__name__)

# Failures in a row (with no success between) after which Discord counts as down.
OUTAGE_AFTER = 3
PROBE_FIRST, PROBE_MAX = 0.5, 1.0  # seconds between probes while Discord is down: one
# request a second at most, and Discord back is noticed within a second


def unseeded() -> random.Random:
    """The jitter's generator when none is given (the bot gives its own, seeded by TABLE_SEED
    when set): the system's randomness. The test suite fails a test that draws from it."""
    return random.Random()


def is_transient(exc: BaseException) -> bool:
    """A failure worth sending again: Discord's 5xx, a connection that dropped or could not
    be made, a timeout. Not a 4xx: Discord understood, and said no."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 0
    return isinstance(exc, aiohttp.ClientConnectionError | aiohttp.ClientPayloadError |
                      asyncio.TimeoutError | TimeoutError | ConnectionError)


def retry_after(exc: BaseException) -> float | None:
    """Seconds Discord asked to wait when it answered 429 (discord.py gave up retrying it),
    else None."""
    if isinstance(exc, discord.RateLimited):
        return exc.retry_after
    if not isinstance(exc, discord.HTTPException) or exc.status != 429:
        return None
    try:
        return max(0.0, float(exc.response.headers.get("Retry-After", 1.0)))
    except (AttributeError, TypeError, ValueError):
        return 1.0


def nonce(*what: Hashable) -> str:
    """The nonce of one logical message (a deal sheet, a notice, a new hand DM): the same for
    every try of it, in every process. Sent with ``enforce_nonce``, a POST tried again after
    its answer was lost gets back the message the first try made instead of a second one
    (Discord keeps nonces for a few minutes, per author). 20 hex digits: Discord takes 25."""
    return hashlib.sha256(canonical(what).encode()).hexdigest()[:20]


def describe(exc: BaseException) -> str:
    """A failure in a few words, for a log line."""
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.response.reason}" if exc.response is not None else str(exc)
    return type(exc).__name__ + (f" ({exc})" if str(exc) else "")


@dataclass
class Backoff:
    """Delays before sending again: doubling from ``first`` up to ``cap``, each between half
    and all of that (jitter, so that many messages failing together do not retry together)."""

    first: float = 0.5
    cap: float = 8.0

    def delay(self, attempt: int, rng: random.Random) -> float:
        nominal = min(self.cap, self.first * 2.0 ** max(0, attempt - 1))
        return nominal * rng.uniform(0.5, 1.0)


Job = Callable[[], Awaitable[None]]
T = TypeVar("T")


class Outbox:
    def __init__(self, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 clock: Callable[[], float] = time.monotonic,
                 rng: random.Random | None = None, backoff: Backoff | None = None,
                 pacer: Pacer | None = None, budget: Budget | None = None) -> None:
        self.sleep = sleep
        self.clock = clock
        self.rng = rng if rng is not None else unseeded()
        self.backoff = backoff or Backoff()
        self.pacer = pacer or Pacer()
        # On this Outbox's clock and sleep, looked up at each use (tests replace them).
        self.budget = budget or Budget(clock=lambda: self.clock(),
                                       sleep=lambda delay: self.sleep(delay))
        self._priority: dict[Hashable, Priority] = {}
        self._tickets: dict[Hashable, Ticket] = {}  # the priority of each send on its way
        self.limited = 0  # 429 answers absorbed (sent again once the bucket allowed)
        self._dirty: dict[Hashable, bool] = {}
        # Running workers, referenced so none is collected mid-way, and cancelled by close.
        self._tasks: set[asyncio.Task[None]] = set()
        self._parked: set[asyncio.Task[Any]] = set()  # waiting out a backoff or an outage
        self._closed = False
        # Health: failures in a row, and the outage if Discord is down.
        self.failures = 0
        self.down_since: float | None = None
        self._up = asyncio.Event()
        self._up.set()
        self._probe = asyncio.Lock()
        self._probes = 0
        # After an outage: the messages still to bring up to date, and how many were.
        self._recovering: set[Hashable] = set()
        self._recovered = 0
        self._recovery: tuple[float, float] | None = None  # (time away, when it came back)
        self.on_outage: Callable[[], None] | None = None
        self.on_recovery: Callable[[float], None] | None = None
        # Told each time a message's worker ends (``settled``).
        self._ended: list[asyncio.Future[None]] = []

    # ---- requests ---------------------------------------------------------------------
    def request(self, key: Hashable, job: Job, *, bucket: Hashable | None = None,
                priority: Priority = Priority.BACKGROUND,
                turn_first: bool | Callable[[], bool] = False) -> None:
        """Send ``key``'s newest state (``job`` sends it and records it), now or after the
        send on its way. ``bucket``: the rate limit it counts against (a channel's message
        edits): the send waits until the bucket allows it, and sends the newest state then,
        so a burst of changes becomes fewer sends. ``priority``: the turn its calls take in
        the global budget (the newest request's, as who acts changes). ``turn_first``: the
        job makes a call against the global limit (a table message edit): its turn in the
        budget is taken before the job runs, so the state it reads is the newest when the
        call can leave, not the one from before a wait in the budget's queue; a function says
        at each send whether it will (a table message edited through a click's token will
        not: Discord does not count those)."""
        if self._closed:
            return
        self._priority[key] = priority
        ticket = self._tickets.get(key)
        if ticket is not None:  # the send on its way waits no longer than the new one would
            ticket.raise_to(priority)
        if key in self._dirty:
            self._dirty[key] = True
            return
        self._dirty[key] = False
        task = asyncio.get_running_loop().create_task(self._run(key, job, bucket, turn_first),
                                                      name=f"belote-send-{key}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def call(self, what: Hashable, send: Callable[[], Awaitable[T]], *,
                   attempts: int = 4) -> T:
        """A send whose answer is needed at once (a new table message: its id), tried again
        after a transient failure, a few times with backoff; then the failure is raised."""
        for attempt in range(1, attempts + 1):
            try:
                result = await send()
            except Exception as e:
                if not is_transient(e) or attempt == attempts:
                    raise
                if not self.failed(what, e):
                    log.warning("%s: Discord failed (%s); trying again shortly", what,
                                describe(e))
                async with self._parking():
                    await self.sleep(self.backoff.delay(attempt, self.rng))
                continue
            self.succeeded()
            return result
        raise AssertionError("unreachable")

    async def settled(self, which: Callable[[Hashable], bool]) -> None:
        """Wait until no message ``which`` picks has a send on its way or waiting (a thread
        is archived once its table's last posts and edits went)."""
        while any(which(key) for key in self._dirty):
            ended = asyncio.get_running_loop().create_future()
            self._ended.append(ended)
            async with self._parking():  # waiting on other messages, as in a backoff
                await ended

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def pending(self) -> int:
        """Messages with a send on its way or waiting."""
        return len(self._dirty)

    def dirty(self) -> list[Hashable]:
        """The keys of the messages with a send on its way or waiting."""
        return list(self._dirty)

    def parked(self, task: asyncio.Task[Any]) -> bool:
        """Whether ``task`` is a worker waiting out a backoff or an outage (tests wait for
        everything else)."""
        return task in self._parked

    def working(self) -> list[asyncio.Task[None]]:
        """Workers sending now (not parked)."""
        return [t for t in self._tasks if t not in self._parked and not t.done()]

    async def close(self) -> None:
        """Stop every send on its way (the bot is closing) and wait until they stopped."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.budget.close()

    # ---- health -----------------------------------------------------------------------
    def succeeded(self) -> None:
        """Discord answered (any request): an outage, if any, is over."""
        self.failures = 0
        if self.down_since is None:
            return
        away = self.clock() - self.down_since
        self.down_since = None
        self._probes = 0
        self._recovering = set(self._dirty)
        self._recovered = 0
        self._recovery = (away, self.clock())
        self._up.set()
        if self.on_recovery is not None:
            self.on_recovery(away)
        self._check_recovered()

    def failed(self, what: Hashable, exc: BaseException) -> bool:
        """A transient failure; True if Discord now counts as down (said once, here)."""
        self.failures += 1
        if self.down_since is None and self.failures >= OUTAGE_AFTER:
            self.down_since = self.clock()
            self._up.clear()
            log.warning("Discord is failing (%s on %s, %d failures in a row): holding %d "
                        "message(s) and trying one at a time until it answers again",
                        describe(exc), what, self.failures, len(self._dirty))
            if self.on_outage is not None:
                self.on_outage()
            return True
        return self.down_since is not None

    def _check_recovered(self) -> None:
        if self._recovery is not None and not self._recovering:
            away, back = self._recovery
            self._recovery = None
            log.info("Discord answered again after %.1f s away: %d message(s) brought up to "
                     "date in %.1f s", away, self._recovered, self.clock() - back)

    def _done(self, key: Hashable, sent: bool) -> None:
        if key in self._recovering:
            self._recovering.discard(key)
            self._recovered += sent
            self._check_recovered()

    # ---- workers ------------------------------------------------------------------------
    @asynccontextmanager
    async def _parking(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        assert task is not None
        self._parked.add(task)
        try:
            yield
        finally:
            self._parked.discard(task)

    async def _turn(self) -> bool:
        """Wait until this worker may send: at once when Discord is up; while it is down, as
        the next probe, after the probe delay (then True: the caller holds the probe lock and
        releases it after its send)."""
        if not self.down:
            return False
        async with self._parking():
            await self._probe.acquire()
        if not self.down:
            self._probe.release()
            return False
        self._probes += 1
        delay = min(PROBE_MAX, PROBE_FIRST * 2.0 ** (self._probes - 1)) * \
            self.rng.uniform(0.75, 1.0)
        try:
            async with self._parking():
                await self.sleep(delay)
        except BaseException:
            self._probe.release()
            raise
        return True

    async def _pace(self, bucket: Hashable | None) -> None:
        """Wait until ``bucket`` allows one more send (and count it)."""
        if bucket is None:
            return
        while (delay := self.pacer.take(bucket, self.clock())) > 0:
            async with self._parking():
                await self.sleep(delay)

    async def _attempt(self, key: Hashable, job: Job, probing: bool,
                       bucket: Hashable | None) -> bool | float | None:
        """Send once: True sent, False refused or broken (not retried), None transient, a
        float: Discord answered 429 and asked to wait that long (then the newest state goes)."""
        answered = self.budget.answered
        try:
            await job()
        except Exception as e:
            wait = retry_after(e)
            if wait is not None:
                self.limited += 1
                log.info("delivery %s: rate limited by Discord; sending it in %.2f s", key, wait)
                if bucket is not None:
                    self.pacer.hold(bucket, self.clock() + wait)
                self.succeeded()  # Discord answered: it is up
                return wait
            if not is_transient(e):
                if isinstance(e, discord.HTTPException):
                    log.warning("delivery %s: Discord refused (%s); not sent", key, describe(e))
                else:
                    log.exception("delivery %s failed", key)
                self._reached(answered)  # Discord answered, even if no
                return False
            was_down = self.down
            if not self.failed(key, e) and not was_down:
                log.warning("delivery %s: Discord failed (%s); sending it again shortly",
                            key, describe(e))
            return None
        finally:
            if probing:
                self._probe.release()
        self._reached(answered)
        return True

    def _reached(self, answered: int) -> None:
        """A job ended without a transient failure: Discord is up if it answered a request
        since ``answered`` (the budget counts them). A job that had nothing to send proves
        nothing: taken as an answer, it would end an outage on no evidence, and every held
        message would be sent into it. (Without a metered HTTP client, as in tests of the
        Outbox alone, every job is taken as having reached Discord.)"""
        if not self.budget.metered or self.budget.answered != answered:
            self.succeeded()

    async def _run(self, key: Hashable, job: Job, bucket: Hashable | None,
                   turn_first: bool | Callable[[], bool] = False) -> None:
        attempt = 0
        sent = False
        try:
            while True:
                await self._pace(bucket)
                reserve = turn_first() if callable(turn_first) else turn_first
                if not reserve:
                    self._dirty[key] = False  # what changes from now on is sent after this
                probing = await self._turn()
                ticket = self._tickets[key] = Ticket(
                    self._priority.get(key, Priority.BACKGROUND))
                PRIORITY.set(ticket)
                # A probe (Discord down) goes when the outage allows, not on a reserved turn.
                reservation = Reservation(await self.budget.take_off(ticket)) \
                    if reserve and not probing else None
                if reserve:
                    self._dirty[key] = False  # the job reads the state now: the newest
                RESERVED.set(reservation)
                try:
                    outcome = await self._attempt(key, job, probing, bucket)
                finally:
                    unused = reservation.use() if reservation is not None else None
                    if unused is not None:
                        self.budget.give_back(unused)
                if isinstance(outcome, float):
                    self._dirty[key] = True  # not shown: the newest state goes, paced
                    if bucket is None:
                        async with self._parking():
                            await self.sleep(outcome)
                    continue
                if outcome is None:  # transient: the newest state goes again
                    self._dirty[key] = True
                    attempt += 1
                    if not self.down:
                        async with self._parking():
                            await self.sleep(self.backoff.delay(attempt, self.rng))
                    continue
                attempt = 0
                sent = sent or outcome
                if not self._dirty[key]:
                    return
        finally:
            del self._dirty[key]
            self._priority.pop(key, None)
            self._tickets.pop(key, None)
            self._done(key, sent)
            ended, self._ended = self._ended, []
            for waiter in ended:
                if not waiter.done():
                    waiter.set_result(None)
            if bucket is not None:
                self.pacer.forget(bucket, self.clock())
