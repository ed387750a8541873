"""Self-test fixtures: the fake Discord (tests/fakediscord) and the no-network guard."""

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import _no_network, fake_discord

from .demo_bot import DemoBot

__all__ = ["_no_network", "fake_discord", "world"]


@pytest.fixture
async def world(fake_discord: FakeDiscord):
    """A server with #belote, one member (alice), and the demo bot connected."""
    guild = fake_discord.add_guild("Cafe")
    channel = guild.add_text_channel("belote")
    alice = guild.add_member("alice")
    bot = await fake_discord.start_bot(DemoBot)
    return fake_discord, bot, guild, channel, alice
