"""The global request budget on its own: never more than Discord's 50 calls in any second, the
acting player's calls before table messages before the rest, interaction answers never waiting,
and a global 429 holding every call. Virtual time: a sleep moves the clock at once."""

from __future__ import annotations

import asyncio
import bisect
import heapq
import itertools
import random
from collections.abc import Awaitable, Callable

import pytest
from discord.http import Route

from bot.budget import FLIGHT_CAP, LIMIT, PER, PRIORITY, SPREAD, Budget, Priority, Ticket, meter
from tests.bot.traced_http import Answer, TracedHTTP


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        start = self.now
        await asyncio.sleep(0)
        self.now = max(self.now, start + max(0.0, delay))


def budget(clock: Clock) -> Budget:
    return Budget(clock=clock, sleep=clock.sleep)


async def send_times(b: Budget, clock: Clock, calls: int) -> list[float]:
    """When each of ``calls`` table edits, all asked for at once, got its turn."""
    times: list[float] = []

    async def call() -> None:
        await b.take(Priority.TABLE)
        times.append(clock.now)

    await asyncio.gather(*(call() for _ in range(calls)))
    return times


async def test_a_burst_of_calls_stays_within_fifty_in_any_second() -> None:
    clock = Clock()
    b = budget(clock)
    times = await send_times(b, clock, 400)
    assert len(times) == 400
    times.sort()
    for i, t in enumerate(times):  # the calls in the second that starts at each call
        assert sum(1 for u in times[i:] if u < t + 1.0) <= 50
    # And it goes as fast as that allows: 400 calls in well under 10 s.
    assert times[-1] <= 400 / LIMIT
    assert b.taken == 400


async def test_the_acting_player_goes_first_then_tables_then_the_rest() -> None:
    clock = Clock()
    b = budget(clock)
    for _ in range(LIMIT):  # the budget spent
        await b.take()
    order: list[str] = []

    async def call(name: str, priority: Priority) -> None:
        await b.take(priority)
        order.append(name)

    tasks = [asyncio.create_task(call(name, p)) for name, p in (
        ("deal sheet", Priority.BACKGROUND), ("table 1", Priority.TABLE),
        ("other hand", Priority.BACKGROUND), ("table 2", Priority.TABLE),
        ("acting hand", Priority.ACTING))]
    await asyncio.gather(*tasks)
    assert order == ["acting hand", "table 1", "table 2", "deal sheet", "other hand"]


async def test_a_waiting_call_whose_ticket_is_raised_goes_before_the_tables() -> None:
    """A hand queued as "the rest" (a new deal's cards) whose player becomes the one to act
    does not stay behind every table message: its waiting call moves up at once."""
    clock = Clock()
    b = budget(clock)
    for _ in range(LIMIT):  # the budget spent
        await b.take()
    order: list[str] = []
    hand = Ticket(Priority.BACKGROUND)

    async def call(name: str, priority: Priority | Ticket) -> None:
        await b.take(priority)
        order.append(name)

    tasks = [asyncio.create_task(call(name, p)) for name, p in (
        ("deal sheet", Priority.BACKGROUND), ("hand", hand), ("table 1", Priority.TABLE),
        ("table 2", Priority.TABLE))]
    await asyncio.sleep(0)
    assert b.waiting() == 4
    hand.raise_to(Priority.ACTING)
    hand.raise_to(Priority.TABLE)  # never lowered
    assert b.waiting() == 4  # moved, not added
    await asyncio.gather(*tasks)
    assert order == ["hand", "table 1", "table 2", "deal sheet"]
    assert b.waiting() == 0 and b.taken == LIMIT + 4


async def test_a_cancelled_wait_gives_its_turn_to_the_next() -> None:
    clock = Clock()
    b = budget(clock)
    for _ in range(LIMIT):
        await b.take()
    gone = asyncio.create_task(b.take(Priority.ACTING))
    kept = asyncio.create_task(b.take(Priority.BACKGROUND))
    await asyncio.sleep(0)
    gone.cancel()
    await kept
    assert gone.cancelled() and b.waiting() == 0


async def test_interaction_answers_never_wait_on_the_budget() -> None:
    clock = Clock()
    b = budget(clock)
    http = TracedHTTP()
    meter(http, b)  # type: ignore[arg-type]
    for _ in range(LIMIT):
        await b.take()
    edit = asyncio.create_task(http.request(
        Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1,
              message_id=2)))
    await asyncio.sleep(0)
    # The budget is spent and an edit waits, yet a click's answer and a follow-up go at once:
    # Discord does not count them against the global limit.
    now = clock.now
    await http.request(Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                             interaction_id=1, interaction_token="t"))
    await http.request(Route("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1,
                             webhook_token="t"))
    assert clock.now == now
    assert http.sent == ["/interactions/{interaction_id}/{interaction_token}/callback",
                         "/webhooks/{webhook_id}/{webhook_token}"]
    await edit
    assert http.sent[-1] == "/channels/{channel_id}/messages/{message_id}"


