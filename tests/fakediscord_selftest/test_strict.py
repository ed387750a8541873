"""The fake refuses what Discord refuses, and the bot sees Discord's errors through discord.py."""

from __future__ import annotations

import time

import discord
import pytest

from tests.fakediscord import HarnessError

from .conftest import World, bot_channel, bot_member


async def test_a_late_reply_gets_unknown_interaction(world: World) -> None:
    fake, bot, _, channel, alice = world
    fake.callback_deadline = 0.2  # Discord's 3 s, shortened to keep the suite fast
    bot.late_delay = 0.3
    result = await fake.slash(bot, alice, channel, "demo late")
    assert not result.responded and result.error_codes == [10062]
    (error,) = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert fake.messages(channel) == []


async def test_a_reply_within_the_deadline_is_accepted(world: World) -> None:
    fake, bot, _, channel, alice = world
    fake.callback_deadline = 0.5
    bot.late_delay = 0.05
    result = await fake.slash(bot, alice, channel, "demo late")
    assert result.callback_type == 4 and result.content == "finally" and bot.errors == []
    assert result.latency is not None and 0.05 <= result.latency < 0.5


async def test_a_second_reply_gets_already_acknowledged(world: World) -> None:
    fake, bot, _, channel, alice = world
    result = await fake.slash(bot, alice, channel, "demo twice")
    assert result.content == "once" and result.error_codes == [40060]
    (error,) = bot.errors
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 40060
    assert [m.content for m in fake.messages(channel)] == ["once"]


async def test_six_buttons_in_a_row_is_an_invalid_form_body(world: World) -> None:
    fake, bot, _, channel, alice = world
    result = await fake.slash(bot, alice, channel, "demo wide")
    assert not result.responded and result.error_codes == [50035]
    (error,) = bot.errors
    assert error.code == 50035 and "components.0.components" in str(error)
    assert "5 or fewer" in str(error)


async def test_a_dm_to_a_user_with_closed_dms_is_forbidden(world: World) -> None:
    fake, bot, _, channel, alice = world
    alice.close_dms()
    result = await fake.slash(bot, alice, channel, "demo dm")
    (error,) = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert result.ephemeral and result.content == "Your DMs are closed"
    assert fake.dm_messages(alice) == []
    assert fake.requests_to("POST", "/channels/{channel_id}/messages")[-1].error_code == 50007


async def test_missing_send_messages_is_forbidden_and_visible_to_the_bot(world: World) -> None:
    fake, bot, guild, _, alice = world
    read_only = guild.add_text_channel(
        "read-only",
        bot_permissions=discord.Permissions(view_channel=True, read_message_history=True),
    )
    result = await fake.slash(bot, alice, read_only, "demo edit")
    (error,) = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50013
    # The deferred reply still works: interaction replies need no channel permission.
    assert result.callback_type == 5 and result.content == "failed: 50013"
    cached = bot_channel(bot, read_only.id)
    me = bot_member(bot, guild.id)
    assert not cached.permissions_for(me).send_messages and cached.permissions_for(me).view_channel


async def test_permission_changes_reach_the_bot_cache(world: World) -> None:
    fake, bot, guild, channel, alice = world
    me = bot_member(bot, guild.id)
    assert bot_channel(bot, channel.id).permissions_for(me).attach_files
    guild.set_bot_permissions(channel, discord.Permissions(view_channel=True, send_messages=True))
    await fake.settle()
    assert not bot_channel(bot, channel.id).permissions_for(me).attach_files
    result = await fake.slash(bot, alice, channel, "demo edit", mode="image")
    assert result.content == "failed: 50013"  # the edit uploading an image was refused


async def test_the_harness_refuses_what_a_user_cannot_do(world: World) -> None:
    fake, bot, _guild, channel, alice = world
    with pytest.raises(HarnessError, match="not a choice"):
        await fake.slash(bot, alice, channel, "demo edit", mode="video")
    with pytest.raises(HarnessError, match="> max 99"):
        await fake.slash(bot, alice, channel, "demo open", table=100)
    with pytest.raises(HarnessError, match="required"):
        await fake.slash(bot, alice, channel, "demo thread")
    with pytest.raises(HarnessError, match="no subcommand"):
        await fake.slash(bot, alice, channel, "demo nope")
    with pytest.raises(HarnessError, match="never synced"):
        await fake.slash(bot, alice, channel, "belote new")
    stranger = fake.add_guild("Elsewhere").add_member("mallory")
    with pytest.raises(HarnessError, match="not a member"):
        await fake.slash(bot, stranger, channel, "demo open")


async def test_disabled_buttons_and_others_ephemeral_messages_cannot_be_clicked(
    world: World,
) -> None:
    fake, bot, guild, channel, alice = world
    bob = guild.add_member("bob")
    lobby = await fake.slash(bot, alice, channel, "demo open")
    seat = await fake.click(bot, alice, lobby, "seat:1:0")
    with pytest.raises(HarnessError, match="ephemeral for someone else"):
        await fake.click(bot, bob, seat, "anything")
    with fake.lock:  # as if the bot had disabled the button
        fake.message(lobby.answer.id).component("seat:1:1")["disabled"] = True
    with pytest.raises(HarnessError, match="disabled"):
        await fake.click(bot, bob, lobby, "seat:1:1")


