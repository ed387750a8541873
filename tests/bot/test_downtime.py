"""The bot's own downtime is not idle time (issue 48): a game restored after a stop, a crash or a
stop during a Discord outage has the idle time it had left, not less; a genuine idle after it
still ends the game as abandoned. (tests/e2e/test_sweeper.py shows the same through Discord.)"""

from __future__ import annotations

import asyncio

from db import Database
from service.tables import TableService
from service.tables.clock import FakeClock
from service.tables.state import SWEEP_SAVE_STEP
from service.tables.sweeper import UP_BEAT
from tests.bot.test_service import GUILD, four_players

MINUTE = 60.0
HOURS = 3 * 60 * MINUTE


async def running(db: Database, clock: FakeClock) -> TableService:
    """A service started as the bot starts one: its tables restored, its up-beat running."""
    service = TableService(db, clock=clock)
    await service.restore()
    return service


async def abandoned(db: Database, table_id: int) -> bool:
    match = await db.results.match(GUILD, table_id)
    return match is not None and match.ending == "abandoned"


async def test_after_a_crash_a_game_has_the_idle_time_it_had_left(db: Database) -> None:
    clock = FakeClock()
    first = await running(db, clock)
    table_id = await four_players(first)
    idle = first.live[table_id].idle_minutes * MINUTE
    clock.advance(5 * MINUTE)
    await first.settle()
    # The process dies here: nothing is written as it goes. Three hours later, a new one.
    later = FakeClock(clock.now() + HOURS)
    again = await running(db, later)
    assert table_id in again.live and not await abandoned(db, table_id)
    later.advance(idle - 5 * MINUTE - 1)  # the time it had left, less a second
    await again.settle()
    assert table_id in again.live
    # At most a beat and a save step more than it had: then it is abandoned all the same.
    later.advance(UP_BEAT + SWEEP_SAVE_STEP + 1)
    await again.settle()
    assert table_id not in again.live and await abandoned(db, table_id)
    await again.close()


async def test_a_stop_during_a_discord_outage_counts_the_outage_as_downtime(
        db: Database) -> None:
    clock = FakeClock()
    first = await running(db, clock)
    table_id = await four_players(first)
    idle = first.live[table_id].idle_minutes * MINUTE
    clock.advance(2 * MINUTE)
    first.hold_timers()  # Discord goes down: nobody sees the table
    clock.advance(idle + HOURS)
    await first.settle()
    assert table_id in first.live
    await first.close()  # stopped while Discord is still down
    await first.stopped()
    clock.advance(30 * MINUTE)
    again = await running(db, clock)
    assert table_id in again.live and not await abandoned(db, table_id)
    clock.advance(idle - 2 * MINUTE - 1)
    await again.settle()
    assert table_id in again.live
    clock.advance(SWEEP_SAVE_STEP + 2)
    await again.settle()
    assert table_id not in again.live and await abandoned(db, table_id)
    await again.close()


async def test_without_a_record_of_the_stop_nothing_moves(db: Database) -> None:
    """A service that never ran its tables (no restore) writes no stop time: the first start
    after the version that wrote none ends a game whose idle time ran out, as before."""
    clock = FakeClock()
    old = TableService(db, clock=clock)
    table_id = await four_players(old)
    idle = old.live[table_id].idle_minutes * MINUTE
    await old.close()
    clock.advance(idle + SWEEP_SAVE_STEP + 1)
    again = await running(db, clock)
    await asyncio.sleep(0)  # the sweep due at once starts
    await again.settle()
    assert table_id not in again.live and await abandoned(db, table_id)
    await again.close()
