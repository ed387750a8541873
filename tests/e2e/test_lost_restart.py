"""A table's thread or channel deleted while the bot was stopped: the restarted bot finds out
from Discord (the lost state is not stored) and does what it does when it sees it happen."""

from __future__ import annotations

from pathlib import Path

from bot import create_bot
from game.players import RandomPlayer

from .table_helpers import (
    FLAT,
    World,
    play_turn,
    restart,
    start_one_deal_table,
)


async def test_a_thread_deleted_while_stopped_moves_the_table(
    world: World,
    database_path: Path,
) -> None:
    fake = world.fake
    table_id = await start_one_deal_table(world)
    thread = fake.channel(world.bot.service.live[table_id].row.thread_id)
    await fake.disconnect(world.bot)
    fake.delete_channel(thread)
    world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    await fake.settle()
    live = world.bot.service.live[table_id]
    assert live.row.thread_id is None and live.row.channel_id == world.channel.id
    posts = fake.messages(world.channel)
    assert posts[-1].content == f"Table #{table_id} goes on here: its thread was deleted."
    assert live.row.message_id == posts[-2].id and posts[-2].custom_ids
    await play_turn(world, table_id, RandomPlayer(1))  # and it goes on


async def test_a_moved_table_message_is_not_edited_again_at_the_next_restart(
    world: World,
    database_path: Path,
) -> None:
    # The table message posted in the channel shows the table as it is: Discord confirmed it
    # when it was posted, so the next restart has no edit to make of it.
    fake = world.fake
    table_id = await start_one_deal_table(world)
    fake.delete_channel(fake.channel(world.bot.service.live[table_id].row.thread_id))
    await restart(world, database_path)
    moved = world.bot.service.live[table_id].row
    assert moved.thread_id is None
    mark = fake.mark()
    await restart(world, database_path)
    edits = [r for r in fake.requests_to(since=mark) if r.method == "PATCH"
             and r.path == f"/channels/{moved.channel_id}/messages/{moved.message_id}"]
    assert edits == []


async def test_a_channel_deleted_while_stopped_is_said_and_show_works(world: World,
                                                                      database_path: Path) -> None:
    fake = world.fake
    flat = world.guild.add_text_channel("flat", bot_permissions=FLAT)
    world.channel, home = flat, world.channel
    table_id = await start_one_deal_table(world)
    await fake.disconnect(world.bot)
    fake.delete_channel(flat)
    world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    await fake.settle()
    live = world.bot.service.live[table_id]
    assert str(live.lost) == f"The channel of table #{table_id} was deleted"
    for s in live.seats.values():
        assert "/belote show" in fake.message(s.dm_message_id).content
    r = await fake.slash(world.bot, world.members[1], home, "belote show")
    assert r.ephemeral and f"Table #{table_id} is here now" in r.text
    assert live.lost is None and live.row.channel_id == home.id


async def test_a_table_still_in_place_is_not_lost_after_a_restart(
    world: World,
    database_path: Path,
) -> None:
    table_id = await start_one_deal_table(world)
    await restart(world, database_path)
    assert world.bot.service.live[table_id].lost is None
