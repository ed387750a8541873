"""The bot hears only what it uses from the gateway: in a busy server, the chat (messages,
reactions, typing) would otherwise be a stream of events to parse and cache for nothing.
Every other end-to-end test plays with these intents: commands and clicks need none."""

from __future__ import annotations

from .table_helpers import World


async def test_the_bot_hears_servers_and_channels_but_no_chat(world: World) -> None:
    intents = world.bot.intents
    assert intents.guilds  # servers, channels, threads and roles: where it may post
    unheard = ("guild_messages", "dm_messages", "message_content", "guild_reactions",
               "dm_reactions", "guild_typing", "dm_typing", "voice_states", "members",
               "presences")
    assert [name for name in unheard if getattr(intents, name)] == []
    assert world.bot._connection.max_messages is None  # no cache of messages it never reads
