"""A table's thread owed an archive survives the process (issue 48): the table's end records
it (threads_owed, in the end's transaction), and a bot that did not archive it (it crashed
right after the end, or Discord failed as it stopped, or it starts while Discord is down)
archives and locks it at its next start, once Discord answers, and owes nothing after."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot import create_bot
from tests.fakediscord import FakeDiscord

from .failing_discord import ManualClock, clocked_world, delivered, restart, until_parked
from .table_helpers import World, open_table

pytestmark = pytest.mark.usefixtures("instant_discord_retries")

LOGIN = ("/users/@me", "/oauth2/applications/@me", "/applications/@me", "/gateway.*",
         r"/applications/\{app_id\}.*")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: ManualClock) -> World:
    return await clocked_world(fake_discord, database_path, clock)


def owed(database_path: Path) -> list[int]:
    con = sqlite3.connect(database_path)
    try:
        return [r[0] for r in con.execute("SELECT table_id FROM threads_owed ORDER BY table_id")]
    finally:
        con.close()


async def test_a_crash_after_the_end_leaves_the_thread_to_the_next_start(
        world: World, clock: ManualClock, database_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, lobby = await open_table(world, ana)
    thread = fake.channel(bot.service.live[table_id].row.thread_id)
    # The process dies right after the end's transaction: nothing of the thread's archive
    # was asked of Discord.
    bot.delivery.close_thread = lambda live: None
    await bot.service.end(table_id, ana.id, can_manage=True)
    await delivered(world, clock)
    await fake.disconnect(bot)
    assert not thread.archived and owed(database_path) == [table_id]
    caplog.set_level(logging.INFO, logger="bot.delivery")
    world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    await fake.settle()
    assert thread.archived and thread.locked
    assert owed(database_path) == []
    assert "Table closed" in fake.message(lobby.id).content
    said = [r.getMessage() for r in caplog.records if "ended before the last stop" in
            r.getMessage()]
    assert said == ["archiving and locking 1 thread(s) of tables that ended before the last "
                    "stop"]
    # Owed nothing, the start after asks Discord nothing of it.
    mark = fake.mark()
    await fake.disconnect(world.bot)
    world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    await fake.settle()
    assert [r for r in fake.requests_to(since=mark)
            if r.method == "PATCH" and r.path == f"/channels/{thread.id}"] == []


async def test_a_thread_discord_failed_at_the_stop_is_archived_at_the_next_start(
        world: World, clock: ManualClock, database_path: Path) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, _ = await open_table(world, ana)
    thread = fake.channel(bot.service.live[table_id].row.thread_id)
    fake.faults.fail("PATCH", "/channels/{channel_id}", path=f"/channels/{thread.id}",
                     times=100)
    await bot.service.end(table_id, ana.id, can_manage=True)
    await fake.settle()
    await until_parked(world)  # the archive failed, waiting out its backoff as the bot stops
    assert not thread.archived
    fake.faults.rules.clear()
    await restart(world, database_path, clock)
    await delivered(world, clock)
    assert thread.archived and thread.locked
    assert owed(database_path) == []


async def test_a_start_while_discord_is_down_archives_the_thread_once_it_is_back(
        world: World, clock: ManualClock, database_path: Path) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, _ = await open_table(world, ana)
    other_id, _ = await open_table(world, world.members[1])
    threads = [fake.channel(bot.service.live[t].row.thread_id) for t in (table_id, other_id)]
    fake.faults.start_outage(spare=LOGIN)
    await bot.service.end(table_id, ana.id, can_manage=True)
    await bot.service.end(other_id, world.members[1].id, can_manage=True)
    await restart(world, database_path, clock)  # the outage goes on through the restart
    for _ in range(6):
        await until_parked(world)
        clock.advance(5)
        await fake.settle()
    assert world.bot.delivery.jobs.down
    assert not any(t.archived for t in threads)
    assert owed(database_path) == [table_id, other_id]
    fake.faults.end_outage()
    await delivered(world, clock)
    assert all(t.archived and t.locked for t in threads)
    assert owed(database_path) == []


async def test_a_thread_deleted_meanwhile_is_owed_no_more(
        world: World, clock: ManualClock, database_path: Path) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, _ = await open_table(world, ana)
    thread = fake.channel(bot.service.live[table_id].row.thread_id)
    bot.delivery.close_thread = lambda live: None  # the crash, as above
    await bot.service.end(table_id, ana.id, can_manage=True)
    await delivered(world, clock)
    await fake.disconnect(bot)
    fake.delete_channel(thread)
    world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    await fake.settle()
    assert owed(database_path) == []
