"""A table's thread is archived and locked when the table is over (ended, or its match won),
after its last posts; without Manage Threads it is archived only, said in one log line."""

from __future__ import annotations

import logging

import pytest

from tests.fakediscord.models import EVERYONE_PERMISSIONS

from .table_helpers import World, open_table, play_out, start_one_deal_table


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.exc_info is not None or r.levelno >= logging.ERROR]


async def test_an_ended_tables_thread_is_archived_and_locked(world: World) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, lobby = await open_table(world, ana)
    thread = fake.channel(bot.service.live[table_id].row.thread_id)
    assert not thread.archived and not thread.locked
    r = await fake.slash(bot, ana, world.channel, "belote end", table=table_id)
    assert f"Table #{table_id} was ended" in r.text, r.text
    await fake.settle()
    assert thread.archived and thread.locked
    assert "Table closed" in fake.message(lobby.id).content  # its last edit went first


async def test_a_won_matchs_thread_is_archived_after_its_result(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    thread = fake.channel(bot.service.live[table_id].row.thread_id)
    await play_out(world, table_id)
    await fake.settle()
    assert thread.archived and thread.locked
    # The result was posted before the lock (a locked thread takes no post).
    assert "rating 1000 →" in fake.messages(thread)[-1].content


async def test_without_manage_threads_the_thread_is_archived_only(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    world.guild.bot_role.permissions = EVERYONE_PERMISSIONS.value  # no Manage Threads
    table_id, _ = await open_table(world, ana)
    thread = fake.channel(bot.service.live[table_id].row.thread_id)
    with caplog.at_level(logging.INFO, logger="bot.delivery"):
        await fake.slash(bot, ana, world.channel, "belote end", table=table_id)
        await fake.settle()
    assert thread.archived and not thread.locked
    said = [r.getMessage() for r in caplog.records if "archived, not locked" in r.getMessage()]
    assert len(said) == 1, said
    assert tracebacks(caplog) == []



async def test_a_table_closed_as_the_bot_stops_still_has_its_thread_closed(
        world: World) -> None:
    # A table ends and the bot is told to stop at once (a deploy): the stop waits for the
    # table's last edit and its thread's archive and lock; the thread is not left open.
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, lobby = await open_table(world, ana)
    thread = fake.channel(bot.service.live[table_id].row.thread_id)
    await bot.service.end(table_id, ana.id, can_manage=True)
    assert not thread.archived  # on its way: what the stop must not cancel
    await fake.disconnect(bot)
    assert thread.archived and thread.locked
    assert "Table closed" in fake.message(lobby.id).content  # its last edit went first
