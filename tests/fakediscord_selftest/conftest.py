"""Self-test fixtures: the fake Discord (tests/fakediscord) and the no-network guard."""

import discord
import pytest

from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember
from tests.fakediscord.fixtures import _no_network, fake_discord

from .demo_bot import DemoBot

__all__ = ["World", "_no_network", "bot_channel", "bot_member", "fake_discord", "world"]

# The fake Discord, the demo bot, the server, its #belote channel and alice.
World = tuple[FakeDiscord, DemoBot, FakeGuild, FakeChannel, FakeMember]


def bot_channel(bot: discord.Client, channel_id: int) -> discord.TextChannel:
    """The bot's cached text channel (a test that expects it there)."""
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel), channel
    return channel


def bot_member(bot: discord.Client, guild_id: int) -> discord.Member:
    """The bot's own member in a cached server."""
    guild = bot.get_guild(guild_id)
    assert guild is not None
    return guild.me


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> World:
    """A server with #belote, one member (alice), and the demo bot connected."""
    guild = fake_discord.add_guild("Cafe")
    channel = guild.add_text_channel("belote")
    alice = guild.add_member("alice")
    bot = await fake_discord.start_bot(DemoBot)
    return fake_discord, bot, guild, channel, alice
