"""The sweeper through the fake Discord, on a clock the tests move: a lobby not started within the
server's lobby_minutes closes itself, a game without any person's action for idle_minutes is
ended and recorded as abandoned (the leaver marked, and at a table of four people they alone
lose it on the ratings); the thread says so, the
table message shows it closed, its buttons say the table is closed, the audit log records it and
the log channel shows it. The deadlines survive a restart, and the time the bot was stopped is
not idle time: a game comes back with the idle time it had left (issue 48)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot import create_bot
from bot.controls import button_id
from db import Database
from db.rebuild import rebuild_ratings
from game.players import RandomPlayer
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import (
    World,
    make_world,
    member_of,
    open_table,
    play_turn,
    restart,
    seat_everyone,
    start_table,
)

MINUTE = 60.0


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock) -> World:
    w = await make_world(fake_discord, database_path, ("ana", "bo", "cy", "dee"))
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    return w


async def advance(w: World, clock: FakeClock, seconds: float) -> None:
    clock.advance(seconds)
    await w.fake.settle()


async def configure(w: World, **settings: Any) -> Any:
    """A moderator sets the server's settings, with a #modlog log channel."""
    modlog = w.guild.add_text_channel("modlog")
    r = await w.fake.slash(w.bot, w.members[4], w.channel, "belote config",
                           log_channel=modlog, **settings)
    assert "Settings changed" in r.text, r.text
    await w.fake.settle()
    return modlog


def thread_says(w: World, live: Any, text: str) -> list[str]:
    return [m.content for m in w.fake.messages(w.fake.channel(live.row.thread_id))
            if text in m.content]


async def test_a_lobby_not_started_in_time_closes_itself(world: World,
                                                        table_clock: FakeClock) -> None:
    w = world
    modlog = await configure(w, lobby_minutes=10)
    ana, bo = w.members[:2]
    table_id, lobby = await open_table(w, ana, variant="classic")
    live = w.bot.service.live[table_id]
    # A copy of the lobby's controls somewhere (a client that has not refreshed).
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="sit", custom_id=button_id("sit", table_id, 2)))
    old = await w.bot.get_partial_messageable(w.channel.id).send("old lobby", view=view)
    await advance(w, table_clock, 10 * MINUTE - 1)
    assert table_id in w.bot.service.live  # a second to go
    r = await w.fake.click(w.bot, bo, lobby, button_id("sit", table_id, 1))
    assert r.callback_type == 7, r.text  # sitting does not give the lobby more time
    await advance(w, table_clock, 1)
    assert table_id not in w.bot.service.live
    assert (await w.bot.service.db.tables.get(table_id)).status == "ended"
    said = thread_says(w, live, f"Table #{table_id} is closed")
    assert said == [f"Table #{table_id} is closed: it was not started within 10 minutes. "
                    "`/belote new` opens a new table."]
    table = w.fake.message(lobby.id)
    assert "Table closed: it was not started within 10 minutes." in table.content
    assert table.custom_ids == []
    r = await w.fake.click(w.bot, bo, old.id, button_id("sit", table_id, 2))
    assert r.ephemeral and f"Table #{table_id} is closed" in r.text
    entry = (await w.bot.db.audit.recent(w.guild.id))[0]
    assert (entry.action, entry.actor_id, entry.table_id) == ("closed", None, table_id)
    assert entry.details["reason"] == "it was not started within 10 minutes"
    assert w.fake.messages(modlog)[-1].content == \
        f"Belote table #{table_id} closed by itself: it was not started within 10 minutes."
    # ana and bo are free to sit elsewhere.
    assert w.bot.service.table_of(w.guild.id, ana.id) is None


