"""A POST that reached Discord but whose answer was lost is sent again, and leaves one message:
every post the bot sends again (deal sheets, the match result, notices in the thread, a new DM
hand) carries a nonce that is the same on every try, with ``enforce_nonce``, and Discord (as
the fake) answers a repeated nonce with the message the first try made."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.controls import button_id
from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord

from .failing_discord import ManualClock, clocked_world, delivered
from .table_helpers import World, open_table, play_turn, seat_everyone

pytestmark = pytest.mark.usefixtures("instant_discord_retries")

POST = "/channels/{channel_id}/messages"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(instant=True)


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: object, clock: ManualClock) -> World:
    return await clocked_world(fake_discord, database_path, clock)


async def started(w: World) -> int:
    table_id, lobby = await open_table(w, w.members[0], variant="classic", target=1)
    await seat_everyone(w, table_id, lobby, w.members)
    r = await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    assert r.callback_type in (6, 7), r.text
    return table_id


async def test_a_post_whose_answer_was_lost_is_not_posted_twice(world: World,
                                                                clock: ManualClock) -> None:
    fake, bot = world.fake, world.bot
    table_id = await started(world)
    home = bot.service.live[table_id].row.home_id
    # The first post in the table's thread (the deal sheet) reaches Discord, and the
    # connection drops before its answer: the bot cannot know it was made.
    fault = fake.faults.fail("POST", POST, drop=True, after=True,
                             path=rf"/channels/{home}/messages")
    mark, before = fake.mark(), len(fake.messages(home))  # the table message
    rng = RandomPlayer(4)
    for _ in range(400):
        if table_id not in bot.service.live:
            break
        r = await play_turn(world, table_id, rng)
        assert r.callback_type in (6, 7), r.text
    await delivered(world, clock)
    assert table_id not in bot.service.live  # the match is over: deal sheet and result posted
    assert fault.hits == 1
    posts = [r for r in fake.requests_to("POST", POST, since=mark)
             if r.path == f"/channels/{home}/messages"]
    texts = [m.content for m in fake.messages(home)]
    # Tried again after the lost answer (one more request than messages), one message each.
    assert len(posts) == len(texts) - before + 1
    assert [t for t, n in Counter(texts).items() if n > 1] == []
    assert any("Deal 1" in t or "deal 1" in t for t in texts), texts


async def test_the_fake_answers_a_repeated_nonce_with_the_first_message(
        world: World) -> None:
    """As Discord: the same nonce from the same author, with enforce_nonce, within a few
    minutes, makes no second message; without enforce_nonce, or another nonce, it does."""
    channel = world.bot.get_partial_messageable(world.channel.id)
    first = await channel.send("sheet", nonce="abc")
    again = await channel.send("sheet", nonce="abc")
    other = await channel.send("sheet", nonce="abd")
    assert again.id == first.id and other.id != first.id
    assert [m.content for m in world.fake.messages(world.channel)] == ["sheet", "sheet"]


async def test_a_new_table_message_whose_answer_was_lost_is_posted_once(
        world: World, clock: ManualClock) -> None:
    # /belote new posts the table message in its new thread; the post reaches Discord and
    # the connection drops before its answer. Sent again, it leaves one table message, and
    # that message is the one the table lives in (its buttons work).
    fake = world.fake
    fault = fake.faults.fail("POST", POST, drop=True, after=True,
                             path=r"/channels/\d+/messages")
    table_id, lobby = await open_table(world, world.members[0], variant="classic", target=1)
    await delivered(world, clock)
    assert fault.hits == 1
    live = world.bot.service.live[table_id]
    posted = [m for m in fake.messages(live.row.home_id) if m.custom_ids]
    assert [m.id for m in posted] == [live.row.message_id]
    r = await fake.click(world.bot, world.members[1], lobby, button_id("sit", table_id, 1))
    assert r.callback_type == 7, r.text
