"""The daily deal through the fake Discord, on an injected clock: two members meet the same
cards and first dealer, a second try is refused, the board hides the scores from who has not
played, the score after a try against the best and the median, a new day deals new cards, the
world's deals are every server's, yesterday's board is posted once (even across a restart),
and the ordinary ratings do not move."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import service.challenge
from bot import create_bot
from bot.controls import button_id, encode_action
from game.players import RandomPlayer
from game.view import table_view
from service import analysis
from tests.clocks import DateClock
from tests.fakediscord import FakeDiscord

from . import analysis_stub
from .table_helpers import World, make_world

DAY = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _quick_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each try's deals are analysed for its review (tests/e2e/test_challenge_review.py):
    here by the stand-in job, which answers at once, not the solver's seconds a deal."""
    monkeypatch.setattr(analysis, "JOB", analysis_stub.deal_json)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> DateClock:
    c = DateClock(DAY)
    monkeypatch.setattr(service.challenge, "utc_now", c)
    return c


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: DateClock) -> World:
    return await make_world(fake_discord, database_path)


async def start(w: World, member: Any, **options: Any) -> Any:
    r = await w.fake.slash(w.bot, member, w.channel, "belote challenge", **options)
    assert r.ephemeral, r.text
    return r


def first_hands(w: World, member: Any) -> tuple[Any, ...]:
    live = w.bot.service.table_of(w.guild.id, member.id)
    assert live is not None and live.match is not None
    deal = live.match.deals[0]
    return tuple(deal.deck), deal.dealer


async def play_try(w: World, member: Any, seed: int = 3) -> None:
    """The member plays their try out from their DM; the computers play the other seats."""
    rng = RandomPlayer(seed)
    for _ in range(4000):
        live = w.bot.service.table_of(w.guild.id, member.id)
        if live is None or live.match is None or live.match.winner is not None:
            await w.fake.settle()
            return
        if live.match.to_act != 0:
            await asyncio.sleep(0.005)
            continue
        action = rng.choose(table_view(live.match, 0))
        message = w.fake.message(live.seats[0].dm_message_id)
        r = await w.fake.click(w.bot, member, message,
                               button_id("act", live.id, live.seq, encode_action(action)))
        assert r.callback_type == 7, r.text
    raise AssertionError("the try did not end")


async def test_the_day_s_deals_one_try_the_hidden_board_and_the_score(
        world: World, database_path: Path, clock: DateClock) -> None:
    w = world
    ana, bo, cy = w.members[:3]
    news = w.guild.add_text_channel("news")
    mod = w.guild.add_member("mod", manage_guild=True)
    await w.fake.settle()
    await w.fake.slash(w.bot, mod, w.channel, "belote config", announce_channel=news)
    r = await start(w, ana)
    assert "you sit South with three hard computers" in r.text, r.text
    live = w.bot.service.table_of(w.guild.id, ana.id)
    assert live is not None and live.row.private and live.level == "hard"
    assert [s.computer is not None for _, s in sorted(live.seats.items())] == [
        False, True, True, True]
    thread = w.fake.channel(live.row.thread_id)
    assert thread.type == 12  # a private thread: nobody watches her cards
    ana_cards = first_hands(w, ana)
    await start(w, bo)
    assert first_hands(w, bo) == ana_cards  # the same cards, the same first dealer
    # A second try the same day: refused, nothing opened.
    again = await w.fake.slash(w.bot, ana, w.channel, "belote challenge")
    assert again.ephemeral and "You have had today's try" in again.text, again.text
    await play_try(w, ana)
    # cy has not played: the board names who played, no score.
    board = await w.fake.slash(w.bot, cy, w.channel, "belote challenge", board=True)
    assert f"Played today: <@{ana.id}>, <@{bo.id}>" in board.text, board.text
    assert "points" not in board.text
    row = await w.bot.daily.repo.get(w.guild.id, "2026-12-01", "classic", ana.id)
    assert row is not None and row.score is not None
    mine = await w.fake.slash(w.bot, ana, w.channel, "belote challenge", board=True)
    assert f"1. <@{ana.id}> — {row.score:,} points (played 1 day in a row)" in mine.text, \
        mine.text
    assert f"… <@{bo.id}> is playing" in mine.text
    told = [m for m in w.fake.messages(thread) if "your daily deal is over" in m.content]
    assert len(told) == 1 and f"{row.score:,} points for your team" in told[0].content
    assert "rank 1 of 1; the best" in told[0].content, told[0].content
    # The challenge moved no ordinary rating.
    assert await w.bot.db.results.skill(w.guild.id, "classic", ana.id) is None
    # bo stops his try: it counts as played, with what he had.
    end = await w.fake.slash(w.bot, bo, w.channel, "belote end")
    assert end.callback_type in (4, 5), end.text
    assert w.bot.service.table_of(w.guild.id, bo.id) is None, end.text
    await w.fake.settle()
    stopped = await w.bot.daily.repo.get(w.guild.id, "2026-12-01", "classic", bo.id)
    assert stopped is not None and stopped.score is not None

    # The next day: new cards; yesterday's board posted once, even across a restart.
    clock.now = DAY + timedelta(days=1)
    await w.fake.disconnect(w.bot)
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()
    await w.bot.get_cog("Challenge").post_days()
    await w.fake.settle()
    await w.bot.get_cog("Challenge").post_days()
    posted = [m for m in w.fake.messages(news) if "Daily deal of 2026-12-01" in m.content]
    assert len(posted) == 1, [m.content for m in w.fake.messages(news)]
    assert f"The day's best: <@{ana.id}>" in posted[0].content, posted[0].content
    await start(w, ana)
    assert first_hands(w, ana) != ana_cards
    again = await w.fake.slash(w.bot, cy, w.channel, "belote challenge", world=True)
    assert again.ephemeral


