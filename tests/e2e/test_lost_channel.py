"""A table's thread or channel deleted, or the bot's permissions taken away, mid-game: no game
state is lost and the players are told what happened and what to do."""

from __future__ import annotations

import discord

from game.players import RandomPlayer

from .table_helpers import (
    FLAT,
    World,
    play_out,
    play_turn,
    start_one_deal_table,
)


async def test_a_deleted_thread_moves_the_table_to_its_channel(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    for _ in range(5):
        await play_turn(world, table_id, RandomPlayer(1))
    seq, hands = live.seq, list(live.match.deal.hands)
    fake.delete_channel(fake.channel(live.row.thread_id))
    await fake.settle()
    assert (live.seq, live.match.deal.hands) == (seq, hands)  # nothing of the game lost
    assert live.row.thread_id is None and live.row.channel_id == world.channel.id
    posts = fake.messages(world.channel)
    assert posts[-1].content == f"Table #{table_id} goes on here: its thread was deleted."
    assert live.row.message_id == posts[-2].id and posts[-2].custom_ids  # the table, live
    assert await play_out(world, table_id, seed=2) > 0
    assert any(p.content.startswith("**Deal 1**") for p in fake.messages(world.channel))


async def test_a_deleted_channel_is_said_in_the_hands_and_show_brings_it_back(world: World) -> None:
    fake, bot = world.fake, world.bot
    flat = world.guild.add_text_channel("flat", bot_permissions=FLAT)
    world.channel, home = flat, world.channel
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    assert live.row.thread_id is None and live.row.channel_id == flat.id
    seq = live.seq
    fake.delete_channel(flat)
    await fake.settle()
    assert live.seq == seq and live.lost is not None
    for s in live.seats.values():
        dm = fake.message(s.dm_message_id).content
        assert "was deleted" in dm and "/belote show" in dm, dm
    for _ in range(4):  # the game goes on by DM meanwhile
        await play_turn(world, table_id, RandomPlayer(2))
    assert live.seq > seq
    r = await fake.slash(bot, world.members[1], home, "belote show")
    assert r.ephemeral and f"Table #{table_id} is here now" in r.text
    assert live.lost is None and live.row.channel_id == home.id
    table = fake.message(live.row.message_id)
    assert table.channel_id == home.id and f"table #{table_id}" in table.content.lower()
    s = live.seats[0]
    assert "/belote show" not in fake.message(s.dm_message_id).content
    r = await fake.slash(bot, world.members[1], home, "belote show")  # not lost any more
    assert r.ephemeral and f"is in <#{home.id}>" in r.text
    world.channel = home
    assert await play_out(world, table_id, seed=3) > 0


async def test_lost_permissions_are_said_and_given_back(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    world.guild.set_bot_permissions(world.channel, discord.Permissions(view_channel=True))
    await fake.settle()
    assert live.lost is not None and "Send Messages in Threads" in str(live.lost)
    dm = fake.message(live.seats[2].dm_message_id).content
    assert "lost the permission" in dm and "Attach Files" in dm
    await play_turn(world, table_id, RandomPlayer(4))  # the game goes on
    world.guild.set_bot_permissions(world.channel, None)
    await fake.settle()
    assert live.lost is None
    assert "lost the permission" not in fake.message(live.seats[2].dm_message_id).content
    assert f"deal {live.match.deals.__len__()}" in fake.message(live.row.message_id).content
