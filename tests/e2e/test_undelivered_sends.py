"""Sends outside the table's Outbox that Discord fails, with a 5xx and with a dropped connection:
the thread of /belote new, a table message posted anew or moved, the check of a table's
channel at a restart, a time-out notice, a tournament's sign-up edit, table threads and final
post, an audit post. Each failure is one WARNING (never an ERROR or a traceback), counted with
an outage's failures; nothing is lost (the table opens in the channel, the post is sent again,
the member is told), and nothing is posted twice."""

from __future__ import annotations

import logging
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest

import service.challenge as bot_challenge
import service.seasons as bot_seasons
from bot.bot import BeloteBot
from bot.controls import button_id
from game.players import RandomPlayer
from service.tables.clock import FakeClock
from tests.clocks import DateClock
from tests.fakediscord import FakeDiscord

from . import test_challenge as challenge_tests
from . import test_seasons as season_tests
from .failing_discord import (
    ManualClock,
    assert_shows_now,
    clocked_world,
    delivered,
    restart,
    until_parked,
)
from .table_helpers import World, open_table, play_out, play_turn, start_one_deal_table

pytestmark = pytest.mark.usefixtures("instant_discord_retries")

POSTS = "/channels/{channel_id}/messages"
THREADS = "/channels/{channel_id}/threads"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
CHANNEL = "/channels/{channel_id}"
FAILURES = [pytest.param(False, id="503"), pytest.param(True, id="dropped")]
# The table messages these tests delete are deleted unheard, while the bot's gateway was away:
# one the bot hears of is posted again at once (tests/e2e/test_message_deleted.py); one it
# missed is found by /belote show or at the table's next edit, the paths taken here.
NAMES = ("ana", "bo", "cy", "dee", "eve", "fay", "gus", "hal")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(instant=True)


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: ManualClock) -> World:
    return await clocked_world(fake_discord, database_path, clock, names=NAMES)


def loud(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name} {r.levelname}: {r.getMessage()}" for r in caplog.records
            if r.levelno > logging.WARNING or r.exc_info]


def not_delivered(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno == logging.WARNING and r.getMessage().startswith("not delivered")]


def counted(bot: BeloteBot) -> list[Hashable]:
    """What the bot's Outbox counts as Discord's failures from now on (an outage is 3 in a
    row): the health check and the metrics say Discord is down from them."""
    seen: list[Hashable] = []
    outbox = bot.delivery.jobs
    failed = outbox.failed

    def spy(what: Hashable, exc: BaseException) -> bool:
        seen.append(what)
        return failed(what, exc)

    outbox.failed = spy  # type: ignore[method-assign]
    return seen


def thread_posts(w: World, table_id: int, text: str) -> list[Any]:
    live = w.bot.service.live[table_id]
    return [m for m in w.fake.messages(w.fake.channel(live.row.home_id)) if text in m.content]


