"""The Outbox on its own: sends again after transient failures with a growing, jittered
backoff, always the newest state, never an older one after a newer; a refusal is not sent
again; during an outage one probe at a time; one WARNING when Discord goes down and one INFO
when it is back. Time is a hand-moved clock: nothing here waits."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

import aiohttp
import discord
import pytest

from bot.outbox import OUTAGE_AFTER, Backoff, Outbox, is_transient
from tests.bot.traced_http import TracedHTTP


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []

    async def sleep(self, delay: float) -> None:
        self.slept.append(delay)
        future = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.now + delay, future))
        await future

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        for when, future in list(self.sleepers):
            if when <= self.now and not future.done():
                future.set_result(None)
        self.sleepers = [(w, f) for w, f in self.sleepers if not f.done()]
        for _ in range(20):
            await asyncio.sleep(0)


class FakeResponse:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "Service Unavailable" if status >= 500 else "No"


def server_error() -> Exception:
    return discord.DiscordServerError(FakeResponse(503), "503: down")


def refused() -> Exception:
    return discord.Forbidden(FakeResponse(403),
                             {"code": 50013, "message": "Missing Permissions"})


def outbox(clock: Clock) -> Outbox:
    return Outbox(sleep=clock.sleep, clock=lambda: clock.now, rng=random.Random(1))


async def spend_this_second(box: Outbox, clock: Clock) -> None:
    """The budget's calls for this second taken, a quarter at a time (its spread)."""
    from bot.budget import LIMIT, PER, SPREAD

    for quarter in range(SPREAD):
        if quarter:
            await clock.advance(PER / SPREAD)
        for _ in range(LIMIT // SPREAD):
            await box.budget.take()


async def turn() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_what_counts_as_transient() -> None:
    assert is_transient(server_error())
    assert is_transient(aiohttp.ServerDisconnectedError())
    assert is_transient(TimeoutError())
    assert not is_transient(refused())
    assert not is_transient(ValueError("a bug"))


def test_backoff_grows_with_jitter_and_a_cap() -> None:
    rng = random.Random(3)
    backoff = Backoff(first=0.5, cap=8.0)
    delays = [backoff.delay(n, rng) for n in range(1, 9)]
    for n, d in enumerate(delays, start=1):
        nominal = min(8.0, 0.5 * 2 ** (n - 1))
        assert nominal / 2 <= d <= nominal
    assert len(set(delays)) == len(delays)  # jittered


async def test_a_failed_send_goes_again_with_the_newest_state_never_an_older() -> None:
    clock = Clock()
    box = outbox(clock)
    state = {"v": 1}
    shown: list[int] = []
    failures = [server_error()]

    async def job() -> None:
        v = state["v"]
        if failures:
            raise failures.pop()
        shown.append(v)

    box.request("m", job)
    await turn()
    assert shown == [] and clock.slept  # failed; waiting out a backoff
    state["v"] = 2
    box.request("m", job)  # a newer state while it waits: no second worker
    await clock.advance(10)
    assert shown == [2] and box.pending() == 0


async def test_a_refusal_is_not_sent_again(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    box = outbox(clock)
    calls = 0

    async def job() -> None:
        nonlocal calls
        calls += 1
        raise refused()

    caplog.set_level(logging.INFO)
    box.request("m", job)
    await turn()
    assert calls == 1 and box.pending() == 0 and not clock.slept
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert not any(r.exc_info for r in caplog.records)


async def test_an_outage_is_one_probe_at_a_time_then_everything_goes(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    box = outbox(clock)
    down = {"v": True}
    tries: list[str] = []
    sent: list[str] = []
    held: list[bool] = []
    released: list[float] = []
    box.on_outage = lambda: held.append(True)
    box.on_recovery = released.append

    def job(name: str) -> Callable[[], Awaitable[None]]:
        async def send() -> None:
            tries.append(name)
            if down["v"]:
                raise aiohttp.ServerDisconnectedError()
            sent.append(name)
        return send

    caplog.set_level(logging.INFO)
    for n in range(10):
        box.request(n, job(str(n)))
    await turn()
    assert box.down and held == [True]
    assert len(tries) >= OUTAGE_AFTER
    before = len(tries)
    for _ in range(30):  # a minute: probes only, one at a time, a few seconds apart
        await clock.advance(2)
    probes = len(tries) - before
    assert 10 <= probes <= 31, probes
    down["v"] = False
    for _ in range(5):
        await clock.advance(2)
    assert sorted(sent, key=int) == [str(n) for n in range(10)]
    assert box.pending() == 0 and not box.down and len(released) == 1
    assert released[0] > 55
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert sum("Discord is failing" in w for w in warnings) == 1
    assert len(warnings) <= OUTAGE_AFTER  # the failures before the outage was seen, and it
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert len(infos) == 1 and "10 message(s) brought up to date" in infos[0], infos
    assert not any(r.exc_info for r in caplog.records)


async def test_close_cancels_parked_sends() -> None:
    clock = Clock()
    box = outbox(clock)

    async def job() -> None:
        raise server_error()

    box.request("m", job)
    await turn()
    assert box.pending() == 1
    await box.close()
    assert box.pending() == 0 and not box.working()
    box.request("m", job)  # nothing starts after close
    assert box.pending() == 0


async def test_a_probe_that_sent_nothing_does_not_end_an_outage(
        caplog: pytest.LogCaptureFixture) -> None:
    """During an outage, a message whose job finds it already shows its state (it sends
    nothing) is no sign that Discord answered: the outage goes on, probes stay one at a time,
    and it ends only when a request really got an answer."""
    from discord.http import Route

    from bot.budget import meter

    clock = Clock()
    box = outbox(clock)
    down = {"v": True}
    http_calls: list[str] = []

    class HTTP:
        http_trace = None  # the budget's hooks go here; this stand-in never sends

        async def request(self, route: Route, **kwargs: object) -> object:
            http_calls.append(route.path)
            if down["v"]:
                raise aiohttp.ServerDisconnectedError()
            return {}

    http = HTTP()
    meter(http, box.budget)  # type: ignore[arg-type]
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1,
                  message_id=2)

    async def edit() -> None:
        await http.request(route)

    async def nothing_to_send() -> None:
        return None

    caplog.set_level(logging.INFO)
    for n in range(5):
        box.request(("edit", n), edit)
    await turn()
    assert box.down
    box.request("shown already", nothing_to_send)
    for _ in range(10):
        await clock.advance(2)
    assert box.down  # still down: nothing answered
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert sum("Discord is failing" in w for w in warnings) == 1
    down["v"] = False
    for _ in range(5):
        await clock.advance(2)
    assert not box.down and box.pending() == 0
    await box.close()


async def test_a_send_waiting_in_the_budget_moves_up_when_its_message_becomes_urgent() -> None:
    """A hand sent as "the rest" waits behind the table messages while the budget is spent;
    once its player is the one to act (the same message asked again, as acting), the call
    already waiting goes first, and then the newest state, also first."""
    from discord.http import Route

    from bot.budget import Priority, meter

    clock = Clock()
    box = outbox(clock)
    http = TracedHTTP()
    sent = http.bodies
    meter(http, box.budget)  # type: ignore[arg-type]
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1,
                  message_id=2)
    await spend_this_second(box, clock)
    hand = {"state": "new cards"}

    def job(name: str | None = None) -> Callable[[], Awaitable[None]]:
        async def send() -> None:
            await http.request(route, json=name or hand["state"])
        return send

    box.request("hand", job(), priority=Priority.BACKGROUND)
    for n in range(3):
        box.request(("table", n), job(f"table {n}"), priority=Priority.TABLE)
    await turn()
    assert sent == []  # all waiting for the budget
    hand["state"] = "your turn"
    box.request("hand", job(), priority=Priority.ACTING)
    for _ in range(3):
        await clock.advance(1)
    assert sent[:2] == ["new cards", "your turn"]
    assert sorted(sent[2:]) == ["table 0", "table 1", "table 2"]
    assert box.pending() == 0
    await box.close()


async def test_a_table_message_waiting_for_its_turn_sends_what_changed_meanwhile() -> None:
    """A table message edit takes its turn in the budget before it reads the table: the moves
    made while it waited go in that edit, not in another one a whole queue later."""
    from discord.http import Route

    from bot.budget import Priority, meter

    clock = Clock()
    box = outbox(clock)
    http = TracedHTTP()
    meter(http, box.budget)  # type: ignore[arg-type]
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1,
                  message_id=2)
    await spend_this_second(box, clock)
    table = {"state": "ana plays"}

    async def edit_table() -> None:
        await http.request(route, json=table["state"])

    box.request("table", edit_table, priority=Priority.TABLE, turn_first=True)
    await turn()
    assert http.bodies == []  # waiting for its turn
    table["state"] = "ana, bo and cy played"  # two more moves while it waits
    box.request("table", edit_table, priority=Priority.TABLE, turn_first=True)
    for _ in range(3):
        await clock.advance(1)
    assert http.bodies == ["ana, bo and cy played"]  # one edit, the newest state
    assert box.pending() == 0
    await box.close()