async def test_a_game_nobody_plays_is_ended_as_abandoned_with_the_leaver_marked(
        world: World, table_clock: FakeClock) -> None:
    w = world
    modlog = await configure(w, idle_minutes=20)
    # Three people and a computer, no turn timer (a friendly table: no stake, not rated).
    ana, bo, cy = w.members[:3]
    table_id, lobby = await open_table(w, ana, variant="classic")
    for seat, member in ((1, bo), (2, cy)):
        r = await w.fake.click(w.bot, member, lobby, button_id("sit", table_id, seat))
        assert r.callback_type == 7, r.text
    await w.fake.click(w.bot, ana, lobby, button_id("cpu", table_id, 3))
    r = await w.fake.click(w.bot, ana, lobby, button_id("start", table_id))
    assert r.callback_type == 7, r.text
    live = w.bot.service.live[table_id]
    assert live.turn_timer is None
    r = await w.fake.slash(w.bot, bo, w.channel, "belote leave")
    assert "computer" in r.text, r.text
    # A person acting gives the game its 20 minutes again.
    await advance(w, table_clock, 15 * MINUTE)
    assert live.seats[live.match.to_act].computer is None  # computers act at once
    played = live.match.to_act
    r = await play_turn(w, table_id, RandomPlayer(3))
    assert r.callback_type == 7, r.text
    await advance(w, table_clock, 19 * MINUTE)
    assert table_id in w.bot.service.live
    # The person to act opens "My hand": its buttons stay on that reply.
    staller = live.match.to_act
    acting = member_of(w, live.seats[staller].user_id)
    mine = await w.fake.click(w.bot, acting, lobby, button_id("hand", table_id))
    assert mine.answer.custom_ids
    await advance(w, table_clock, 1 * MINUTE)
    assert table_id not in w.bot.service.live
    match = await w.bot.service.db.results.match(w.guild.id, table_id)
    assert match is not None and match.ending == "abandoned" and match.winner is None
    # Its leavers: bo, who left; the person it waited for (issue 48: the staller is the
    # leaver, not one who gets their stake back); and the person who never acted there.
    never = {0, 2} - {played}
    assert not match.rated and match.left == tuple(sorted({1, staller} | never))
    for member in w.members[:4]:
        assert await w.bot.service.db.results.skill(w.guild.id, "classic", member.id) is None
    said = thread_says(w, live, f"Table #{table_id} is ended")
    assert said == [f"Table #{table_id} is ended: nobody played for 20 minutes. The game is "
                    "recorded as abandoned; no rating changes."]
    table = w.fake.message(lobby.id)
    assert "Table closed: nobody played for 20 minutes; the game is recorded as abandoned" \
        in table.content and table.custom_ids == []
    r = await w.fake.click(w.bot, acting, mine.message, mine.answer.custom_ids[0])
    assert r.ephemeral and f"Table #{table_id} is closed" in r.text
    assert w.fake.messages(modlog)[-1].content == (
        f"Belote table #{table_id} closed by itself: nobody played for 20 minutes; the game "
        "is recorded as abandoned.")


async def test_the_idle_player_of_an_abandoned_game_of_four_loses_it_alone_on_the_ratings(
        world: World, table_clock: FakeClock, database_path: Path) -> None:
    w = world
    await configure(w, idle_minutes=1)
    table_id, lobby = await open_table(w, w.members[0], variant="classic", turn_timer=300)
    await seat_everyone(w, table_id, lobby, w.members[:4])
    await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    live = w.bot.service.live[table_id]
    acted: set[int] = set()
    rng = RandomPlayer(5)
    while acted != {0, 1, 2, 3}:  # everybody acts at least once...
        acted.add(live.match.to_act)
        r = await play_turn(w, table_id, rng)
        assert r.callback_type == 7, r.text
    staller = live.match.to_act  # ...then one walks away, and a minute passes
    await advance(w, table_clock, 61)
    assert table_id not in w.bot.service.live
    results = w.bot.service.db.results
    match = await results.match(w.guild.id, table_id)
    assert match is not None and match.ending == "abandoned" and match.left == (staller,)
    assert match.rated
    idle = member_of(w, live.seats[staller].user_id)
    mine = await results.skill(w.guild.id, "classic", idle.id)
    assert mine is not None and mine.shown < 1000
    for member in w.members[:4]:
        if member is not idle:
            assert await results.skill(w.guild.id, "classic", member.id) is None
    said = thread_says(w, live, f"Table #{table_id} is ended")
    assert said == [f"Table #{table_id} is ended: nobody played for 1 minute. The game is "
                    "recorded as abandoned; whoever left it or kept it waiting loses it on the "
                    f"ratings, alone.\n<@{idle.id}>: rating 1000 → {mine.shown:.0f}"]
    # The stopped bot's ratings, rebuilt from the stored matches, are the same.
    await w.fake.disconnect(w.bot)
    db = await Database.open(database_path)
    try:
        assert await rebuild_ratings(db) == 1
        again = await db.results.skill(w.guild.id, "classic", idle.id)
        assert again is not None and again == mine
    finally:
        await db.close()


