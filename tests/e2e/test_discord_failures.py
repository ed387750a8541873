"""One failed request of each kind (a 5xx, or a connection dropped) all through a match: every
table and hand ends up showing the newest state, the match plays to its end, and each failure
is one WARNING line, never an ERROR or a traceback."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord

from .failing_discord import ManualClock, assert_shows_now, clocked_world, delivered
from .table_helpers import World, play_turn, start_one_deal_table

pytestmark = pytest.mark.usefixtures("instant_discord_retries")

MESSAGE = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "/webhooks/{app_id}/{token}"
TOKEN_EDIT = "/webhooks/{app_id}/{token}/messages/{message_id}"


def loud(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name} {r.levelname}: {r.getMessage()}" for r in caplog.records
            if r.levelno >= logging.ERROR or r.exc_info]


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path) -> World:
    return await clocked_world(fake_discord, database_path, ManualClock(instant=True))


def arm(w: World, table_id: int, kind: str, drop: bool) -> None:
    """One failure on the next request of this kind."""
    fake, live = w.fake, w.bot.service.live[table_id]
    fake.faults.rules.clear()
    if kind == "table":  # edited through the token of the click that started the game
        token = w.bot.delivery.tokens.table[table_id][0].token
        fake.faults.fail("PATCH", TOKEN_EDIT, drop=drop,
                         path=f"/webhooks/{fake.application_id}/{token}/messages/@original")
    elif kind == "table message":  # no token left: edited as a message
        w.bot.delivery.tokens.table.pop(table_id, None)
        fake.faults.fail("PATCH", MESSAGE, drop=drop,
                         path=f"/channels/{live.row.home_id}/messages/{live.row.message_id}")
    elif kind == "hand":
        dms = "|".join(str(s.dm_channel_id) for s in live.seats.values())
        fake.faults.fail("PATCH", MESSAGE, drop=drop, path=rf"/channels/({dms})/messages/\d+")
    else:  # the answer to the click: every try discord.py makes, or the connection once
        fake.faults.fail("POST", CALLBACK, drop=drop, times=1 if drop else 5)


@pytest.mark.parametrize("drop", [False, True], ids=["503", "dropped"])
@pytest.mark.parametrize("kind", ["table", "table message", "hand", "answer"])
async def test_one_failure_on_every_request_of_a_kind_loses_nothing(
        world: World, kind: str, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    bot = world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    caplog.set_level(logging.INFO)
    rng = RandomPlayer(3)
    clicks = 0
    while table_id in bot.service.live:
        arm(world, table_id, kind, drop)
        await play_turn(world, table_id, rng)
        clicks += 1
        assert clicks < 400
    await delivered(world, world_clock(world))
    assert live.row.status == "finished"
    assert len(await bot.service.db.log.entries(table_id)) == live.seq
    await assert_shows_now(world, live)  # the final edits: no controls left, the result shown
    assert not loud(caplog), loud(caplog)
    failed = [r for r in world.fake.requests_to() if r.status in (0, 503)]
    assert failed  # there were failures to meet
    if kind != "table" or drop:  # (discord.py tries a token's 503 again itself, silently)
        assert any(r.levelno == logging.WARNING and r.name.startswith("bot")
                   for r in caplog.records)


def world_clock(w: World) -> ManualClock:
    clock = w.bot.delivery.jobs.sleep.__self__  # the ManualClock whose sleep the Outbox uses
    assert isinstance(clock, ManualClock)
    return clock


@pytest.mark.parametrize("drop", [False, True], ids=["503", "dropped"])
async def test_a_failed_follow_up_of_belote_new_is_sent_again(
        world: World, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    fake = world.fake
    caplog.set_level(logging.INFO)
    fake.faults.fail("POST", FOLLOWUP, drop=drop)
    r = await fake.slash(world.bot, world.members[0], world.channel, "belote new",
                         variant="classic", target=1)
    await delivered(world, world_clock(world))
    assert "opened Belote table" in r.text, r.text
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("drop", [False, True], ids=["503", "dropped"])
async def test_a_failed_post_of_the_table_message_is_sent_again(
        world: World, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    fake = world.fake
    caplog.set_level(logging.INFO)
    fake.faults.fail("POST", "/channels/{channel_id}/messages", drop=drop)
    r = await fake.slash(world.bot, world.members[0], world.channel, "belote new",
                         variant="classic", target=1)
    await delivered(world, world_clock(world))
    assert "opened Belote table" in r.text, r.text
    live = world.bot.service.table_of(world.guild.id, world.members[0].id)
    assert live is not None and live.row.message_id is not None
    lobby = fake.message(live.row.message_id)
    assert lobby.custom_ids and not lobby.deleted
    assert not loud(caplog), loud(caplog)
