"""The fake Discord driven by a real discord.py bot: login, slash commands, clicks, replies."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, HarnessError

from .demo_bot import DemoBot

# This module's world has a second member, bob.
World = tuple[FakeDiscord, DemoBot, FakeGuild, FakeChannel, FakeMember, FakeMember]


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> World:
    guild = fake_discord.add_guild("Cafe")
    channel = guild.add_text_channel("belote")
    alice = guild.add_member("alice")
    bob = guild.add_member("bob")
    bot = await fake_discord.start_bot(DemoBot)
    return fake_discord, bot, guild, channel, alice, bob


async def test_login_syncs_commands_and_fills_the_cache(world: World) -> None:
    fake, bot, guild, channel, alice, _ = world
    routes = [(r.method, r.route) for r in fake.requests]
    assert routes[:2] == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]
    assert ("PUT", "/applications/{app_id}/commands") in routes
    assert [c["name"] for c in fake.registered_commands()] == ["demo"]
    assert bot.user is not None and bot.user.id == fake.bot_user.id and bot.is_ready()
    cached = bot.get_guild(guild.id)
    assert cached is not None and cached.get_channel(channel.id) is not None
    # No members intent: like Discord, only the bot itself is in the member cache.
    assert cached.get_member(alice.id) is None and cached.me is not None


async def test_slash_reply_carries_the_message_and_its_components(world: World) -> None:
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


async def test_dynamic_item_and_persistent_view_clicks(world: World) -> None:
    fake, bot, _, channel, alice, bob = world
    lobby = await fake.slash(bot, alice, channel, "demo open", table=3)
    seat = await fake.click(bot, bob, lobby, "seat:3:2")
    assert seat.callback_type == 4 and seat.ephemeral and seat.content == "bob sat at seat 2"
    assert seat.answer.visible_to == bob.id and seat.message not in fake.messages(channel)
    assert bot.events == [("seat", 3, 2, bob.id)]
    closed = await fake.click(bot, alice, lobby, label="Close")
    assert closed.callback_type == 7 and closed.answer.id == lobby.answer.id
    assert fake.message(lobby.answer.id).content == "Lobby closed"
    assert fake.message(lobby.answer.id).components == []
    assert [a.filename for a in fake.message(lobby.answer.id).attachments] == ["closed.png"]
    # The buttons are gone now: Discord offers nothing to click, and neither does the fake.
    with pytest.raises(HarnessError, match="no component"):
        await fake.click(bot, bob, lobby, "seat:3:1")


async def test_a_click_is_only_dispatched_for_a_custom_id_on_the_message(world: World) -> None:
    fake, bot, _, channel, alice, _ = world
    lobby = await fake.slash(bot, alice, channel, "demo open", table=1)
    with pytest.raises(HarnessError, match="no component seat:2:0"):
        await fake.click(bot, alice, lobby, "seat:2:0")
    assert bot.events == []


async def test_non_persistent_view_is_found_by_the_reply_message_id(world: World) -> None:
    fake, bot, _, channel, alice, _ = world
    reply = await fake.slash(bot, alice, channel, "demo counter")
    await fake.click(bot, alice, reply, "counter:add")
    second = await fake.click(bot, alice, reply, "counter:add")
    assert second.callback_type == 7 and fake.message(reply.answer.id).content == "count 2"


async def test_buttons_in_a_dm_are_clicked_by_the_recipient_only(world: World) -> None:
    fake, bot, _, channel, alice, bob = world
    await fake.slash(bot, alice, channel, "demo hand")
    (dm,) = fake.dm_messages(alice)
    assert dm.custom_ids == ["play:3", "play:17"]
    with pytest.raises(HarnessError, match="someone else's DMs"):
        await fake.click(bot, bob, dm, "play:3")
    played = await fake.click(bot, alice, dm, label="Card 17")
    assert played.callback_type == 7 and played.answer.id == dm.id
    assert fake.message(dm.id).content == "played 17 in DM" and fake.message(dm.id).components == []
    interaction = fake.requests_to("POST", "/interactions/{interaction_id}/{token}/callback")[-1]
    assert interaction.json["type"] == 7


async def test_a_deferred_update_then_an_edit_of_the_original(world: World) -> None:
    fake, bot, _, channel, alice, _ = world
    reply = await fake.slash(bot, alice, channel, "demo counter")
    refreshed = await fake.click(bot, alice, reply, "counter:refresh")
    assert refreshed.callback_type == 6 and refreshed.answer.id == reply.answer.id
    assert fake.message(reply.answer.id).content == "count 0 (refreshed)"
    edit = fake.requests_to("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}")[-1]
    assert edit.path.endswith("/messages/@original")


async def test_waiting_covers_tasks_the_bot_spawns_after_answering(world: World) -> None:
    fake, bot, _, channel, alice, _ = world
    result = await fake.slash(bot, alice, channel, "demo background")
    assert result.content == "worked"
    started = await fake.slash(bot, alice, channel, "demo background", wait=False)
    assert started.content is None  # nothing ran yet
    await fake.settle()
    assert started.content == "worked"


async def test_concurrent_clicks_are_both_dispatched(world: World) -> None:
    fake, bot, _, channel, alice, bob = world
    reply = await fake.slash(bot, alice, channel, "demo counter")
    first, second = await asyncio.gather(
        fake.click(bot, alice, reply, "counter:add"), fake.click(bot, bob, reply, "counter:add")
    )
    assert {first.callback_type, second.callback_type} == {7}
    assert fake.message(reply.answer.id).content == "count 2"
    assert [v.content for v in fake.message(reply.answer.id).versions] == [
        "count 0",
        "count 1",
        "count 2",
    ]


async def test_autocomplete_answers_choices_and_renamed_options(world: World) -> None:
    fake, bot, _, channel, alice, _ = world
    typed = await fake.autocomplete(bot, alice, channel, "demo variant", "game", game="c")
    assert typed.callback_type == 8
    assert typed.choices == [
        {"name": "Classic", "value": "classic"},
        {"name": "Coinche", "value": "coinche"},
    ]
    chosen = await fake.slash(bot, alice, channel, "demo variant", variant="coinche")  # Python name
    assert chosen.content == "variant coinche"


async def test_commands_and_clicks_inside_a_thread(world: World) -> None:
    fake, bot, _, channel, alice, bob = world
    await fake.slash(bot, alice, channel, "demo thread", name="Table 9")
    (thread,) = fake.threads(channel)
    lobby = await fake.slash(bot, alice, thread, "demo open", table=9)
    assert lobby.answer.channel_id == thread.id
    seat = await fake.click(bot, bob, lobby, "seat:9:0")
    assert seat.content == "bob sat at seat 0" and seat.answer.channel_id == thread.id


async def test_the_guild_owner_has_every_permission(world: World) -> None:
    _fake, _bot, guild, _channel, *_ = world
    assert guild.owner.permissions() == discord.Permissions.all().value
    assert (
        guild.add_member("mod", manage_guild=True).permissions()
        & discord.Permissions(manage_guild=True).value
    )


async def test_an_ephemeral_reply_with_a_file_is_a_multipart_callback(world: World) -> None:
    fake, bot, _, channel, alice, _ = world
    fake.keep_upload_bytes = False
    result = await fake.slash(bot, alice, channel, "demo card")
    assert result.ephemeral and result.content == "Your card"
    (image,) = result.attachments
    assert image.filename == "your-card.png" and (image.width, image.height) == (5, 7)
    assert image.data.startswith(b"\x89PNG")
    assert result.message in fake.ephemeral_messages(alice) and not result.message.is_public
    callback = fake.requests_to("POST", "/interactions/{interaction_id}/{token}/callback")[-1]
    assert callback.json["type"] == 4 and callback.json["data"]["flags"] == 64
    (upload,) = callback.files
    assert (
        upload.filename == "your-card.png" and upload.data == b"" and upload.size == len(image.data)
    )


async def test_a_lagging_client_can_click_a_button_that_is_gone(world: World) -> None:
    fake, bot, _, channel, alice, bob = world
    lobby = await fake.slash(bot, alice, channel, "demo open", table=4)
    await fake.click(bot, alice, lobby, "lobby:close")
    stale = await fake.click(bot, bob, lobby, "seat:4:1", allow_stale=True)
    # Discord delivers it, but discord.py dispatches no DynamicItem that is not on the message.
    assert not stale.responded and bot.events == [("close", lobby.answer.id)]
    with pytest.raises(HarnessError, match="no component"):
        await fake.click(bot, bob, lobby, "seat:9:9", allow_stale=True)


async def test_string_select(world: World) -> None:
    fake, bot, _, channel, alice, _ = world
    menu = await fake.slash(bot, alice, channel, "demo bid")
    picked = await fake.select(bot, alice, menu, "bid:pick", ["90"])
    assert picked.content == "bid 90" and picked.ephemeral
    with pytest.raises(HarnessError, match="not options"):
        await fake.select(bot, alice, menu, "bid:pick", ["85"])
    with pytest.raises(HarnessError, match=r"takes 1\.\.1 values"):
        await fake.select(bot, alice, menu, "bid:pick", ["80", "90"])


async def test_servers_and_channels_that_change_after_login(world: World) -> None:
    fake, bot, guild, channel, *_ = world
    late = fake.add_guild("Late")
    carol = late.add_member("carol")
    await fake.settle()
    assert bot.get_guild(late.id) is not None
    (general,) = late.channels.values()
    result = await fake.slash(bot, carol, general, "demo open")
    assert result.content == "Table 1"
    fake.delete_channel(channel)
    await fake.settle()
    assert bot.get_channel(channel.id) is None
    with pytest.raises(HarnessError, match="deleted"):
        await fake.slash(bot, guild.owner, channel, "demo open")


async def test_a_slash_command_in_the_bots_dms(world: World) -> None:
    fake, bot, _, _, alice, _ = world
    dm = fake.dm_channel(alice, create=True)
    result = await fake.slash(bot, alice, dm, "demo card")
    assert result.answer.is_dm and result.answer.channel_id == dm.id
    assert result.content == "Your card"