async def test_calls_take_the_priority_of_the_job_that_makes_them() -> None:
    clock = Clock()
    b = budget(clock)
    http = TracedHTTP()
    meter(http, b)  # type: ignore[arg-type]
    for _ in range(LIMIT):
        await b.take()
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=1)

    async def job(priority: Priority) -> None:
        PRIORITY.set(priority)  # what the Outbox worker does for its message
        await http.request(route, json={"p": int(priority)})

    order: list[int] = []
    tasks = [asyncio.create_task(job(p)) for p in (Priority.BACKGROUND, Priority.ACTING)]
    def done(priority: Priority) -> Callable[[object], None]:
        return lambda _: order.append(int(priority))

    for t, p in zip(tasks, (Priority.BACKGROUND, Priority.ACTING), strict=True):
        t.add_done_callback(done(p))
    await asyncio.gather(*tasks)
    assert order == [Priority.ACTING, Priority.BACKGROUND]


def answer_429(scope: str) -> Answer:
    return Answer(429, {"Retry-After": "2.5", "X-RateLimit-Scope": scope, "Via": "1.1 google"})


async def test_a_global_429_holds_every_call_for_what_discord_asked() -> None:
    clock = Clock()
    b = budget(clock)
    http = TracedHTTP(answer_429("global"))
    meter(http, b)  # type: ignore[arg-type]
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=1)
    await http.request(route)
    assert b.held == 1
    await b.take()
    assert clock.now >= 2.5
    # A route's own 429 (not global) holds nothing: discord.py and the pacer deal with it.
    other = budget(clock)
    http2 = TracedHTTP(answer_429("user"))
    meter(http2, other)  # type: ignore[arg-type]
    await http2.request(route)
    assert other.held == 0


async def test_an_outbox_job_calls_at_the_priority_its_message_asked() -> None:
    from bot.outbox import Outbox

    clock = Clock()
    jobs = Outbox(sleep=clock.sleep, clock=clock)
    seen: list[tuple[str, Priority]] = []

    def job(name: str) -> Callable[[], Awaitable[None]]:
        async def send() -> None:
            asked = PRIORITY.get()  # the worker's ticket, at its message's priority
            seen.append((name, asked.priority if isinstance(asked, Ticket) else asked))
        return send

    jobs.request(("table", 1), job("table"), priority=Priority.TABLE)
    jobs.request(("hand", 1, 0), job("hand"), priority=Priority.ACTING)
    jobs.request(("deal", 1, 0), job("deal"))
    for _ in range(10):
        await asyncio.sleep(0)
    assert sorted(seen) == [("deal", Priority.BACKGROUND), ("hand", Priority.ACTING),
                            ("table", Priority.TABLE)]
    assert PRIORITY.get() is Priority.ACTING  # the caller's own context is left alone
    await jobs.close()