async def test_the_world_s_deals_are_every_server_s(world: World, fake_discord: FakeDiscord,
                                                    clock: DateClock) -> None:
    w = world
    other = fake_discord.add_guild("Other")
    room = other.add_text_channel("cards")
    zed = other.add_member("zed")
    await w.fake.settle()
    await start(w, w.members[0], world=True)
    r = await w.fake.slash(w.bot, zed, room, "belote challenge", world=True)
    assert r.ephemeral, r.text
    mine = w.bot.service.table_of(w.guild.id, w.members[0].id)
    theirs = w.bot.service.table_of(other.id, zed.id)
    assert mine is not None and theirs is not None and mine.match and theirs.match
    assert mine.match.deals[0].deck == theirs.match.deals[0].deck
    await start(w, w.members[1])  # the server's own deals: others
    own = w.bot.service.table_of(w.guild.id, w.members[1].id)
    assert own is not None and own.match is not None
    assert own.match.deals[0].deck != mine.match.deals[0].deck


async def test_yesterday_s_world_board_is_posted_where_it_was_played(
        world: World, fake_discord: FakeDiscord, database_path: Path, clock: DateClock) -> None:
    w = world
    ana = w.members[0]
    other = fake_discord.add_guild("Other")
    room = other.add_text_channel("cards")
    zed = other.add_member("zed")
    news = w.guild.add_text_channel("news")
    mod = w.guild.add_member("mod", manage_guild=True)
    await w.fake.settle()
    await w.fake.slash(w.bot, mod, w.channel, "belote config", announce_channel=news)
    await start(w, ana, world=True)
    await play_try(w, ana)
    r = await w.fake.slash(w.bot, zed, room, "belote challenge", world=True)
    assert r.ephemeral, r.text
    end = await w.fake.slash(w.bot, zed, room, "belote end")
    assert end.callback_type in (4, 5), end.text
    assert "Table #" in end.text and "ended" in end.text, end.text
    await w.fake.settle()
    mine = await w.bot.daily.repo.get(0, "2026-12-01", "classic", ana.id)
    theirs = await w.bot.daily.repo.get(0, "2026-12-01", "classic", zed.id)
    assert mine is not None and theirs is not None
    assert mine.score is not None and theirs.score is not None
    rank = 2 if theirs.score > mine.score else 1

    clock.now = DAY + timedelta(days=1)
    cog = w.bot.get_cog("Challenge")
    await cog.post_days()
    await w.fake.settle()
    await cog.post_days()  # once
    posted = [m for m in w.fake.messages(news)
              if "The world's daily deal of 2026-12-01" in m.content]
    assert len(posted) == 1, [m.content for m in w.fake.messages(news)]
    text = posted[0].content
    best = max(mine.score, theirs.score)
    assert f"2 players in every server; the best: {best:,} points. From this server:" in text
    assert f"{rank}. <@{ana.id}> — {mine.score:,} points (played 1 day in a row)" in text, text
    assert str(zed.id) not in text  # another server's member is not named here
    assert not [m for m in w.fake.messages(room) if "2026-12-01" in m.content]
    # All posted: the minute's check asks the database nothing more until the next day.
    asked: list[int] = []
    days_to_post = w.bot.daily.repo.days_to_post

    async def counted(guild_id: int, before: str) -> list[str]:
        asked.append(guild_id)
        return list(await days_to_post(guild_id, before))

    w.bot.daily.repo.days_to_post = counted
    await cog.post_days()
    assert asked == []
    clock.now = DAY + timedelta(days=2)
    await cog.post_days()
    assert sorted(asked) == sorted([w.guild.id, other.id])


async def test_the_score_of_a_try_is_told_in_its_thread_before_the_thread_closes(
        world: World, clock: DateClock) -> None:
    """Scoring a try takes a few queries after the table's end: its thread waits for the score
    before it is archived and locked (a locked thread refuses the post)."""
    w = world
    ana = w.members[0]
    await start(w, ana)
    live = w.bot.service.table_of(w.guild.id, ana.id)
    assert live is not None and live.row.thread_id is not None
    thread = w.fake.channel(live.row.thread_id)
    repo = w.bot.daily.repo
    scoring, release = asyncio.Event(), asyncio.Event()
    score = repo.score

    async def slow_score(*args: Any) -> bool:
        scoring.set()
        await release.wait()
        return bool(await score(*args))

    archived_meanwhile: list[bool] = []

    async def referee() -> None:
        await scoring.wait()
        for _ in range(50):  # the thread's job runs as far as it can while the score waits
            await asyncio.sleep(0)
        archived_meanwhile.append(thread.archived)
        release.set()

    repo.score = slow_score
    watch = asyncio.create_task(referee())
    end = await w.fake.slash(w.bot, ana, w.channel, "belote end")
    assert "ended" in end.text, end.text
    await asyncio.wait_for(watch, 10)
    await w.fake.settle()
    assert archived_meanwhile == [False]
    told = [m for m in w.fake.messages(thread) if "your daily deal is over" in m.content]
    assert len(told) == 1, [m.content for m in w.fake.messages(thread)]
    assert thread.archived and thread.locked
