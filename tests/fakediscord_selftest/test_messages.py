"""Messages, DMs, files, threads, modals and restarts through the fake."""

from __future__ import annotations

import io
import socket

import aiohttp
import discord
import pytest
from PIL import Image

from tests.fakediscord import HarnessError, NetworkBlocked, no_network

from .conftest import World
from .demo_bot import DemoBot


async def test_dm_with_an_image_is_recorded_with_its_bytes(world: World) -> None:
    fake, bot, _, channel, alice = world
    result = await fake.slash(bot, alice, channel, "demo dm")
    assert result.ephemeral and result.content == "Sent you a DM"
    (dm,) = fake.dm_messages(alice)
    assert dm.is_dm and not dm.is_public and dm.content == "Your hand"
    (image,) = dm.attachments
    assert image.filename == "hand.png" and (image.width, image.height) == (8, 4)
    assert Image.open(io.BytesIO(image.data)).size == (8, 4)
    upload = fake.requests_to("POST", "/channels/{channel_id}/messages")[-1]
    assert upload.files[0].filename == "hand.png" and upload.json["content"] == "Your hand"
    async with aiohttp.ClientSession() as session, session.get(image.url) as resp:
        assert await resp.read() == image.data


async def test_edits_keep_every_version_and_replace_attachments(world: World) -> None:
    fake, bot, _, channel, alice = world
    result = await fake.slash(bot, alice, channel, "demo edit", mode="image")
    assert result.callback_type == 5 and result.content == "done" and result.ephemeral
    assert result.answer.flags & 128 == 0  # the follow-up replaced the "thinking..." state
    (posted,) = fake.messages(channel)
    assert posted.content == "second" and posted.edited_at is not None
    assert [v.content for v in posted.versions] == ["first", "second"]
    assert [v.attachment_names for v in posted.versions] == [[], ["table.png"]]
    assert (posted.attachments[0].width, posted.attachments[0].height) == (16, 9)


async def test_threads_are_created_cached_and_written_to(world: World) -> None:
    fake, bot, _, channel, alice = world
    result = await fake.slash(bot, alice, channel, "demo thread", name="Table 1")
    (thread,) = fake.threads(channel)
    assert thread.name == "Table 1" and thread.type == 11
    assert result.content == f"Opened <#{thread.id}>"
    assert [m.content for m in fake.messages(thread)] == ["Welcome to the table"]
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.parent_id == channel.id


async def test_thread_in_a_channel_without_thread_permission(world: World) -> None:
    fake, bot, guild, _, alice = world
    no_threads = guild.add_text_channel(
        "plain", bot_permissions=discord.Permissions(view_channel=True, send_messages=True)
    )
    result = await fake.slash(bot, alice, no_threads, "demo thread", name="Table 2")
    # The command raised Forbidden before answering: Discord then shows "interaction failed".
    assert not result.responded and fake.threads(no_threads) == []
    assert fake.requests_to("POST", "/channels/{channel_id}/threads")[-1].error_code == 50013
    # The escaped exception is on record (and would fail the test if left there).
    (logged,) = fake.bot_errors
    assert logged.exc_info is not None
    error = logged.exc_info[1]
    assert isinstance(error, discord.app_commands.CommandInvokeError)
    assert isinstance(error.original, discord.Forbidden)
    fake.bot_errors.clear()


async def test_member_options_carry_resolved_data(world: World) -> None:
    fake, bot, guild, channel, alice = world
    bob = guild.add_member("bob")
    result = await fake.slash(bot, alice, channel, "demo sit", member=bob)
    assert result.content == "bob is seated"


async def test_modal_round_trip(world: World) -> None:
    fake, bot, _, channel, alice = world
    opened = await fake.slash(bot, alice, channel, "demo name")
    assert opened.callback_type == 9 and opened.modal is not None
    assert opened.modal["title"] == "Name the table"
    submitted = await fake.submit_modal(bot, alice, opened, {"modal:name": "Chez Léon"})
    assert submitted.content == "named Chez Léon"
    with pytest.raises(HarnessError, match="required"):
        await fake.submit_modal(bot, alice, opened, {})


async def test_old_buttons_work_on_a_restarted_bot(world: World) -> None:
    fake, bot, _, channel, alice = world
    lobby = await fake.slash(bot, alice, channel, "demo open", table=5)
    await fake.disconnect(bot)
    with pytest.raises(HarnessError, match="not connected"):
        await fake.click(bot, alice, lobby, "seat:5:1")
    fresh = await fake.start_bot(DemoBot)
    # The second login found its commands already registered: same ids, nothing new to users.
    assert len(fake.registered_commands()) == 1
    seat = await fake.click(fresh, alice, lobby, "seat:5:1")
    assert seat.content == "alice sat at seat 1" and fresh.events == [("seat", 5, 1, alice.id)]
    closed = await fake.click(fresh, alice, lobby, "lobby:close")
    assert closed.callback_type == 7 and fake.message(lobby.answer.id).content == "Lobby closed"


async def test_the_bot_never_opens_a_gateway(world: World) -> None:
    _, bot, *_ = world
    with pytest.raises(HarnessError, match="real gateway"):
        await bot.connect()


def test_no_network_beyond_loopback() -> None:
    with no_network() as attempts:
        with pytest.raises(NetworkBlocked):
            socket.getaddrinfo("discord.com", 443)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        with pytest.raises(NetworkBlocked):
            sock.connect(("192.0.2.1", 443))
        sock.close()
        assert socket.getaddrinfo("127.0.0.1", 80)
    assert attempts == ["lookup 'discord.com'", "connect ('192.0.2.1', 443)"]
