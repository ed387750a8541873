"""A table message is edited at the pace its channel allows (Discord: 5 message edits per 5
seconds per channel), always with the newest state: a burst of computer moves becomes fewer
edits, and a 429 that comes anyway is absorbed without losing the edit. The Outbox runs on an
injected clock whose sleeps move it forward at once: no test waits through real seconds."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot import messages
from bot.controls import button_id
from bot.pacing import Pacer
from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord, ratelimit

from .table_helpers import World, make_world, open_table, play_turn

MESSAGE = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
TOKEN_EDIT = ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}")


class Clock:
    """Virtual seconds: a sleep moves the clock to its end at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        start = self.now
        await asyncio.sleep(0)
        self.now = max(self.now, start + max(0.0, delay))


async def solo_table(w: World, clock: Clock) -> int:
    """ana and three computers, started; the bot's Outbox on ``clock``."""
    w.bot.delivery.jobs.clock, w.bot.delivery.jobs.sleep = clock, clock.sleep
    w.bot.delivery.jobs.pacer = Pacer()  # Discord's documented pace (conftest lifts it)
    ana = w.members[0]
    table_id, lobby = await open_table(w, ana, variant="classic")
    for seat in (1, 2, 3):
        r = await w.fake.click(w.bot, ana, lobby, button_id("cpu", table_id, seat))
        assert r.callback_type == 7, r.text
    r = await w.fake.click(w.bot, ana, lobby, button_id("start", table_id))
    assert r.callback_type == 7, r.text
    await w.fake.settle()
    return table_id


def timed_edits(w: World, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The clock's time at each edit of a table message the bot starts from now on."""
    times: list[float] = []
    delivery = w.bot.delivery
    edit = delivery._edit_table

    async def timed(live: Any, closed: str | None) -> None:
        times.append(clock())
        await edit(live, closed)
    monkeypatch.setattr(delivery, "_edit_table", timed)
    return times


async def play_turns(w: World, table_id: int, turns: int) -> None:
    rng = RandomPlayer(5)
    for _ in range(turns):
        await w.fake.settle()
        if table_id not in w.bot.service.live:
            break
        result = await play_turn(w, table_id, rng)
        assert result.callback_type == 7, result.text
    await w.fake.settle()


def shows_the_newest_state(w: World, table_id: int) -> None:
    live = w.bot.service.live[table_id]
    view = live.view()
    assert w.fake.message(live.row.message_id).content == messages.table_text(live, view)


async def test_a_burst_of_computer_moves_is_edited_at_the_channel_pace(
        fake_discord: FakeDiscord, database_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w = await make_world(fake_discord, database_path, names=("ana",))
    clock = Clock()
    table_id = await solo_table(w, clock)
    times = timed_edits(w, clock, monkeypatch)
    live = w.bot.service.live[table_id]
    mark = w.fake.mark()
    await play_turns(w, table_id, 16)
    edits = w.fake.edits_of(live.row.message_id, since=mark)
    assert len(edits) == len(times) > 5
    # Through the token of the Start click: outside the global limit, paced all the same.
    assert all(r.route == TOKEN_EDIT[1] for r in edits)
    for first, sixth in zip(times, times[5:], strict=False):
        assert sixth - first >= 5.0, times  # at most 5 edits in any 5 seconds
    assert all(r.status == 200 for r in edits)  # planned: no 429 was needed
    shows_the_newest_state(w, table_id)


@pytest.mark.parametrize("token", [True, False], ids=["through a token", "as a message"])
async def test_a_429_is_absorbed_without_losing_the_edit(
    fake_discord: FakeDiscord,
    database_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    instant_discord_retries: None,
    token: bool,
) -> None:
    w = await make_world(fake_discord, database_path, names=("ana",))
    clock = Clock()
    table_id = await solo_table(w, clock)
    if not token:  # a table whose last click on its message is more than 15 minutes old
        w.bot.delivery.tokens.table.clear()
    # Discord's limits on the same clock, with message edits stricter than planned (1 per
    # 0.5 s in each channel where the bot plans 10 a second): 429s come, discord.py gives up
    # on them, the Outbox takes over. (Short windows: discord.py waits out a bucket's reset
    # in real seconds.)
    w.bot.delivery.jobs.pacer = Pacer(10, 1.0)
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(monotonic=clock, time=time.time))
    limiter = w.fake.rate_limiter
    limiter.route_limits[MESSAGE] = (1, 0.5)
    monkeypatch.setattr(limiter, "_global", ratelimit.Bucket(10**6, 1.0))
    w.fake.rate_limits = True
    live = w.bot.service.live[table_id]
    mark = w.fake.mark()
    await play_turns(w, table_id, 6)
    edits = w.fake.edits_of(live.row.message_id, since=mark)
    assert {r.route for r in edits} == {(TOKEN_EDIT if token else MESSAGE)[1]}
    statuses = [r.status for r in edits]
    assert 429 in statuses and statuses[-1] == 200
    assert w.bot.delivery.jobs.limited > 0
    shows_the_newest_state(w, table_id)