@pytest.mark.parametrize("drop", FAILURES)
async def test_belote_new_opens_in_the_channel_when_its_thread_fails(
        world: World, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    caplog.set_level(logging.INFO)
    failures = counted(bot)
    fake.faults.fail("POST", THREADS, drop=drop)
    r = await fake.slash(bot, world.members[0], world.channel, "belote new",
                         variant="classic", target=1)
    await delivered(world, world_clock(world))
    assert "I could not open a thread, so the table is here" in r.text, r.text
    live = bot.service.table_of(world.guild.id, world.members[0].id)
    assert live is not None and live.row.thread_id is None and live.row.message_id is not None
    lobby = fake.message(live.row.message_id)
    assert lobby.channel_id == world.channel.id and lobby.custom_ids
    assert not fake.threads(world.channel)
    warned = not_delivered(caplog)
    assert len(warned) == 1 and warned[0].startswith(
        f"not delivered: table {live.id}: its thread ("), warned
    assert len(failures) == 1  # counted with an outage's
    assert not loud(caplog), loud(caplog)
    sat = await fake.click(bot, world.members[1], lobby, button_id("sit", live.id, 1))
    assert sat.callback_type == 7, sat.text  # the table works where it is


def world_clock(w: World) -> ManualClock:
    clock = w.bot.delivery.jobs.sleep.__self__  # the ManualClock whose sleep the Outbox uses
    assert isinstance(clock, ManualClock)
    return clock


async def test_show_posts_a_deleted_table_message_again(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    rng = RandomPlayer(5)
    for _ in range(3):
        await play_turn(world, table_id, rng)
    live = bot.service.live[table_id]
    old, thread = live.row.message_id, live.row.thread_id
    assert old is not None and thread is not None
    fake.delete_message(fake.message(old), unheard=True)
    await fake.settle()
    caplog.set_level(logging.INFO)
    r = await fake.slash(bot, world.members[1], world.channel, "belote show")
    assert r.ephemeral and r.text == f"Table #{table_id} is in <#{thread}>.", r.text
    assert live.row.message_id not in (None, old) and live.row.home_id == thread
    table = fake.message(live.row.message_id)
    assert table.channel_id == thread and not table.deleted and table.custom_ids
    assert [m.content for m in thread_posts(world, table_id, "goes on here")] == \
        [f"Table #{table_id} goes on here: its message was deleted."]
    assert len([m for m in fake.messages(fake.channel(thread)) if m.custom_ids
                and not m.deleted]) == 1  # one table message, the new one
    await assert_shows_now(world, live)
    assert not loud(caplog), loud(caplog)
    # The old message is forgotten: the table plays on, shown in the new one.
    mark = fake.mark()
    await play_turn(world, table_id, rng)
    await fake.settle()
    assert not [q for q in fake.requests_to(since=mark) if str(old) in q.path]
    await assert_shows_now(world, live)
    again = await fake.slash(bot, world.members[1], world.channel, "belote show")
    assert again.text == f"Table #{table_id} is in <#{thread}>."
    assert await play_out(world, table_id, seed=6) > 0
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("drop", FAILURES)
async def test_show_says_so_when_discord_fails_and_works_once_it_answers(
        world: World, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    old, thread = live.row.message_id, live.row.thread_id
    fake.delete_message(fake.message(old), unheard=True)
    await fake.settle()
    caplog.set_level(logging.INFO)
    failures = counted(bot)
    member = world.members[2]
    failed = f"Discord did not answer: table #{table_id} could not be shown just now"
    # Its message cannot be looked for.
    fake.faults.fail("GET", MESSAGE, drop=drop, path=f"/channels/{thread}/messages/{old}",
                     times=1 + drop)  # (aiohttp tries a GET again itself on a dropped one)
    r = await fake.slash(bot, member, world.channel, "belote show")
    assert r.ephemeral and failed in r.text, r.text
    assert len(not_delivered(caplog)) == 1 and failures
    # Found gone, but it cannot be posted anew (every try the bot makes).
    fake.faults.fail("POST", POSTS, drop=drop, times=4, path=f"/channels/{thread}/messages")
    r = await fake.slash(bot, member, world.channel, "belote show")
    assert r.ephemeral and failed in r.text, r.text
    assert len(not_delivered(caplog)) == 2 and len(failures) == 5
    assert live.row.message_id == old  # nothing moved
    assert not loud(caplog), loud(caplog)
    # Discord answers again: the table is posted anew, once.
    r = await fake.slash(bot, member, world.channel, "belote show")
    assert r.text == f"Table #{table_id} is in <#{thread}>.", r.text
    await delivered(world, world_clock(world))
    assert live.row.message_id != old and fake.message(live.row.message_id).custom_ids
    assert len(thread_posts(world, table_id, "goes on here")) == 1
    await assert_shows_now(world, live)
    assert await play_out(world, table_id, seed=4) > 0
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("failing", ["503", "dropped", "answer lost"])
async def test_a_deleted_table_message_is_posted_again_though_discord_fails_on_the_way(
        world: World, failing: str, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    old, thread = live.row.message_id, live.row.thread_id
    fake.delete_message(fake.message(old), unheard=True)
    await fake.settle()
    caplog.set_level(logging.INFO)
    # Every try of the post fails (then the table's edit in the Outbox comes back to it), or
    # one's answer is lost after the post was made (its nonce gives it back on the next try).
    if failing == "answer lost":
        fake.faults.fail("POST", POSTS, drop=True, after=True, path=f"/channels/{thread}/messages")
    else:
        fake.faults.fail("POST", POSTS, drop=failing == "dropped", times=4,
                         path=f"/channels/{thread}/messages")
    rng = RandomPlayer(2)
    await play_turn(world, table_id, rng)
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    assert live.row.message_id != old and live.row.home_id == thread
    tables = [m for m in fake.messages(fake.channel(thread)) if m.custom_ids and not m.deleted]
    assert [m.id for m in tables] == [live.row.message_id]  # posted once
    assert len(thread_posts(world, table_id, "goes on here")) == 1
    await assert_shows_now(world, live)
    assert not loud(caplog), loud(caplog)
    assert await play_out(world, table_id, seed=3) > 0
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("drop", FAILURES)
async def test_a_table_moved_out_of_its_deleted_thread_though_discord_fails(
        world: World, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    caplog.set_level(logging.INFO)
    failures = counted(bot)
    fake.faults.fail("POST", POSTS, drop=drop, times=4,
                     path=f"/channels/{world.channel.id}/messages")
    fake.delete_channel(fake.channel(live.row.thread_id))
    await fake.settle()
    await delivered(world, world_clock(world))
    assert len(failures) >= 4 and len(not_delivered(caplog)) == 1
    assert live.row.thread_id is None and live.row.channel_id == world.channel.id
    assert live.lost is None and fake.message(live.row.message_id).custom_ids
    assert [m.content for m in fake.messages(world.channel) if "goes on here" in m.content] \
        == [f"Table #{table_id} goes on here: its thread was deleted."]
    assert not loud(caplog), loud(caplog)
    assert await play_out(world, table_id, seed=8) > 0


@pytest.mark.parametrize("drop", FAILURES)
async def test_a_restart_whose_check_of_a_channel_fails_finds_it_at_the_first_edit(
        world: World, clock: ManualClock, database_path: Path, drop: bool,
        caplog: pytest.LogCaptureFixture) -> None:
    fake = world.fake
    table_id = await start_one_deal_table(world)
    thread = world.bot.service.live[table_id].row.thread_id
    await fake.disconnect(world.bot)
    fake.delete_channel(fake.channel(thread))
    caplog.set_level(logging.INFO)
    caplog.clear()
    fake.faults.fail("GET", CHANNEL, drop=drop, path=f"/channels/{thread}",
                     times=1 + drop)  # (aiohttp tries a GET again itself on a dropped one)
    await restart(world, database_path, clock)
    await until_parked(world)
    await delivered(world, clock)
    assert not fake.faults.pending  # the check met its failure
    assert [m for m in not_delivered(caplog) if "the check of its channel" in m]
    live = world.bot.service.live[table_id]
    assert live.row.thread_id is None and live.row.channel_id == world.channel.id
    assert fake.messages(world.channel)[-1].content == \
        f"Table #{table_id} goes on here: its thread was deleted."
    assert not loud(caplog), loud(caplog)
    await play_turn(world, table_id, RandomPlayer(1))


@pytest.mark.parametrize("failing", ["503", "dropped", "answer lost"])
async def test_a_time_out_notice_is_sent_again_and_posted_once(
        table_clock: FakeClock, world: World, failing: str,
        caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members[:2]
    mod = world.guild.add_member("mod", manage_guild=True)
    await fake.slash(bot, mod, world.channel, "belote config", away_turns=1)  # one turn out
    table_id, lobby = await open_table(world, ana, variant="classic", target=1,
                                       computers=True, turn_timer=30)
    await fake.click(bot, bo, lobby, button_id("sit", table_id, 1))
    bot.service.live[table_id].row.first_dealer = 3  # West deals: South (ana) bids first
    await fake.click(bot, ana, lobby, button_id("start", table_id))
    await delivered(world, world_clock(world))
    live = bot.service.live[table_id]
    caplog.set_level(logging.INFO)
    fake.faults.fail("POST", POSTS, drop=failing != "503", after=failing == "answer lost",
                     path=f"/channels/{live.row.thread_id}/messages")
    table_clock.advance(30)  # ana runs out of time
    await fake.settle()
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    said = thread_posts(world, table_id, f"<@{ana.id}>, your time ran out")
    assert len(said) == 1
    assert not loud(caplog), loud(caplog)


async def tournament(w: World) -> Any:
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await w.fake.slash(w.bot, mod, w.channel, "belote tournament new", format="quick")
    assert r.message is not None
    return r.message


@pytest.mark.parametrize("failing", ["503", "dropped", "answer lost"])
async def test_a_tournament_is_shown_though_discord_fails(
        world: World, failing: str, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    signup = await tournament(world)
    caplog.set_level(logging.INFO)
    drop, after = failing != "503", failing == "answer lost"
    # The sign-up message's edit after a member joins.
    fake.faults.fail("PATCH", MESSAGE, drop=drop, after=after,
                     path=f"/channels/{world.channel.id}/messages/{signup.id}")
    await fake.click(bot, world.members[0], signup, "tn:join:1")
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    assert "Entrants 1/8" in fake.message(signup.id).content
    # The threads of its tables at its start (then their table messages).
    fake.faults.fail("POST", THREADS, drop=drop, after=after)
    for member in world.members[1:8]:
        await fake.click(bot, member, signup, "tn:join:1")
    await delivered(world, world_clock(world))
    await bot.tournaments.settle()
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    assert "Under way" in fake.message(signup.id).content
    tables = [t.table_id for t in await bot.tournaments.repo.tables(1)]
    assert len(tables) == 2
    for table_id in tables:
        live = bot.service.live[table_id]
        assert live.row.message_id is not None, table_id
        assert fake.message(live.row.message_id).custom_ids
        assert live.row.thread_id is not None
    threads = fake.threads(world.channel)
    used = {bot.service.live[t].row.thread_id for t in tables}
    assert used <= {t.id for t in threads}
    assert len(threads) == 2 + (failing == "answer lost")  # the one made, its answer lost
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("failing", ["503", "dropped", "answer lost"])
async def test_a_tournaments_final_post_is_sent_again_and_posted_once(
        world: World, failing: str, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    await tournament(world)
    caplog.set_level(logging.INFO)
    fake.faults.fail("POST", POSTS, drop=failing != "503", after=failing == "answer lost",
                     path=f"/channels/{world.channel.id}/messages")
    await bot.tournaments.cancel(1)
    await fake.settle()
    await bot.tournaments.settle()
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    posted = [m for m in fake.messages(world.channel) if m.content == "Tournament #1 is cancelled."]
    assert len(posted) == 1, [m.content for m in fake.messages(world.channel)]
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("failing", ["503", "dropped", "answer lost"])
async def test_an_audit_post_is_sent_again_and_posted_once(
        world: World, failing: str, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    modlog = world.guild.add_text_channel("modlog")
    mod = world.guild.add_member("mod", manage_guild=True)
    await fake.slash(bot, mod, world.channel, "belote config", log_channel=modlog)
    await delivered(world, world_clock(world))
    caplog.set_level(logging.INFO)
    fake.faults.fail("POST", POSTS, drop=failing != "503", after=failing == "answer lost",
                     path=f"/channels/{modlog.id}/messages")
    await bot.audit.closed(world.guild.id, 99, "nobody played for 60 minutes")
    await fake.settle()
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    posted = [m.content for m in fake.messages(modlog) if "#99" in m.content]
    assert posted == ["Belote table #99 closed by itself: nobody played for 60 minutes."]
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("drop", FAILURES)
async def test_a_table_message_found_deleted_and_not_posted_again_is_at_the_next_start(
        world: World, clock: ManualClock, database_path: Path, drop: bool,
        caplog: pytest.LogCaptureFixture) -> None:
    # /belote show finds the table message deleted and cannot post it again (Discord fails
    # every try), and the bot stops: the next start edits the table, though nothing changed
    # since its message last showed it, finds it gone and posts it again.
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    old, thread = live.row.message_id, live.row.thread_id
    fake.delete_message(fake.message(old), unheard=True)
    await fake.settle()
    fake.faults.fail("POST", POSTS, drop=drop, times=4, path=f"/channels/{thread}/messages")
    r = await fake.slash(bot, world.members[0], world.channel, "belote show")
    assert "Discord did not answer" in r.text, r.text
    await fake.settle()
    caplog.set_level(logging.INFO)
    await restart(world, database_path, clock)
    await until_parked(world)
    await delivered(world, clock)
    live = world.bot.service.live[table_id]
    assert live.row.message_id != old and live.row.home_id == thread
    assert [m.id for m in fake.messages(fake.channel(thread)) if m.custom_ids
            and not m.deleted] == [live.row.message_id]
    assert len(thread_posts(world, table_id, "goes on here")) == 1
    await assert_shows_now(world, live)
    assert not loud(caplog), loud(caplog)
    await play_turn(world, table_id, RandomPlayer(1))


@pytest.fixture
def daily_clock(monkeypatch: pytest.MonkeyPatch) -> DateClock:
    c = DateClock(challenge_tests.DAY)
    monkeypatch.setattr(bot_challenge, "utc_now", c)
    return c


@pytest.mark.parametrize("drop", FAILURES)
async def test_a_daily_deal_whose_threads_and_post_fail_is_told_and_shown_by_show(
        daily_clock: Any, world: World, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members[:2]
    caplog.set_level(logging.INFO)
    # Neither thread can be made: the try's table goes in the channel.
    fake.faults.fail("POST", THREADS, drop=drop, times=2)
    r = await fake.slash(bot, ana, world.channel, "belote challenge")
    assert r.ephemeral and f"at <#{world.channel.id}>" in r.text, r.text
    live = bot.service.table_of(world.guild.id, ana.id)
    assert live is not None and live.row.thread_id is None
    assert fake.message(live.row.message_id).custom_ids
    assert len(not_delivered(caplog)) == 2 and not fake.threads(world.channel)
    # Its table cannot be posted either (every try): the member is told, the try is kept.
    fake.faults.fail("POST", THREADS, drop=drop, times=2)
    fake.faults.fail("POST", POSTS, drop=drop, times=4,
                     path=f"/channels/{world.channel.id}/messages")
    r = await fake.slash(bot, bo, world.channel, "belote challenge")
    assert r.ephemeral and "Discord did not take your try's table" in r.text, r.text
    live = bot.service.table_of(world.guild.id, bo.id)
    assert live is not None and live.row.message_id is None
    assert not loud(caplog), loud(caplog)
    r = await fake.slash(bot, bo, world.channel, "belote show")
    assert f"Table #{live.id} is here now" in r.text, r.text
    await delivered(world, world_clock(world))
    assert fake.message(live.row.message_id).custom_ids
    await assert_shows_now(world, live)
    assert not loud(caplog), loud(caplog)


@pytest.fixture
def season_clock(monkeypatch: pytest.MonkeyPatch) -> DateClock:
    c = DateClock(season_tests.NOVEMBER)
    monkeypatch.setattr(bot_seasons, "utc_now", c)
    return c


@pytest.mark.parametrize("failing", ["503", "dropped", "answer lost"])
async def test_a_season_post_discord_fails_is_tried_again_and_posted_once(
        season_clock: Any, world: World, failing: str,
        caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    ana, bo, cy, dee = world.members[:4]
    news = world.guild.add_text_channel("news")
    await fake.settle()
    await season_tests.configure(world, announce_channel=news)
    for _ in range(3):
        await season_tests.record(world, season_tests.NOVEMBER, (ana, cy), (bo, dee))
    caplog.set_level(logging.INFO)
    failures = counted(bot)
    fake.faults.fail("POST", POSTS, drop=failing != "503", after=failing == "answer lost",
                     path=f"/channels/{news.id}/messages")
    season_clock.now = season_tests.DECEMBER
    cog: Any = bot.get_cog("Seasons")
    await cog.tick()  # the season ends: its post fails
    await fake.settle()
    assert not fake.faults.pending and len(failures) == 1
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING
            and "post failed" in r.getMessage()]
    await cog.tick()  # a minute later
    await fake.settle()
    sent = season_tests.posts(world, news)
    assert len(sent) == 1, [m.content for m in fake.messages(news)]
    assert sent[0].content.startswith("**Season 1 is over**")
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("failing", ["503", "dropped", "answer lost"])
async def test_invite_and_kick_notices_are_sent_again_and_posted_once(
        world: World, failing: str, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members[:2]
    mod = world.guild.add_member("mod", manage_guild=True)
    table_id, lobby = await open_table(world, ana, variant="classic", private=True)
    await delivered(world, world_clock(world))
    live = bot.service.live[table_id]
    thread = live.row.thread_id
    caplog.set_level(logging.INFO)
    drop, after = failing != "503", failing == "answer lost"
    fake.faults.fail("POST", POSTS, drop=drop, after=after, path=f"/channels/{thread}/messages")
    r = await fake.slash(bot, ana, world.channel, "belote invite", player=bo)
    assert r.ephemeral and f"<@{bo.id}>" in r.text, r.text
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    assert len(thread_posts(world, table_id, f"<@{bo.id}>")) == 1
    sat = await fake.click(bot, bo, lobby, button_id("sit", table_id, 1))
    assert sat.callback_type == 7, sat.text
    fake.faults.fail("POST", POSTS, drop=drop, after=after, path=f"/channels/{thread}/messages")
    r = await fake.slash(bot, mod, world.channel, "belote kick", player=bo)
    assert r.ephemeral and "was removed" in r.text, r.text
    await delivered(world, world_clock(world))
    assert not fake.faults.pending
    assert len(thread_posts(world, table_id, "removed")) == 1
    assert not loud(caplog), loud(caplog)


@pytest.mark.parametrize("drop", FAILURES)
async def test_check_says_it_cannot_tell_when_its_test_dm_fails(
        world: World, drop: bool, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    mod = world.guild.add_member("mod", manage_guild=True)
    caplog.set_level(logging.INFO)
    failures = counted(bot)
    fake.faults.fail("POST", "/users/@me/channels", drop=drop)
    r = await fake.slash(bot, mod, world.channel, "belote check")
    assert r.ephemeral and "Could not find out whether direct messages reach you" in r.text, \
        r.text
    assert len(failures) == 1 and not loud(caplog), loud(caplog)
    r = await fake.slash(bot, mod, world.channel, "belote check")
    assert "Direct messages from the bot reach you" in r.text, r.text
