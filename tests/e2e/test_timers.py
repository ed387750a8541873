"""Turn timers through the bot: the deadline on the table and in the hand, a computer taking over
a player who runs out of time (said in the table, the hand and the thread), the seat taken back,
a table whose every player ran out of time waiting for them, and timers re-armed with a grace
period after a restart.

The timers run on the service's clock: here a FakeClock (``table_clock``) the tests move forward,
so 30 seconds pass when a test says so and no test waits through real ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import service.tables.state as table_state
from bot import create_bot
from bot.controls import button_id
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, open_table


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock) -> World:
    w = await make_world(fake_discord, database_path, ("ana", "bo", "cy"))
    # One turn run out and a computer takes the seat over (tests/e2e/test_away.py: several).
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await w.fake.slash(w.bot, mod, w.channel, "belote config", away_turns=1)
    assert "Turns away before a takeover: 1 (changed)" in r.text, r.text
    return w


async def advance(w: World, clock: FakeClock, seconds: float) -> None:
    """``seconds`` pass on the tables' clock; the bot does what falls due."""
    clock.advance(seconds)
    await w.fake.settle()


async def two_people_two_computers(w: World, **options: Any) -> tuple[int, Any]:
    """ana (South) and bo (East) with computers North and West, ana to bid first."""
    ana, bo = w.members[:2]
    table_id, lobby = await open_table(w, ana, variant="classic", target=1, computers=True,
                                       turn_timer=30, **options)
    r = await w.fake.click(w.bot, bo, lobby, button_id("sit", table_id, 1))
    assert r.callback_type == 7, r.text
    w.bot.service.live[table_id].row.first_dealer = 3  # West deals: South bids first
    r = await w.fake.click(w.bot, ana, lobby, button_id("start", table_id))
    assert r.callback_type == 7, r.text
    return table_id, lobby


def stamp(live: Any) -> str:
    return f"<t:{int(live.deadline)}:R>"


async def test_time_out_take_over_wait_and_take_back(
    world: World,
    table_clock: FakeClock,
) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members[:2]
    table_id, lobby = await two_people_two_computers(world)
    live = bot.service.live[table_id]
    assert "Turn timer: 30 s" in fake.message(lobby.id).versions[0].content  # the lobby said so
    card = await fake.click(bot, bo, lobby, button_id("rules", table_id))
    assert "Turn timer: 30 s; when a player's time runs out a computer plays that turn, " \
        "and after 1 such turn in a row it plays their seat until they take it back" \
        in card.text and live.away_turns == 1

    # ana's turn: the table and her hand say until when (30 seconds from now).
    assert live.match.to_act == 0 and live.deadline == table_clock.now() + 30
    assert f"▶ **ana** to bid · time runs out {stamp(live)}" in fake.message(lobby.id).content
    dm = fake.message(live.seats[0].dm_message_id)
    assert f"time runs out {stamp(live)}" in dm.content
    assert "time runs out" not in fake.message(live.seats[1].dm_message_id).content

    # ana passes in time; bo's timer starts, and bo does nothing.
    r = await fake.click(bot, ana, dm, button_id("act", table_id, live.seq, "pass"))
    assert r.callback_type == 7, r.text
    assert live.timer_key == (live.seq, 1)
    # bo runs out of time, a computer plays for him; then ana's next turn runs out too,
    # and with nobody left playing the computers wait.
    await advance(world, table_clock, 29)
    assert live.seats[1].computer is None  # a second still to go
    await advance(world, table_clock, 1)
    assert live.seats[1].computer == "easy" and not live.paused
    assert live.timer_key == (live.seq, 0) and live.deadline == table_clock.now() + 30
    await advance(world, table_clock, 30)
    assert live.paused
    assert [(s.computer, s.timed_out) for s in (live.seats[0], live.seats[1])] == \
        [("easy", True), ("easy", True)]
    entries = [e for e in await bot.service.db.log.entries(table_id) if e.kind == "action"]
    assert (entries[0].payload["seat"], entries[0].user_id) == (0, ana.id)  # ana in time
    assert (entries[1].payload["seat"], entries[1].user_id) == (1, None)  # bo's computer
    assert "by" not in entries[0].payload and entries[1].payload["by"] == "computer"
    table = fake.message(lobby.id).content
    assert "bo (⚙ Remy)" in table
    assert "⏱ bo ran out of time: a computer plays for them" in table
    assert "⏱ ana ran out of time" in table and "⏸ **Paused**" in table
    for member, seat in ((ana, 0), (bo, 1)):
        hand = fake.message(live.seats[seat].dm_message_id)
        assert "A computer plays this seat since your time ran out" in hand.content
        assert hand.custom_ids == [button_id("back", table_id)]
        said = [m.content for m in fake.messages(fake.channel(live.row.thread_id))
                if f"<@{member.id}>, your time ran out" in m.content]
        assert len(said) == 1 and "**Take my seat back**" in said[0]
    seq = live.seq
    await advance(world, table_clock, 300)
    assert live.seq == seq and live.task is None  # paused: the computers do not play alone

    # bo takes his seat back: the computers go on until his turn.
    hand = fake.message(live.seats[1].dm_message_id)
    r = await fake.click(bot, bo, hand, button_id("back", table_id))
    assert r.callback_type == 7 and live.seats[1].computer is None
    assert not live.seats[1].timed_out
    await fake.settle()
    assert not live.paused and live.seq > seq and live.match.to_act == 1
    assert live.timer_key == (live.seq, 1) and live.deadline == table_clock.now() + 30
    table = fake.message(lobby.id).content
    assert "bo ran out of time" not in table and "⏱ ana ran out of time" in table
    assert "▶ **bo** to " in table and f"time runs out {stamp(live)}" in table
    assert f"time runs out {stamp(live)}" in fake.message(live.seats[1].dm_message_id).content
    mod = next(m for m in world.guild.members.values() if m.user.name == "mod")
    await fake.slash(bot, mod, world.channel, "belote end", table=table_id)  # stops bo's timer
    assert live.timer is None and live.deadline is None


async def test_timers_are_re_armed_with_a_grace_period_after_a_restart(
        world: World, database_path: Path, monkeypatch: pytest.MonkeyPatch,
        table_clock: FakeClock) -> None:
    fake, bot = world.fake, world.bot
    table_id, lobby = await two_people_two_computers(world)
    assert bot.service.live[table_id].timer_key is not None  # ana's 30 s are running
    lobby_table, _ = await open_table(world, world.members[2], variant="coinche")  # no timer
    shown_before = len(fake.message(lobby.id).versions)
    await fake.disconnect(bot)
    # The new process, started as the 30 seconds had run out: the grace after a restart is 60
    # seconds (twice the table's timer, so the test tells it from the timer itself).
    table_clock.advance(45)
    monkeypatch.setattr(table_state, "RESTART_GRACE", 60)
    bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    world.bot = bot
    live = bot.service.live[table_id]
    assert bot.service.live[lobby_table].timer_key is None
    assert live.match.to_act == 0 and live.seats[0].computer is None
    assert live.deadline == table_clock.now() + 60
    await advance(world, table_clock, 59)
    assert live.seats[0].computer is None
    await advance(world, table_clock, 1)
    assert live.seats[0].computer is not None and live.seats[0].timed_out
    # While it ran, the restarted bot's table message showed the new deadline.
    after = fake.message(lobby.id).versions[shown_before:]
    assert any("▶ **ana** to bid · time runs out <t:" in v.content for v in after)
    assert "⏱ ana ran out of time" in fake.message(lobby.id).content