async def test_answers_are_exactly_application_json(world: World) -> None:
    import aiohttp

    fake, *_ = world
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.get(f"{fake.base_url}/api/v10/users/@me", headers=headers) as resp:
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["id"] == str(fake.bot_user.id)
        async with session.get(f"{fake.base_url}/api/v10/users/@me") as resp:
            assert resp.status == 401  # no token, no answer
        async with session.get(
            f"{fake.base_url}/api/v10/channels/1/messages", headers=headers
        ) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 10003


async def test_rate_limits_pace_the_bot_when_switched_on(world: World) -> None:
    fake, bot, _, channel, _ = world
    fake.rate_limits = True
    fake.rate_limiter.route_limits[("POST", "/channels/{channel_id}/messages")] = (5, 0.3)
    cached = bot_channel(bot, channel.id)
    for i in range(7):
        await cached.send(f"message {i}")
    sends = fake.requests_to("POST", "/channels/{channel_id}/messages")
    assert [m.content for m in fake.messages(channel)] == [f"message {i}" for i in range(7)]
    # discord.py read the headers and waited for the bucket to reset instead of hammering it.
    assert sends[5].at - sends[0].at >= 0.25
    assert [r.status for r in sends] == [200] * 7


async def test_a_slow_discord_answers_late_what_it_did_when_the_request_came(
        world: World) -> None:
    fake, bot, _, channel, _ = world
    fake.answer_delay = lambda: 0.3
    cached = bot_channel(bot, channel.id)
    started = time.monotonic()
    sent = await cached.send("late")
    answered = time.monotonic()
    (request,) = fake.requests_to("POST", "/channels/{channel_id}/messages")
    # The message was made when the request came, and its answer left 0.3 s later.
    assert [m.content for m in fake.messages(channel)] == ["late"] and sent.content == "late"
    assert request.status == 200 and request.at - started < answered - started - 0.29


async def test_a_request_over_the_limit_gets_429_with_what_discord_py_needs(world: World) -> None:
    import aiohttp

    fake, _, _, channel, _ = world
    fake.rate_limits = True
    fake.rate_limiter.route_limits[("GET", "/channels/{channel_id}")] = (1, 5.0)
    url = f"{fake.base_url}/api/v10/channels/{channel.id}"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as session:
        async with session.get(url) as first:
            assert first.status == 200 and first.headers["X-RateLimit-Remaining"] == "0"
        async with session.get(url) as second:
            body = await second.json()
            assert second.status == 429 and second.headers["Via"]
            assert 4 < body["retry_after"] <= 5 and body["global"] is False


async def test_webhook_tokens_need_an_acknowledged_live_interaction(world: World) -> None:
    import aiohttp

    fake, bot, _, channel, alice = world
    bot.late_delay = 0.2
    pending = await fake.slash(bot, alice, channel, "demo late", wait=False)
    app, token = fake.application_id, pending.record.token
    url = f"{fake.base_url}/api/v10/webhooks/{app}/{token}"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"content": "too early"}) as early:
            assert early.status == 404 and (await early.json())["code"] == 10015
        await fake.settle()
        assert pending.content == "finally"
        async with session.get(f"{url}/messages/@original") as original:
            assert (await original.json())["content"] == "finally"
        fake.token_lifetime = 0.0
        async with session.patch(f"{url}/messages/@original", json={"content": "x"}) as stale:
            assert stale.status == 401 and (await stale.json())["code"] == 50027
    assert fake.message(pending.answer.id).content == "finally"


async def test_an_edit_through_a_token_counts_against_its_channels_message_edits(
        world: World) -> None:
    import aiohttp

    fake, bot, _, channel, alice = world
    pending = await fake.slash(bot, alice, channel, "demo late", wait=False)
    await fake.settle()
    fake.rate_limits = True
    fake.rate_limiter.route_limits[("PATCH", "/channels/{channel_id}/messages/{message_id}")] = (
        1, 5.0)
    url = f"{fake.base_url}/api/v10/webhooks/{fake.application_id}/{pending.record.token}"
    async with aiohttp.ClientSession() as session:
        async with session.patch(f"{url}/messages/@original", json={"content": "one"}) as first:
            assert first.status == 200 and first.headers["X-RateLimit-Remaining"] == "0"
        async with session.patch(f"{url}/messages/@original", json={"content": "two"}) as second:
            assert second.status == 429 and (await second.json())["global"] is False
    assert fake.message(pending.answer.id).content == "one"
    # Not against the global limit: tokens are outside it.
    assert not any(r.counts_against_global_limit
                   for r in fake.requests_to("PATCH", "/webhooks/{app_id}/{token}/messages/"
                                             "{message_id}"))
