"""One failed request of each kind (a 5xx, or a connection dropped) all through a match: every
table and hand ends up showing the newest state, the match plays to its end, and each failure
is one WARNING line, never an ERROR or a traceback."""

from __future__ import annotations

import logging

import pytest

from bot.controls import button_id
from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord

from .failing_discord import ManualClock, assert_shows_now, clocked_world, delivered
from .table_helpers import World, open_table, play_turn, seat_everyone

pytestmark = pytest.mark.usefixtures("instant_discord_retries")

MESSAGE = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "/webhooks/{app_id}/{token}"


def loud(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name} {r.levelname}: {r.getMessage()}" for r in caplog.records
            if r.levelno >= logging.ERROR or r.exc_info]


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path) -> World:
    return await clocked_world(fake_discord, database_path, ManualClock(instant=True))


async def started(w: World) -> int:
    table_id, lobby = await open_table(w, w.members[0], variant="classic", target=1)
    await seat_everyone(w, table_id, lobby, w.members)
    r = await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    assert r.callback_type == 7, r.text
    return table_id


def arm(w: World, table_id: int, kind: str, drop: bool) -> None:
    """One failure on the next request of this kind."""
    fake, live = w.fake, w.bot.service.live[table_id]
    fake.faults.rules.clear()
    if kind == "table":
        fake.faults.fail("PATCH", MESSAGE, drop=drop,
                         path=f"/channels/{live.row.home_id}/messages/{live.row.message_id}")
    elif kind == "hand":
        dms = "|".join(str(s.dm_channel_id) for s in live.seats.values())
        fake.faults.fail("PATCH", MESSAGE, drop=drop, path=rf"/channels/({dms})/messages/\d+")
    else:  # the answer to the click: every try discord.py makes, or the connection once
        fake.faults.fail("POST", CALLBACK, drop=drop, times=1 if drop else 5)


@pytest.mark.parametrize("drop", [False, True], ids=["503", "dropped"])
@pytest.mark.parametrize("kind", ["table", "hand", "answer"])
async def test_one_failure_on_every_request_of_a_kind_loses_nothing(
        world: World, kind: str, drop: bool, caplog: pytest.LogCaptureFixture):
    bot = world.bot
    table_id = await started(world)
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
    assert any(r.levelno == logging.WARNING and r.name.startswith("bot") for r in caplog.records)


def world_clock(w: World) -> ManualClock:
    return w.bot.delivery.jobs.sleep.__self__  # the ManualClock whose sleep the Outbox uses


@pytest.mark.parametrize("drop", [False, True], ids=["503", "dropped"])
async def test_a_failed_follow_up_of_belote_new_is_sent_again(
        world: World, drop: bool, caplog: pytest.LogCaptureFixture):
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
        world: World, drop: bool, caplog: pytest.LogCaptureFixture):
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
