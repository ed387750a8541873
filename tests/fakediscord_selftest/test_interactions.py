"""The fake Discord driven by a real discord.py bot: login, slash commands, clicks, replies."""

from __future__ import annotations

import pytest

from tests.fakediscord import FakeDiscord, HarnessError

from .demo_bot import DemoBot


@pytest.fixture
async def world(fake_discord: FakeDiscord):
    guild = fake_discord.add_guild("Cafe")
    channel = guild.add_text_channel("belote")
    alice = guild.add_member("alice")
    bob = guild.add_member("bob")
    bot = await fake_discord.start_bot(DemoBot)
    return fake_discord, bot, guild, channel, alice, bob


async def test_login_syncs_commands_and_fills_the_cache(world) -> None:
    fake, bot, guild, channel, alice, _ = world
    routes = [(r.method, r.route) for r in fake.requests]
    assert routes[:2] == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]
    assert ("PUT", "/applications/{app_id}/commands") in routes
    assert [c["name"] for c in fake.registered_commands()] == ["demo"]
    assert bot.user.id == fake.bot_user.id and bot.is_ready()
    cached = bot.get_guild(guild.id)
    assert cached is not None and cached.get_channel(channel.id) is not None
    # No members intent: like Discord, only the bot itself is in the member cache.
    assert cached.get_member(alice.id) is None and cached.me is not None


async def test_slash_reply_carries_the_message_and_its_components(world) -> None:
    fake, bot, _, channel, alice, _ = world
    result = await fake.slash(bot, alice, channel, "demo open", table=7)
    assert result.callback_type == 4 and result.content == "Table 7" and not result.ephemeral
    assert result.message is not None and result.message in fake.messages(channel)
    assert result.message.custom_ids == [
        "lobby:close",
        "seat:7:0",
        "seat:7:1",
        "seat:7:2",
        "seat:7:3",
    ]
    callback = fake.requests_to("POST", "/interactions/{interaction_id}/{token}/callback")[-1]
    assert callback.query == {"with_response": "1"}
    assert callback.response["resource"]["message"]["id"] == str(result.message.id)


async def test_dynamic_item_and_persistent_view_clicks(world) -> None:
    fake, bot, _, channel, alice, bob = world
    lobby = await fake.slash(bot, alice, channel, "demo open", table=3)
    seat = await fake.click(bot, bob, lobby, "seat:3:2")
    assert seat.callback_type == 4 and seat.ephemeral and seat.content == "bob sat at seat 2"
    assert seat.message.visible_to == bob.id and seat.message not in fake.messages(channel)
    assert bot.events == [("seat", 3, 2, bob.id)]
    closed = await fake.click(bot, alice, lobby, label="Close")
    assert closed.callback_type == 7 and closed.message.id == lobby.message.id
    assert fake.message(lobby.message.id).content == "Lobby closed"
    assert fake.message(lobby.message.id).components == []
    # The buttons are gone now: Discord offers nothing to click, and neither does the fake.
    with pytest.raises(HarnessError, match="no component"):
        await fake.click(bot, bob, lobby, "seat:3:1")


async def test_a_click_is_only_dispatched_for_a_custom_id_on_the_message(world) -> None:
    fake, bot, _, channel, alice, _ = world
    lobby = await fake.slash(bot, alice, channel, "demo open", table=1)
    with pytest.raises(HarnessError, match="no component seat:2:0"):
        await fake.click(bot, alice, lobby, "seat:2:0")
    assert bot.events == []


async def test_non_persistent_view_is_found_by_the_reply_message_id(world) -> None:
    fake, bot, _, channel, alice, _ = world
    reply = await fake.slash(bot, alice, channel, "demo counter")
    await fake.click(bot, alice, reply, "counter:add")
    second = await fake.click(bot, alice, reply, "counter:add")
    assert second.callback_type == 7 and fake.message(reply.message.id).content == "count 2"
