"""Discord down for longer than discord.py's own retries, with clicks during it, and a restart
during it: the bot stops hammering Discord, tries one message at a time, and once Discord
answers brings every table and hand up to date on its own. Turn timers do not run while nobody
can see the table. One WARNING says Discord is failing, one INFO that it is back."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from bot.controls import button_id
from game.players import RandomPlayer
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .failing_discord import (
    ManualClock,
    assert_shows_now,
    clocked_world,
    delivered,
    restart,
    until_parked,
)
from .table_helpers import (
    World,
    play_out,
    play_turn,
    start_one_deal_table,
)

pytestmark = pytest.mark.usefixtures("instant_discord_retries")

# What a bot needs to log in again while Discord's message routes fail.
LOGIN = ("/users/@me", "/oauth2/applications/@me", "/applications/@me", "/gateway.*",
         r"/applications/\{app_id\}.*")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: ManualClock) -> World:
    return await clocked_world(fake_discord, database_path, clock)


def records(caplog: pytest.LogCaptureFixture, level: int, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level and text in
            r.getMessage()]


def loud(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name} {r.levelname}: {r.getMessage()}" for r in caplog.records
            if r.levelno >= logging.ERROR or r.exc_info]


async def test_an_outage_with_clicks_during_it(world: World, clock: ManualClock,
                                               caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world, turn_timer=60)
    live = bot.service.live[table_id]
    rng = RandomPlayer(5)
    for _ in range(3):
        await play_turn(world, table_id, rng)
    caplog.set_level(logging.INFO)
    caplog.clear()
    outage = fake.faults.start_outage()
    seq = live.seq
    await play_turn(world, table_id, rng)  # applied; its answer, the table, the DMs all fail
    assert live.seq > seq
    mine = await fake.click(bot, world.members[2], fake.message(live.row.message_id),
                            button_id("hand", table_id))  # "My hand": its answer fails too
    assert not mine.responded
    assert bot.delivery.jobs.down
    assert live.timer is None and live.deadline is not None  # the turn timer does not run
    left = live.deadline - time.time()
    sent = outage.failed
    mark = fake.mark()
    for _ in range(12):  # a minute of Discord failing: a probe every few seconds, no more
        await until_parked(world)
        clock.advance(5)
        await fake.settle()
    assert outage.failed - sent <= 14, outage.failed - sent
    # Probes edit as messages: discord.py would try an edit through a token five times.
    assert fake.requests_to("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}",
                            since=mark) == []
    fake.faults.end_outage()
    await delivered(world, clock)
    assert not bot.delivery.jobs.down
    assert live.timer is not None and live.deadline - time.time() > left - 5  # given back
    await assert_shows_now(world, live)
    assert len(records(caplog, logging.WARNING, "Discord is failing")) == 1
    back = records(caplog, logging.INFO, "Discord answered again")
    assert len(back) == 1 and "message(s) brought up to date" in back[0], back
    assert not loud(caplog), loud(caplog)
    assert await play_out(world, table_id, seed=6) > 0  # and the game goes on to its end
    assert len(await bot.service.db.log.entries(table_id)) == live.seq
    await delivered(world, clock)  # the last table edit is paced (5 per 5 s in a channel)
    await assert_shows_now(world, live)


async def test_a_restart_during_an_outage(world: World, clock: ManualClock, database_path: Path,
                                          caplog: pytest.LogCaptureFixture) -> None:
    fake = world.fake
    table_id = await start_one_deal_table(world)
    rng = RandomPlayer(8)
    for _ in range(3):
        await play_turn(world, table_id, rng)
    caplog.set_level(logging.INFO)
    caplog.clear()
    fake.faults.start_outage(spare=LOGIN)
    await play_turn(world, table_id, rng)
    await restart(world, database_path, clock)  # what was on its way is gone with the process
    for _ in range(6):
        await until_parked(world)
        clock.advance(5)
        await fake.settle()
    fake.faults.end_outage()
    await delivered(world, clock)
    live = world.bot.service.live[table_id]
    await assert_shows_now(world, live)
    assert len(records(caplog, logging.INFO, "Discord answered again")) == 1
    assert not loud(caplog), loud(caplog)
    assert await play_out(world, table_id, seed=9) > 0
    await delivered(world, clock)  # the last table edit is paced (5 per 5 s in a channel)
    await assert_shows_now(world, live)


async def test_no_game_is_ended_as_abandoned_while_discord_is_down(
        table_clock: FakeClock, world: World, clock: ManualClock) -> None:
    """Nobody can play while Discord is down: the game's idle time stops with the turn timers,
    and its deadline moves on by the outage's length (saved, for a restart), so nobody becomes
    the idle leaver of a game they could not see (issue 48)."""
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    idle = 60.0 * live.idle_minutes
    outage = fake.faults.start_outage()
    await play_turn(world, table_id, RandomPlayer(8))  # the last action: its answer fails
    assert bot.delivery.jobs.down and outage.failed
    table_clock.advance(idle + 60)  # past the game's idle deadline, all of it Discord down
    await fake.settle()
    assert table_id in bot.service.live
    fake.faults.end_outage()
    await delivered(world, clock)
    await bot.service.settle()
    assert table_id in bot.service.live
    at = live.row.sweep_at
    assert at is not None and at >= table_clock.now() + idle - 60
    stored = (await bot.service.db.tables.get(table_id)).sweep_at
    assert stored is not None and stored >= at
    # The idle time it had left when Discord went down runs out after Discord is back.
    table_clock.advance(idle)
    await fake.settle()
    await bot.service.settle()
    assert table_id not in bot.service.live
    match = await bot.service.db.results.match(world.guild.id, table_id)
    assert match is not None and match.ending == "abandoned"
