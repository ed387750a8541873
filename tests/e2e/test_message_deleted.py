"""A table message deleted is noticed when Discord tells of it (issue 49), not at the table's
next edit: the bot hears MESSAGE_DELETE and MESSAGE_DELETE_BULK (the fake Discord sends them to
a bot with the guild_messages intent) and posts the table again where it was, with live buttons
and one notice, before anyone moves; a deletion of anything else costs no call. Discord failing
on the way is one WARNING and the table comes back once it answers. One deleted while the bot
was down is looked for at the start where its thread's counts say a message of it was deleted,
and only there: a restart where none was makes no call for it."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot import create_bot
from bot.controls import button_id
from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord

from .failing_discord import ManualClock, clocked_world, delivered
from .table_helpers import (
    World,
    make_world,
    open_table,
    play_out,
    play_turn,
    start_one_deal_table,
)
from .test_undelivered_sends import (
    FAILURES,
    NAMES,
    POSTS,
    loud,
    not_delivered,
    thread_posts,
    world_clock,
)

MESSAGE = r"/channels/\{channel_id\}/messages/\{message_id\}"
NOTICE = "goes on here: its message was deleted."


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(instant=True)


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: ManualClock) -> World:
    """A bot whose Outbox waits on a manual clock (its tries again come at once)."""
    return await clocked_world(fake_discord, database_path, clock, names=NAMES)


def tables_in(w: World, thread: int) -> list[Any]:
    """The table messages (with buttons) still in the thread."""
    return [m for m in w.fake.messages(w.fake.channel(thread)) if m.custom_ids and not m.deleted]


async def test_a_deleted_table_message_is_posted_again_at_once(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    rng = RandomPlayer(5)
    for _ in range(3):
        await play_turn(world, table_id, rng)
    await fake.settle()
    live = bot.service.live[table_id]
    old, thread, seq = live.row.message_id, live.row.thread_id, live.seq
    assert old is not None and thread is not None
    caplog.set_level(logging.INFO)
    fake.delete_message(fake.message(old))
    await delivered(world, world_clock(world))
    assert live.seq == seq  # nobody moved
    assert live.row.message_id not in (None, old) and live.row.home_id == thread
    assert [m.id for m in tables_in(world, thread)] == [live.row.message_id]
    table = fake.message(live.row.message_id)
    assert f"deal {len(live.match.deals)}" in table.content and button_id(
        "hand", table_id) in table.custom_ids
    assert [m.content for m in thread_posts(world, table_id, NOTICE)] == \
        [f"Table #{table_id} {NOTICE}"]
    assert not loud(caplog), loud(caplog)
    # It plays on in the new message; the old one is never asked for again.
    mark = fake.mark()
    mine = await fake.click(bot, world.members[2], table, button_id("hand", table_id))
    assert mine.ephemeral, mine.text
    await play_turn(world, table_id, rng)
    await fake.settle()
    assert not [r for r in fake.requests_to(since=mark) if str(old) in r.path]
    assert await play_out(world, table_id, seed=6) > 0
    assert not loud(caplog), loud(caplog)


async def test_a_bulk_delete_with_the_table_message_posts_it_again_once(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    await fake.settle()
    live = bot.service.live[table_id]
    old, thread = live.row.message_id, live.row.thread_id
    assert thread is not None
    chat = [fake.say(world.members[n], thread, f"message {n}") for n in (1, 2)]
    caplog.set_level(logging.INFO)
    fake.delete_messages([chat[0], fake.message(old), chat[1]])
    await delivered(world, world_clock(world))
    assert live.row.message_id != old
    assert [m.id for m in tables_in(world, thread)] == [live.row.message_id]
    assert len(thread_posts(world, table_id, NOTICE)) == 1
    assert not loud(caplog), loud(caplog)
    await play_turn(world, table_id, RandomPlayer(1))


async def test_a_lobby_deleted_is_posted_again_and_its_seats_still_work(
        world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, lobby = await open_table(world, world.members[0], variant="classic", target=1)
    await fake.settle()
    fake.delete_message(lobby)
    await delivered(world, world_clock(world))
    live = bot.service.live[table_id]
    again = fake.message(live.row.message_id)
    assert again.id != lobby.id and not again.deleted
    sat = await fake.click(bot, world.members[1], again, button_id("sit", table_id, 1))
    assert sat.callback_type == 7, sat.text
    assert 1 in live.seats


async def test_other_messages_deleted_cost_nothing(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    await fake.settle()
    live = bot.service.live[table_id]
    old = live.row.message_id
    mark = fake.mark()
    said = fake.say(world.members[1], live.row.home_id, "gg")
    fake.delete_message(said)
    elsewhere = fake.say(world.members[2], world.channel, "hello")
    fake.delete_messages([elsewhere])
    await delivered(world, world_clock(world))
    assert fake.requests_to(since=mark) == [] and live.row.message_id == old


@pytest.mark.parametrize("drop", FAILURES)
async def test_discord_failing_as_it_is_posted_again_is_one_warning_then_it_comes_back(
        world: World, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    await fake.settle()
    live = bot.service.live[table_id]
    old, thread = live.row.message_id, live.row.thread_id
    caplog.set_level(logging.INFO)
    # Every try of the post the deletion makes fails; the table's edit in the Outbox then
    # finds the message gone and posts it once Discord answers.
    fake.faults.fail("POST", POSTS, drop=drop, times=4, path=f"/channels/{thread}/messages")
    fake.delete_message(fake.message(old))
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    warned = not_delivered(caplog)
    assert len(warned) == 1 and "its post after its message was deleted" in warned[0], warned
    assert live.row.message_id != old and live.row.home_id == thread
    assert [m.id for m in tables_in(world, thread)] == [live.row.message_id]  # posted once
    assert len(thread_posts(world, table_id, NOTICE)) == 1
    assert not loud(caplog), loud(caplog)
    assert await play_out(world, table_id, seed=3) > 0
    assert not loud(caplog), loud(caplog)


async def restart(w: World, database_path: Path) -> int:
    """Stop the bot and start it again on the same database; the request mark of the start."""
    await w.fake.disconnect(w.bot)
    mark = w.fake.mark()
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()
    return mark


def looks(w: World, mark: int, message_id: int | None) -> list[Any]:
    return [r for r in w.fake.requests_to(route=MESSAGE, since=mark)
            if r.method == "GET" and str(message_id) in r.path]


async def test_a_restart_looks_for_a_table_message_only_where_a_message_was_deleted(
        fake_discord: FakeDiscord, database_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    w = await make_world(fake_discord, database_path)
    fake = w.fake
    table_id = await start_one_deal_table(w)
    await play_turn(w, table_id, RandomPlayer(1))
    await fake.settle()
    live = w.bot.service.live[table_id]
    old, thread = live.row.message_id, live.row.thread_id
    # Nothing deleted in its thread: the restart makes no call for it.
    mark = await restart(w, database_path)
    assert looks(w, mark, old) == []
    # Deleted while the bot was down: found at the start and posted again, before anyone
    # moves (the players and the others watching see it at once).
    await fake.disconnect(w.bot)
    fake.delete_message(fake.message(old))
    mark = fake.mark()
    caplog.set_level(logging.INFO)
    w.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    await fake.settle()
    live = w.bot.service.live[table_id]
    assert len(looks(w, mark, old)) == 1
    assert live.row.message_id != old and live.row.home_id == thread
    assert [m.id for m in tables_in(w, thread)] == [live.row.message_id]
    assert len(thread_posts(w, table_id, NOTICE)) == 1
    assert not [r for r in caplog.records if r.levelno > logging.WARNING], caplog.text
    # A later restart looks once more (the thread keeps its count of a deletion), and finds
    # the new message there: nothing posted.
    mark = await restart(w, database_path)
    new = w.bot.service.live[table_id].row.message_id
    assert len(looks(w, mark, new)) == 1 and len(tables_in(w, thread)) == 1
    result = await play_turn(w, table_id, RandomPlayer(2))
    assert result.callback_type == 7, result.text
