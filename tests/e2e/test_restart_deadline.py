"""A restart keeps the turn deadline the players were shown while it is still far enough ahead
(RESTART_GRACE): nothing is edited. After a deadline passed while the bot was down, or came
near, only that table is sent again. Its player is not run out of time by the stop (nobody could
see the table): the turn gets a new deadline, shown on the table message and in the player's
hand; the table whose messages are still right is neither edited nor rendered."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import pytest

from bot import create_bot
from bot.controls import button_id
from game.players import RandomPlayer
from service.tables.clock import FakeClock

from .table_helpers import World, make_world, open_table, play_turn, seat_everyone

EIGHT = ("ana", "bo", "cy", "dee", "eve", "fay", "gus", "hal")
DEADLINE = re.compile(r"time runs out <t:(\d+):R>")


async def table(w: World, group: list[Any], **options: Any) -> int:
    """A started table of ``group``, a computer in the last seat if they are three (so that a
    table without the option has no timer: four people run one, issue 48)."""
    table_id, lobby = await open_table(w, group[0], variant="classic", target=1, **options)
    await seat_everyone(w, table_id, lobby, group)
    if len(group) == 3:
        await w.fake.click(w.bot, group[0], lobby, button_id("cpu", table_id, 3))
    r = await w.fake.click(w.bot, group[0], lobby, button_id("start", table_id))
    assert r.callback_type in (6, 7), r.text
    return table_id


def sends(w: World, mark: int) -> list[str]:
    """Paths of message sends and edits since ``mark``."""
    return [r.path for r in w.fake.requests_to(route=r"/channels/\{channel_id\}/messages.*",
                                               since=mark) if r.method in ("POST", "PATCH")]


async def timed_and_untimed(w: World, turn_timer: int) -> tuple[int, int]:
    """Two tables two turns into their first deal, one with a turn timer and one without."""
    timed = await table(w, list(w.members[:4]), turn_timer=turn_timer)
    untimed = await table(w, list(w.members[4:7]))
    for n in range(2):
        for table_id in (timed, untimed):
            await w.fake.settle()  # the computer's turn, if it is, is played
            await play_turn(w, table_id, RandomPlayer(n))
    await w.fake.settle()
    return timed, untimed


def assert_only_turn_sent(w: World, mark: int, timed: int, untimed: int) -> None:
    """Since ``mark``: the timed table's message and its acting hand were sent again, and
    nothing of the other table."""
    live = w.bot.service.live[timed]
    s = live.seats[live.match.to_act]
    assert sorted(sends(w, mark)) == sorted([
        f"/channels/{live.row.home_id}/messages/{live.row.message_id}",
        f"/channels/{s.dm_channel_id}/messages/{s.dm_message_id}"])
    other = w.bot.service.live[untimed]
    assert not any(f"/messages/{other.row.message_id}" in p for p in sends(w, mark))


@pytest.mark.parametrize("away", [
    1800,  # the turn's 30 seconds ran out while the bot was down
    10,  # 20 seconds are left: less than the grace after a restart (30 s)
])
async def test_a_restart_after_a_deadline_passed_or_came_near_edits_only_that_table(
        away: float, table_clock: FakeClock, fake_discord: Any, database_path: Any) -> None:
    w = await make_world(fake_discord, database_path, names=EIGHT)
    timed, untimed = await timed_and_untimed(w, 30)
    live = w.bot.service.live[timed]
    old_deadline, acting = live.deadline, live.match.to_act
    assert old_deadline is not None
    shown = DEADLINE.search(w.fake.message(live.row.message_id).content)
    assert shown is not None and int(shown.group(1)) == int(old_deadline)
    await w.fake.disconnect(w.bot)

    # The bot comes back later (before the game's hour without any action, when the sweeper
    # would end it).
    table_clock.advance(away)
    later = table_clock.now()
    mark = w.fake.mark()
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()

    live = w.bot.service.live[timed]
    assert live.match.to_act == acting and not live.seats[acting].timed_out
    assert live.deadline == later + 30  # a new deadline, in full
    assert_only_turn_sent(w, mark, timed, untimed)
    s = live.seats[acting]
    for path in (live.row.message_id, s.dm_message_id):
        shown = DEADLINE.search(w.fake.message(path).content)
        assert shown is not None and int(shown.group(1)) == int(live.deadline)
    other = w.bot.service.live[untimed]
    assert not any(f"/channels/{x.dm_channel_id}/" in p for x in other.seats.values()
                   for p in sends(w, mark))


async def test_a_restart_keeps_a_deadline_far_ahead_and_edits_nothing(
        table_clock: FakeClock, fake_discord: Any, database_path: Any) -> None:
    w = await make_world(fake_discord, database_path, names=EIGHT[:4])
    table_id = await table(w, list(w.members), turn_timer=300)
    for n in range(2):
        await play_turn(w, table_id, RandomPlayer(n))
    await w.fake.settle()
    live = w.bot.service.live[table_id]
    deadline, acting = live.deadline, live.match.to_act
    assert deadline is not None
    await w.fake.disconnect(w.bot)

    # A minute later the bot is back: four of the turn's five minutes are left, as shown.
    table_clock.advance(60)
    mark = w.fake.mark()
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()

    live = w.bot.service.live[table_id]
    assert live.deadline == deadline and live.match.to_act == acting
    assert sends(w, mark) == []
    assert not any(r.files for r in w.fake.requests_to(since=mark))  # nothing rendered
    shown = DEADLINE.search(w.fake.message(live.row.message_id).content)
    assert shown is not None and int(shown.group(1)) == int(deadline)
    # The turn runs out when the table said, not a second later: a computer plays for them.
    seq = live.seq
    table_clock.advance(deadline - table_clock.now() - 1)
    await w.fake.settle()
    assert live.seq == seq and live.match.to_act == acting
    table_clock.advance(1)
    await w.fake.settle()
    assert live.seq > seq


async def test_a_bot_upgraded_from_before_stored_deadlines_gives_the_turn_anew_and_loses_nothing(
        table_clock: FakeClock, fake_discord: Any, database_path: Any) -> None:
    """A database from before migration 0017 holds what each message shows but not the
    deadline it shows (the new columns are empty after the upgrade): the person to act gets
    the whole timer again, shown on that table alone, and the game goes on where it was."""
    w = await make_world(fake_discord, database_path, names=EIGHT)
    timed, untimed = await timed_and_untimed(w, 300)
    live = w.bot.service.live[timed]
    seq, acting = live.seq, live.match.to_act
    await w.fake.disconnect(w.bot)
    with sqlite3.connect(database_path) as db:  # as 0017 leaves the rows of an older bot
        db.execute("UPDATE shown SET turn_seq = NULL, deadline = NULL")

    table_clock.advance(60)
    later = table_clock.now()
    mark = w.fake.mark()
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()

    live = w.bot.service.live[timed]
    assert live.seq == seq and live.match.to_act == acting  # nothing lost
    assert live.deadline == later + 300  # the whole timer again
    assert_only_turn_sent(w, mark, timed, untimed)
    result = await play_turn(w, timed, RandomPlayer(5))
    assert result.callback_type == 7, result.text