async def test_deadlines_survive_a_restart_and_the_time_the_bot_was_down_is_not_idle_time(
        world: World, database_path: Path, table_clock: FakeClock) -> None:
    w = world
    await configure(w, lobby_minutes=10, idle_minutes=30)
    lobby_id, _ = await open_table(w, w.members[4], variant="classic")
    game_id, lobby = await start_table(w, "classic")
    await restart(w, database_path)
    assert {lobby_id, game_id} <= set(w.bot.service.live)
    # The lobby's 10 minutes run on across the restart.
    await advance(w, table_clock, 10 * MINUTE)
    assert lobby_id not in w.bot.service.live and game_id in w.bot.service.live
    # The bot is down for 40 minutes, longer than the game's 30 (20 of them were left):
    # nobody could play meanwhile, so the game is still open when it is back...
    await w.fake.disconnect(w.bot)
    table_clock.advance(40 * MINUTE)
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()
    assert game_id in w.bot.service.live
    assert await w.bot.service.db.results.match(w.guild.id, game_id) is None
    for member in w.members[:4]:
        assert await w.bot.service.db.results.skill(w.guild.id, "classic", member.id) is None
    assert "Table closed" not in w.fake.message(lobby).content
    # ...with the 20 minutes it had left (a minute more: what was saved is a step ahead).
    await advance(w, table_clock, 20 * MINUTE)
    assert game_id in w.bot.service.live
    # A genuine idle after the restart still ends it as abandoned.
    await advance(w, table_clock, 1 * MINUTE + 1)
    assert game_id not in w.bot.service.live
    match = await w.bot.service.db.results.match(w.guild.id, game_id)
    # Nobody acted at it: all four are its idle players, each losing it alone.
    assert match is not None and match.ending == "abandoned" and match.left == (0, 1, 2, 3)
    assert match.rated
    entries = await w.bot.db.audit.recent(w.guild.id)
    assert [(e.action, e.table_id) for e in entries[:2]] == \
        [("closed", game_id), ("closed", lobby_id)]


async def test_a_game_restored_in_play_goes_on_after_the_bot_was_down_longer_than_its_idle_time(
        world: World, database_path: Path, table_clock: FakeClock) -> None:
    """What the players notice: back after a long stop, the game takes their cards, and their
    ratings have not moved; the idle time counts from their last action, the stop left out."""
    w = world
    await configure(w, idle_minutes=10)
    table_id, _ = await start_table(w, "classic")
    rng = RandomPlayer(8)
    r = await play_turn(w, table_id, rng)
    assert r.callback_type == 7, r.text
    await advance(w, table_clock, 8 * MINUTE)
    await w.fake.disconnect(w.bot)
    table_clock.advance(3 * 60 * MINUTE)  # three hours down
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()
    assert table_id in w.bot.service.live
    r = await play_turn(w, table_id, rng)  # the game takes the next card
    assert r.callback_type == 7, r.text
    for member in w.members[:4]:
        assert await w.bot.service.db.results.skill(w.guild.id, "classic", member.id) is None
    # From that action, its 10 minutes; then it is abandoned.
    await advance(w, table_clock, 10 * MINUTE - 1)
    assert table_id in w.bot.service.live
    await advance(w, table_clock, 2 * MINUTE)
    assert table_id not in w.bot.service.live
    match = await w.bot.service.db.results.match(w.guild.id, table_id)
    assert match is not None and match.ending == "abandoned"


async def test_a_restart_never_ends_a_game_before_its_idle_time(
        world: World, database_path: Path, table_clock: FakeClock) -> None:
    """The idle deadline is saved once it moves by a step, not at every action: what a restart
    reads back must not be earlier than the deadline the game had before the stop."""
    w = world
    await configure(w, idle_minutes=20)
    table_id, _ = await start_table(w, "classic")
    await advance(w, table_clock, 30)  # a person acts 30 s after the start
    r = await play_turn(w, table_id, RandomPlayer(3))
    assert r.callback_type == 7, r.text
    await restart(w, database_path)
    # 20 minutes after the start, but only 19.5 after the last action: the game goes on.
    await advance(w, table_clock, 20 * MINUTE - 30 + 1)
    assert table_id in w.bot.service.live
    await advance(w, table_clock, 2 * MINUTE)
    assert table_id not in w.bot.service.live
    match = await w.bot.service.db.results.match(w.guild.id, table_id)
    assert match is not None and match.ending == "abandoned"