async def test_a_turn_taken_for_a_job_with_nothing_to_send_goes_to_the_next_call() -> None:
    """A table message already showing its state sends nothing: the turn it took is given
    back, and a call waiting behind it goes at once rather than a turn later."""
    from bot.budget import Priority

    clock = Clock()
    box = outbox(clock)
    box.budget.limit = 1  # one call a second: each turn is seen
    await box.budget.take()
    ran: list[float] = []

    async def nothing_to_send() -> None:
        ran.append(clock.now)

    box.request("table", nothing_to_send, priority=Priority.TABLE, turn_first=True)
    await turn()
    waiting = asyncio.create_task(box.budget.take(Priority.BACKGROUND))
    await turn()
    taken = box.budget.taken
    await clock.advance(1.0)  # the next turn: the table's
    assert ran == [1.0]
    assert waiting.done()  # given back, it went to the call behind it at once
    assert box.budget.taken == taken + 1  # the table's turn counts for nothing
    await box.close()


async def test_a_table_edited_through_a_token_waits_for_no_turn_in_the_budget() -> None:
    """``turn_first`` asked at each send: a table message edited through a click's token
    (Discord does not count it) goes at once while the budget is spent, and one edited as a
    message waits for its turn."""
    from bot.budget import Priority

    clock = Clock()
    box = outbox(clock)
    box.budget.limit = 1
    await box.budget.take()  # this second's one call is spent
    token = {"live": True}
    ran: list[float] = []

    async def edit_table() -> None:
        ran.append(clock.now)

    box.request("table", edit_table, priority=Priority.TABLE,
                turn_first=lambda: not token["live"])
    await turn()
    assert ran == [0.0]  # through the token: at once
    token["live"] = False  # the token ran out
    box.request("table", edit_table, priority=Priority.TABLE,
                turn_first=lambda: not token["live"])
    await turn()
    assert ran == [0.0]  # as a message: waiting for the budget's next turn
    await clock.advance(1.0)
    assert ran == [0.0, 1.0]
    await box.close()