async def test_a_loop_that_woke_late_sends_a_quarter_seconds_share_at_once() -> None:
    """A busy loop that wakes late does not lose the time it slept (the short window's share
    goes at once, none of it waits), but it does not send a whole second's calls in one burst
    either: those could arrive at Discord beside the next second's."""
    clock = Clock()
    b = budget(clock)
    for _ in range(LIMIT):
        await b.take()
    clock.now += 5.0  # the event loop was busy for a while: the window is empty again
    before = clock.now
    for _ in range(LIMIT // SPREAD):
        await b.take(Priority.BACKGROUND)
    assert clock.now == before  # none of them waited
    await b.take(Priority.BACKGROUND)
    assert clock.now == before + PER / SPREAD  # one more waits for the next quarter second


async def test_calls_leave_spread_over_the_second() -> None:
    """However the calls come (all at once, after a hold), no quarter second carries more than
    a quarter of the limit, and the whole limit is still used each second."""
    clock = Clock()
    b = budget(clock)
    b.hold(0.5)  # a global 429: everything waits, then goes as the budget allows
    times = await send_times(b, clock, 3 * LIMIT)
    for t in times:
        assert sum(1 for u in times if t <= u < t + PER / SPREAD) <= LIMIT // SPREAD
    assert min(times) == 0.5
    assert max(times) < 0.5 + 3 * PER  # three seconds' worth in three seconds


async def test_a_lower_limit_set_later_spreads_its_own_share() -> None:
    """A shard lowers its budget's limit after it was made (bot.py): the short window's share
    follows it, rounded up."""
    clock = Clock()
    b = budget(clock)
    b.limit = 10  # a quarter: 3 (rounded up)
    for _ in range(3):
        await b.take()
    assert clock.now == 0.0
    await b.take()
    assert clock.now == PER / SPREAD


async def test_a_call_holds_its_place_until_a_second_after_its_answer() -> None:
    """Discord counts a call somewhere between its leaving and its answer: a slow answer keeps
    its place in the budget until a second after it came back, not after the call left."""
    clock = Clock()
    b = budget(clock)
    flights = [await b.take_off(Priority.TABLE) for _ in range(LIMIT)]
    clock.now = 0.9  # the answers came back slowly
    for flight in flights:
        b.land(flight)
    clock.now = 1.2  # a second after they left, but not after they came back
    await b.take(Priority.TABLE)
    assert clock.now == pytest.approx(0.9 + PER)


class VirtualTime:
    """A clock whose sleepers wake in the order of their deadlines, time jumping to each once
    everything else has run: many calls in the air at once, each with its own round trip."""

    def __init__(self) -> None:
        self.now = 0.0
        self._wakes: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._wakes, (self.now + max(0.0, delay), next(self._order), wake))
        await wake

    async def run(self, work: Awaitable[object]) -> None:
        task = asyncio.ensure_future(work)
        while not task.done():
            for _ in range(20):  # let everything that can run, run
                await asyncio.sleep(0)
            if not task.done():
                at, _, wake = heapq.heappop(self._wakes)
                self.now = max(self.now, at)
                wake.set_result(None)
        task.result()


async def test_discord_never_sees_more_than_the_limit_whatever_the_round_trips() -> None:
    """600 calls asked for at once, with round trips of up to half a second, each counted by
    Discord at any moment between its leaving and its answer: no second of Discord's holds
    more than LIMIT of them."""
    clock = VirtualTime()
    b = Budget(clock=clock, sleep=clock.sleep)
    rng = random.Random(7)
    arrivals: list[float] = []

    async def call() -> None:
        flight = await b.take_off(Priority.TABLE)
        left = clock.now
        await clock.sleep(rng.random() * 0.5)
        b.land(flight)
        arrivals.append(left + rng.random() * (clock.now - left))

    async def calls() -> None:
        await asyncio.gather(*(call() for _ in range(600)))

    await clock.run(calls())
    arrivals.sort()
    assert len(arrivals) == 600
    assert max(bisect.bisect_left(arrivals, t + PER) - i for i, t in enumerate(arrivals)) <= LIMIT


async def test_a_call_never_seen_to_come_back_frees_its_place_in_the_end() -> None:
    """A lost answer (a hook that never ran) must not take a place for good."""
    clock = Clock()
    b = budget(clock)
    for _ in range(LIMIT):
        await b.take_off()
    await b.take()
    assert clock.now == pytest.approx(FLIGHT_CAP)


async def test_calls_through_the_request_hooks_hold_their_places_until_answered_or_failed() -> None:
    """Through the request hooks: an answer that took 0.4 s holds its call's place until a
    second after it came, and a call whose connection failed frees its place a second after
    the failure, not after the long wait kept for calls never seen to come back."""
    clock = Clock()
    b = budget(clock)
    b.limit = 1
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1,
                  message_id=2)
    slow = TracedHTTP(clock=clock, round_trip=0.4)
    meter(slow, b)  # type: ignore[arg-type]
    await slow.request(route)
    assert clock.now == pytest.approx(0.4)
    await b.take()
    assert clock.now == pytest.approx(1.4)
    dropped = TracedHTTP(drop=ConnectionResetError(), clock=clock, round_trip=0.4)
    meter(dropped, b)  # type: ignore[arg-type]
    with pytest.raises(ConnectionResetError):
        await dropped.request(route)  # left at 2.4, failed at 2.8
    await b.take()
    assert clock.now == pytest.approx(3.8)


async def test_a_probe_is_told_the_moment_of_every_turn() -> None:
    """``on_send`` (bench_bot's probe) hears each call's turn as it is given, waits included."""
    clock = Clock()
    b = budget(clock)
    b.limit = 1
    heard: list[float] = []
    b.on_send = heard.append
    for _ in range(3):
        await b.take()
    assert heard == [0.0, 1.0, 2.0]
