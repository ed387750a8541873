"""The global request budget: every REST call the bot makes counts against Discord's global
limit (50 requests per second per bot), and waits here for its turn rather than being told 429.

A sliding window (at most ``LIMIT`` calls in any ``PER`` seconds: under Discord's 50, whatever
the phase of Discord's own window) shared by every call of the process, and within it at most a
``SPREAD``-th of them in any ``SPREAD``-th of the window: calls that leave together do not arrive
together (one needs a new connection, another waits on a busy path), so a whole second's calls
sent in one burst could reach Discord beside the next second's; spread over the second, only a
few can. A window rather than a steady rate: a busy event loop that woke late sends what the
short window still allows at once, instead of losing the time it slept (a token bucket small
enough to stay under 50 in any second would have held a loaded bot to a few calls per
wake-up). When calls
wait, the most urgent goes first: what the acting player needs (their hand, a command's own
call), then the table messages people watch, then the rest (other hands, deal sheets, posts).
The priority is the one of the Outbox job making the call (a context variable, set by the
Outbox worker), so nothing between the job and the HTTP call has to pass it along. It is a
``Ticket``: when the message a waiting call sends becomes more urgent (a hand sent as the rest
whose player is now the one to act), the call moves up in the queue at once.

A request takes its turn as it leaves (aiohttp's request hooks on discord.py's session), so
what is counted is what Discord sees: every attempt discord.py makes, its own retries after a
429 or a 5xx included, at the moment it is sent, after any wait on its route's bucket. And it
keeps its place until ``PER`` after its answer came back, not after it left: Discord counted it
at some moment between the two, which only the answer bounds. Counted from its departure alone,
calls that left a second apart could reach Discord closer together (a slow upload, a busy
connection) and make more than the limit in Discord's second; held from departure to answer
plus a second, any second of Discord's can hold only calls whose places overlap, at most
``LIMIT`` of them. The price is the round trip added to each place: with answers 0.2-0.6 s
late (bench_bot --answer-delay) the bot makes about 33 such calls a second rather than 46. A
call counted within a known time of leaving would allow more, but nothing Discord documents
bounds that time, and a 429 is what this budget is for avoiding.
Interaction callbacks and the follow-ups sent with an interaction's token are outside the
global limit on Discord: they never wait here, so a click's answer is never late for its 3
seconds; nor do the gateway and the CDN.

discord.py keeps each route's X-RateLimit-* headers to itself and paces each route on them; the
budget plans the global limit from Discord's documented figure, and a 429 that still says
"global" (X-RateLimit-Scope / X-RateLimit-Global) holds every call for its Retry-After.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import heapq
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from discord.http import HTTPClient, Route

from .pacing import window_wait

# Discord's global limit is 50 per second; 48 leaves a little room for a call discord.py
# itself sends again, and for calls that leave close together arriving closer still.
LIMIT, PER = 48, 1.0
SPREAD = 4  # at most a quarter of LIMIT in any quarter of PER
OUTSIDE = ("/interactions/", "/webhooks/")  # token routes: outside the global limit
# A call never seen to come back (a bug, a lost hook) stops holding its place after this long.
FLIGHT_CAP = 30.0


class Priority(enum.IntEnum):
    ACTING = 0  # the acting player's hand or answer, a command's own call
    TABLE = 1  # a table message people are looking at
    BACKGROUND = 2  # other hands, deal sheets, notices, match results


class Ticket:
    """A priority that may rise while its call waits. The Outbox worker of a message holds one:
    a hand that waits as "the rest" (a new deal's cards) must not stay behind every table
    message once its player is the one to act, so its waiting call moves up in place."""

    __slots__ = ("_budget", "_future", "_order", "priority")

    def __init__(self, priority: Priority) -> None:
        self.priority = priority
        self._budget: Budget | None = None
        self._future: asyncio.Future[int] | None = None  # the call waiting now, if one is
        self._order = 0

    def raise_to(self, priority: Priority) -> None:
        """From now on at least this urgent, the call waiting now included."""
        if priority >= self.priority:
            return
        self.priority = priority
        if self._budget is not None and self._future is not None and not self._future.done():
            self._budget._requeue(priority, self._order, self._future)


# The priority of the calls made here and now: set by the Outbox worker around its job (a
# Ticket, so it can rise). A call made by no job (a command's handler awaiting Discord) is
# someone waiting for it.
PRIORITY: ContextVar[Priority | Ticket] = ContextVar("belote_priority",
                                                     default=Priority.ACTING)


class Reservation:
    """A turn taken before the call is made. The Outbox takes one for a job that makes one
    global call (a table message edit) before the job reads the state it sends: a table drawn
    first and then queued behind 200 others showed a state as old as the queue; drawn once
    its turn came, it shows what changed while it waited. The first global call made under
    it (RESERVED) uses the turn; the Outbox gives it back if none was made."""

    __slots__ = ("flight",)

    def __init__(self, flight: int) -> None:
        self.flight: int | None = flight

    def use(self) -> int | None:
        flight, self.flight = self.flight, None
        return flight


RESERVED: ContextVar[Reservation | None] = ContextVar("belote_reserved", default=None)


class Budget:
    def __init__(self, limit: int = LIMIT, per: float = PER, *, spread: int = SPREAD,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.limit, self.per, self.spread = limit, per, spread  # limit: a shard may lower it
        self.clock, self.sleep = clock, sleep
        self._sent: deque[float] = deque()  # when the calls of the last ``per`` seconds went
        self._aloft: dict[int, float] = {}  # calls sent and not answered yet: when they left
        self._landed: deque[float] = deque()  # when the last ``per`` seconds' answers came
        self._flights = itertools.count()
        self._held_until = 0.0
        self._waiting: list[tuple[int, int, asyncio.Future[int]]] = []
        self._order = itertools.count()
        self._server: asyncio.Task[None] | None = None
        self._nap: asyncio.Future[None] | None = None  # the server's wait for the next turn
        self.taken = 0  # calls let through
        self.on_send: Callable[[float], object] | None = None  # told each call's turn (a probe)
        self.on_wait: Callable[[float], object] | None = None  # told each wait's length (metrics)
        self.waited = 0  # of them, calls that had to wait for their turn
        self.held = 0  # global 429s that held the budget
        # Requests Discord answered (a success, or a 4xx: not a 5xx, not a dropped
        # connection), counted by ``meter``: the Outbox tells from it whether a job that
        # succeeded reached Discord at all (one that had nothing to send did not).
        self.metered = False
        self.answered = 0

    def _wait_for(self) -> float:
        """Seconds until one more call may go (0.0: now): until Discord's hold ends, the oldest
        call leaves the whole window, the oldest of the short window's calls leaves it, and
        fewer than ``limit`` calls are in the air or answered within ``per``."""
        now = self.clock()
        if now < self._held_until:
            return self._held_until - now
        return max(window_wait(self._sent, now, self.limit, self.per, self.spread),
                   self._places_wait(now))

    def _places_wait(self, now: float) -> float:
        landed, aloft = self._landed, self._aloft
        while landed and landed[0] <= now - self.per:
            landed.popleft()
        while aloft:  # oldest first (a dict keeps the order calls left in)
            key, left = next(iter(aloft.items()))
            if left > now - FLIGHT_CAP:
                break
            del aloft[key]
        over = len(aloft) + len(landed) - self.limit + 1  # places that must free first
        if over <= 0:
            return 0.0
        if over <= len(landed):
            return landed[over - 1] + self.per - now
        # Calls still in the air: none frees before a second after it lands (or the oldest
        # is given up on); look again then.
        return min(self.per, next(iter(aloft.values())) + FLIGHT_CAP - now)

    def _take_now(self) -> int | None:
        """The call's flight (see ``land``) if it may go now, else None."""
        if self._wait_for() > 0.0:
            return None
        now = self.clock()
        self._sent.append(now)
        self.taken += 1
        if self.on_send is not None:
            self.on_send(now)
        key = next(self._flights)
        self._aloft[key] = now
        return key

    async def take(self, priority: Priority | Ticket = Priority.ACTING) -> None:
        """``take_off`` for a call counted as it leaves and answered at once."""
        self.land(await self.take_off(priority))

    async def take_off(self, priority: Priority | Ticket = Priority.ACTING) -> int:
        """Return once one more call may go now (and count it): at once while the budget lasts
        and nobody waits; otherwise after every more urgent, or as urgent and earlier, call.
        With a Ticket, the wait takes its priority, and moves up if the ticket is raised.
        Returns the call's flight: ``land`` it when its answer comes back (or it fails)."""
        if not self._waiting:
            key = self._take_now()
            if key is not None:
                return key
        ticket, level = (priority, priority.priority) if isinstance(priority, Ticket) else \
            (None, priority)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        order = next(self._order)
        heapq.heappush(self._waiting, (int(level), order, future))
        if ticket is not None:
            ticket._budget, ticket._future, ticket._order = self, future, order
        self.waited += 1
        if self._server is None or self._server.done():
            self._server = asyncio.get_running_loop().create_task(
                self._serve(), name="belote-budget")
        asked = self.clock()
        try:
            flight = await future  # cancelled with its caller: the server skips it
            if self.on_wait is not None:
                self.on_wait(self.clock() - asked)
            return flight
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.give_back(future.result())  # its turn came as it gave up: never sent
            raise
        finally:
            if ticket is not None:
                ticket._future = None

    def give_back(self, flight: int) -> None:
        """A turn taken and never used (a reserved turn whose job had nothing to send): it
        never left, so it counts for nothing, and a waiting call may have it at once."""
        left = self._aloft.pop(flight, None)
        if left is None:
            return
        # One send at that moment (any one: they are alike), unless already out of the window.
        with contextlib.suppress(ValueError):
            self._sent.remove(left)
        self.taken -= 1
        if self._nap is not None:
            self._nap.cancel()  # the server looks again now

    def land(self, flight: int) -> None:
        """The call's answer came back, or it failed: Discord counted it (if it reached
        Discord) at some moment before now, so its place is held until ``per`` after now."""
        if self._aloft.pop(flight, None) is not None:
            self._landed.append(self.clock())

    def _requeue(self, priority: Priority, order: int, future: asyncio.Future[int]) -> None:
        """A waiting call became more urgent: it is queued again at its new priority, keeping
        its place among calls as urgent (its order). The old entry stays behind and is
        skipped once the call has gone (its future is done)."""
        heapq.heappush(self._waiting, (int(priority), order, future))

    async def _serve(self) -> None:
        """Hand out the calls as the budget refills, the most urgent waiting call first."""
        while self._waiting:
            if self._waiting[0][2].done():  # its caller gave up (cancelled)
                heapq.heappop(self._waiting)
                continue
            key = self._take_now()
            if key is not None:
                heapq.heappop(self._waiting)[2].set_result(key)
                continue
            # A nap a given-back turn can cut short (its end does not raise here).
            self._nap = asyncio.ensure_future(self.sleep(self._wait_for()))
            try:
                await asyncio.wait((self._nap,))
            finally:
                self._nap.cancel()
                self._nap = None

    def hold(self, seconds: float) -> None:
        """Discord said the global limit was hit: no call goes for ``seconds``."""
        self.held += 1
        self._held_until = max(self._held_until, self.clock() + seconds)

    def waiting(self) -> int:
        return len({id(f) for _, _, f in self._waiting if not f.done()})  # a raised call: once

    async def close(self) -> None:
        server, self._server = self._server, None
        for _, _, future in self._waiting:
            future.cancel()
        self._waiting.clear()
        if server is not None:
            server.cancel()
            await asyncio.gather(server, return_exceptions=True)


def counts_globally(url: str) -> bool:
    """Whether a request to ``url`` counts against the global limit: a call to the REST API
    (``Route.BASE``, read now: a test may point it elsewhere), except the token routes."""
    base = Route.BASE
    if not url.startswith(base + "/"):
        return False  # the gateway, the CDN
    return not url[len(base):].startswith(OUTSIDE)


def global_retry_after(status: int, headers: Mapping[str, str]) -> float | None:
    """The wait a 429 asked for when it was the global limit (else None)."""
    if status != 429:
        return None
    if headers.get("X-RateLimit-Scope") != "global" and \
            headers.get("X-RateLimit-Global", "").lower() != "true":
        return None
    try:
        return max(0.0, float(headers.get("Retry-After", 1.0)))
    except (TypeError, ValueError):
        return 1.0


def budget_trace(budget: Budget, trace: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
    """aiohttp hooks that make each request leave only when the budget gives it its turn.

    At the moment of sending, not when discord.py is asked for the call: discord.py may hold a
    call on its route's bucket first (counted when asked, it would leave later than counted,
    bunched with others), and it sends a call again by itself after a 429 or a 5xx (every
    attempt counts on Discord). A global 429 holds the budget for what Discord asked: discord.py
    waits on it and sends again, and our other calls wait with it."""
    trace = trace or aiohttp.TraceConfig()

    async def on_request_start(session: aiohttp.ClientSession, context: SimpleNamespace,
                               params: aiohttp.TraceRequestStartParams) -> None:
        if counts_globally(str(params.url)):
            reservation = RESERVED.get()
            flight = reservation.use() if reservation is not None else None
            context.budget_flight = flight if flight is not None else \
                await budget.take_off(PRIORITY.get())

    def landed(context: SimpleNamespace) -> None:
        flight = getattr(context, "budget_flight", None)
        if flight is not None:
            budget.land(flight)

    async def on_request_end(session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: aiohttp.TraceRequestEndParams) -> None:
        landed(context)
        wait = global_retry_after(params.response.status, params.response.headers)
        if wait is not None:
            budget.hold(wait)

    async def on_request_exception(session: aiohttp.ClientSession, context: SimpleNamespace,
                                   params: aiohttp.TraceRequestExceptionParams) -> None:
        landed(context)  # failed on its way or before its answer: it may have been counted

    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    trace.on_request_exception.append(on_request_exception)
    return trace


def meter(http: HTTPClient, budget: Budget) -> None:
    """Make every request of ``http`` that counts against the global limit take its turn from
    ``budget`` as it leaves, at the priority of the job that makes it; and count the calls
    Discord answered. Before the client logs in: its session takes the hooks when made."""
    http.http_trace = budget_trace(budget, http.http_trace)
    request = http.request
    budget.metered = True

    async def answered(route: Route, **kwargs: Any) -> Any:
        try:
            result = await request(route, **kwargs)
        except discord.HTTPException as e:
            if 0 < e.status < 500:
                budget.answered += 1
            raise
        budget.answered += 1
        return result

    setattr(http, "request", answered)  # noqa: B010 (an instance's method, replaced)
