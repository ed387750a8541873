"""Helpers for tests where Discord fails: a clock the tests move by hand for the bot's backoffs
and probes, and the check that every table and hand shows what the bot holds now."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from bot import create_bot
from bot.bot import BeloteBot
from tests.fakediscord import FakeDiscord

from .table_helpers import World

WAITING = re.compile(r"Waiting for [^\n]*")


class ManualClock:
    """Time for the bot's Outbox: sleeps end when the test moves the clock past them, or at
    once with ``instant`` (single failures, retried as soon as the loop turns)."""

    def __init__(self, *, instant: bool = False) -> None:
        self.now = 0.0
        self.instant = instant
        self.slept: list[float] = []
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def time(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        self.slept.append(delay)
        if self.instant:
            self.now += delay
            await asyncio.sleep(0)
            return
        future = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + delay, future))
        await future

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [(t, f) for t, f in self._sleepers if t <= self.now]
        self._sleepers = [(t, f) for t, f in self._sleepers if t > self.now]
        for _, future in due:
            if not future.done():
                future.set_result(None)


def use_clock(bot: Any, clock: ManualClock, seed: int = 7) -> Any:
    outbox = bot.delivery.jobs
    outbox.sleep, outbox.clock, outbox.rng = clock.sleep, clock.time, random.Random(seed)
    # The Outbox's waits end only as the test moves its clock: a stop waits for none of them
    # (tests/e2e/test_threads_closed.py tests the stop's wait, on real time).
    bot.delivery.stop_grace = 0.0
    return bot


def watch(fake: FakeDiscord) -> None:
    """settle() waits for the bots' work, not for sends parked in a backoff or an outage."""
    fake.settle_ignores.append(
        lambda task: any(b.delivery.jobs.parked(task) for b in list(fake._bots)
                         if isinstance(b, BeloteBot)))


async def clocked_world(fake: FakeDiscord, database_path: Any, clock: ManualClock,
                        names: tuple[str, ...] = ("ana", "bo", "cy", "dee"),
                        **settings: Any) -> World:
    guild = fake.add_guild("Cafe")
    channel = guild.add_text_channel("belote")
    members = [guild.add_member(n) for n in names]
    settings.setdefault("computer_delay", 0)
    watch(fake)
    bot = await fake.start_bot(lambda: use_clock(create_bot(database_path, **settings), clock))
    return World(fake, bot, guild, channel, members)


async def restart(w: World, database_path: Any, clock: ManualClock) -> None:
    await w.fake.disconnect(w.bot)
    w.bot = await w.fake.start_bot(
        lambda: use_clock(create_bot(database_path, computer_delay=0), clock))


async def delivered(w: World, clock: ManualClock, step: float = 5.0, limit: int = 200) -> None:
    """Move the clock until the bot has nothing left to send."""
    outbox = w.bot.delivery.jobs
    for _ in range(limit):
        await w.fake.settle()
        await until_parked(w)
        if not outbox.pending():
            return
        clock.advance(step)
        await asyncio.sleep(0)
    raise AssertionError(f"still {outbox.pending()} message(s) to send: {outbox._dirty}, "
                         f"down={outbox.down}, probe={outbox._probe.locked()}, "
                         f"parked={len(outbox._parked)}, sleepers={len(clock._sleepers)}")


async def until_parked(w: World) -> None:
    """Let the sends on their way (some started before fake.settle's baseline, at a
    restart) finish or park in a backoff."""
    outbox = w.bot.delivery.jobs
    for _ in range(2000):
        if not outbox.working():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"sends still on their way: {outbox.working()}")


def custom_ids(components: list[dict[str, Any]]) -> list[str]:
    """The controls a player can use: enabled ones (a waiting player's hand keeps disabled
    buttons of an earlier turn, by design: screens.hand_key)."""
    out: list[str] = []
    for c in components:
        if "custom_id" in c and not c.get("disabled"):
            out.append(c["custom_id"])
        out += custom_ids(c.get("components", []))
    return out


async def assert_shows_now(w: World, live: Any) -> None:
    """The table message and every DM hand show what the bot would show now."""
    delivery, fake = w.bot.delivery, w.fake
    if live.row.message_id is not None and live.lost is None:
        want = await delivery.screens.table_payload(live)
        table = fake.message(live.row.message_id)
        assert table.content == want["content"], (table.content, want["content"])
        view = want.get("view")
        assert custom_ids(table.components) == (custom_ids(view.to_components()) if view else [])
    for seat, s in live.seats.items():
        if s.user_id is None or s.dm_closed or live.view(seat) is None:
            continue
        want = await delivery.screens.hand_payload(live, seat)
        dm = fake.message(s.dm_message_id)
        # The other players' moves are not edited into a hand whose own key did not change
        # (screens.hand_key): the "Waiting for ..." line may lag; everything else may not.
        assert WAITING.sub("", dm.content) == WAITING.sub("", want["content"]), \
            (seat, dm.content, want["content"])
        view = want.get("view")
        assert custom_ids(dm.components) == (custom_ids(view.to_components()) if view else []), \
            (seat, dm.content, dm.custom_ids, want["content"])
