"""A restart that finds a table's thread, channel or message gone plans its fallback (move the
table, or say it in the hands) and says so in one WARNING at most: never an ERROR or a
traceback, which would page whoever runs the bot for something that is expected."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot import create_bot
from game.players import RandomPlayer

from .table_helpers import FLAT, World, play_turn, start_one_deal_table


def loud(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name} {r.levelname}: {r.getMessage()}" for r in caplog.records
            if r.levelno >= logging.ERROR or r.exc_info]


async def restart(w: World, database_path: Path) -> None:
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()


async def test_a_thread_deleted_while_stopped_moves_the_table_quietly(
        world: World, database_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    fake = world.fake
    table_id = await start_one_deal_table(world)
    thread = fake.channel(world.bot.service.live[table_id].row.thread_id)
    await fake.disconnect(world.bot)
    fake.delete_channel(thread)
    caplog.clear()
    caplog.set_level(logging.INFO)
    await restart(world, database_path)
    live = world.bot.service.live[table_id]
    assert live.row.thread_id is None and live.row.channel_id == world.channel.id
    assert fake.messages(world.channel)[-1].content == \
        f"Table #{table_id} goes on here: its thread was deleted."
    assert not loud(caplog), loud(caplog)
    await play_turn(world, table_id, RandomPlayer(1))


async def test_a_channel_deleted_while_stopped_is_said_in_the_hands_quietly(
        world: World, database_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    fake = world.fake
    flat = world.guild.add_text_channel("flat", bot_permissions=FLAT)
    world.channel = flat
    table_id = await start_one_deal_table(world)
    await fake.disconnect(world.bot)
    fake.delete_channel(flat)
    caplog.clear()
    caplog.set_level(logging.INFO)
    await restart(world, database_path)
    live = world.bot.service.live[table_id]
    assert str(live.lost) == f"The channel of table #{table_id} was deleted"
    for s in live.seats.values():
        assert "/belote show" in fake.message(s.dm_message_id).content
    assert not loud(caplog), loud(caplog)
    await play_turn(world, table_id, RandomPlayer(1))  # by DM
    assert not loud(caplog), loud(caplog)


async def test_a_table_message_deleted_while_stopped_is_posted_again_quietly(
        world: World, database_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    fake = world.fake
    table_id = await start_one_deal_table(world)
    live = world.bot.service.live[table_id]
    thread, old = live.row.thread_id, live.row.message_id
    await play_turn(world, table_id, RandomPlayer(1))
    await fake.disconnect(world.bot)
    fake.delete_message(fake.message(old))
    caplog.clear()
    caplog.set_level(logging.INFO)
    await restart(world, database_path)
    # Nothing changed while it was stopped: the restart sends nothing (no call per table to
    # look for a deleted message); the next edit finds it gone and posts the table again.
    await play_turn(world, table_id, RandomPlayer(3))
    await fake.settle()
    live = world.bot.service.live[table_id]
    assert live.row.message_id != old and live.row.home_id == thread
    table = fake.message(live.row.message_id)
    assert not table.deleted and table.custom_ids
    assert f"deal {len(live.match.deals)}" in table.content
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING
                and r.name.startswith(("bot", "cogs"))]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert not loud(caplog), loud(caplog)
    await play_turn(world, table_id, RandomPlayer(2))  # and it goes on
    assert not loud(caplog), loud(caplog)
