"""The bot hears only what it uses from the gateway: in a busy server, the chat (messages,
reactions, typing) would otherwise be a stream of events to parse and cache for nothing.
Every other end-to-end test plays with these intents: commands and clicks need none. It hears
that messages were deleted (a table message deleted is posted again at once), which Discord
sends only with the server's messages: those it drops as they come, making nothing of them."""

from __future__ import annotations

from typing import Any

import bot.bot as bot_module
from bot.bot import DROPPED

from .table_helpers import World, start_one_deal_table


async def test_the_bot_hears_servers_channels_and_deletions_but_no_chat(world: World) -> None:
    intents = world.bot.intents
    assert intents.guilds  # servers, channels, threads and roles: where it may post
    assert intents.guild_messages  # for MESSAGE_DELETE and MESSAGE_DELETE_BULK
    unheard = ("dm_messages", "message_content", "guild_reactions",
               "dm_reactions", "guild_typing", "dm_typing", "voice_states", "members",
               "presences")
    assert [name for name in unheard if getattr(intents, name)] == []
    assert world.bot._connection.max_messages is None  # no cache of messages it never reads
    assert set(DROPPED) == {"MESSAGE_CREATE", "MESSAGE_UPDATE"}


async def test_a_servers_chat_reaches_the_bot_and_is_dropped_as_it_comes(
        world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    await fake.settle()
    heard: list[Any] = []

    async def hear(*args: Any) -> None:
        heard.append(args)

    for event in ("on_message", "on_message_edit", "on_raw_message_edit"):
        bot.add_listener(hear, event)
    parsers = bot._connection.parsers
    dropped = parsers["MESSAGE_CREATE"]
    assert dropped is parsers["MESSAGE_UPDATE"] is bot_module._dropped
    arrived: list[str] = []

    def counting(data: Any) -> None:
        arrived.append(data["content"])
        dropped(data)

    parsers["MESSAGE_CREATE"] = counting
    try:
        before = bot.get_channel(live.row.home_id)
        last = getattr(before, "last_message_id", None)
        fake.say(world.members[1], live.row.home_id, "good luck everyone")
        fake.say(world.members[2], world.channel, "anyone for a game?")
        await fake.settle()
    finally:
        parsers["MESSAGE_CREATE"] = dropped
    assert arrived == ["good luck everyone", "anyone for a game?"]  # Discord sends them
    assert heard == []  # and nothing is made of them
    assert getattr(bot.get_channel(live.row.home_id), "last_message_id", None) == last
