"""The table service's turn timers, computer levels and saved choices, without Discord."""

from __future__ import annotations

import asyncio

import pytest

from db import Database
from game.actions import Pass
from service import Refusal
from service.tables import NewTable, TableService
from service.tables.clock import FakeClock
from tests.bot.helpers import to_act

from .test_service import CHANNEL, GUILD, Recorder, four_players, user_at


async def test_timer_and_level_limits(db: Database) -> None:
    service = TableService(db)
    for seconds in (5, 601):
        with pytest.raises(Refusal, match="from 15 to 600 seconds"):
            await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {},
                                          turn_timer=seconds))
    with pytest.raises(Refusal, match="no computer level 'expert'"):
        await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {},
                                      computer_level="expert"))
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {},
                                         turn_timer=0))  # 0 is "off"
    assert live.row.turn_timer is None
    with pytest.raises(Refusal, match="no computer level"):
        await service.add_computer(live.id, 1, 1, "expert")


async def test_acting_in_time_stops_the_timer_and_the_next_one_runs_out(
    db: Database,
) -> None:
    clock = FakeClock()
    rec = Recorder()
    service = TableService(db, listener=rec, computer_delay=0, computer_level="hard",
                           clock=clock)
    timed_out: list[int] = []
    service.timeout_hooks.append(lambda live, seat: timed_out.append(seat.seat))
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {"target": 1},
                                         turn_timer=30, computer_level="easy"))
    for seat, (uid, name) in enumerate([(2, "bo"), (3, "cy"), (4, "dee")], start=1):
        await service.sit(live.id, uid, name, seat)
    await service.start(live.id, 1)
    first = to_act(live)
    armed = live.timer
    assert armed is not None and live.timer_key == (live.seq, first)
    await service.act(live.id, user_at(service, live.id, first), live.seq, Pass())
    second = to_act(live)
    assert armed.cancelled() and live.timer_key == (live.seq, second)
    clock.advance(29)
    await service.settle()
    assert not timed_out
    clock.advance(1)
    await asyncio.sleep(0)  # the timer's takeover starts
    await service.settle()
    assert timed_out == [second]
    s = live.seats[second]
    assert (s.computer, s.timed_out) == ("easy", True)  # the table's level, not the bot's
    assert live.seats[first].computer is None  # acted in time: never taken over
    assert (await db.tables.seats(live.id))[second].timed_out  # saved
    assert s.user_id is not None
    await service.reclaim(live.id, s.user_id)
    assert (s.computer, s.timed_out) == (None, False)
    await service.close()
    assert live.timer is None or live.timer.cancelled()


async def test_choices_survive_a_restart(db: Database) -> None:
    service = TableService(db)
    table_id = await four_players(service)
    live = service.live[table_id]
    user = user_at(service, table_id, 2)
    await service.choose(table_id, user, 1, belote=False)
    again = TableService(db)
    await again.restore()
    choice = again.live[table_id].choice(2)
    assert (choice.deal, choice.declare, choice.belote) == (1, None, False)
    assert again.live[table_id].choice(1).belote  # the others keep the default
    assert live.choice(2) == choice
