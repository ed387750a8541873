"""A request cancelled while its step is being saved (its task cancelled in a live process: a
shutdown, a client gone) leaves memory and the database agreeing: what the table shows is the
replay of its log, and the game goes on."""

from __future__ import annotations

import asyncio

import pytest

from db import Database, LogEntry, to_record
from game import record
from game.actions import Action
from game.players import RandomPlayer
from game.view import table_view
from service.tables import LiveTable, NewTable, TableService

from .test_service import CHANNEL, GUILD, four_players, play_random, user_at


def cut_appends(db: Database, *, before: bool) -> asyncio.Event:
    """Make the log's appends announce themselves on the returned event, then give the test a
    turn to cancel the appending task: ``before`` the statement is sent, or while it runs."""
    reached = asyncio.Event()
    real = db.log.append

    async def append(table_id: int, entries: list[LogEntry]) -> None:
        reached.set()
        if before:
            await asyncio.sleep(0)
        await real(table_id, entries)

    db.log.append = append  # type: ignore[method-assign]
    return reached


async def assert_memory_is_the_log(db: Database, live: LiveTable) -> None:
    entries = await db.log.entries(live.id)
    saved = record.replay(to_record(live.row.variant, live.row.options, live.names(), entries))
    assert live.match is not None
    assert record.to_record(live.match) == record.to_record(saved)
    assert live.seq == len(entries)


def next_action(live: LiveTable) -> tuple[int, Action]:
    match = live.match
    assert match is not None and match.to_act is not None
    return match.to_act, RandomPlayer(3).choose(table_view(match, match.to_act))


@pytest.mark.parametrize("before", [True, False], ids=["before-insert", "during-insert"])
async def test_a_cancelled_act_leaves_memory_as_saved(db: Database, before: bool) -> None:
    service = TableService(db)
    table_id = await four_players(service)
    await play_random(service, table_id, 6)
    live = service.live[table_id]
    seat, action = next_action(live)
    reached = cut_appends(db, before=before)
    task = asyncio.create_task(
        service.act(table_id, user_at(service, table_id, seat), live.seq, action))
    await reached.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await assert_memory_is_the_log(db, live)
    await play_random(service, table_id, 5, seed=7)  # whoever is to act can act
    await assert_memory_is_the_log(db, live)


@pytest.mark.parametrize("before", [True, False], ids=["before-insert", "during-insert"])
async def test_a_computer_turn_cancelled_at_shutdown_leaves_memory_as_saved(
        db: Database, before: bool) -> None:
    service = TableService(db, computer_delay=0)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {"target": 1},
                                         fill=True))
    await service.start(live.id, 1)
    if live.match is not None and live.match.to_act == 0:  # the person speaks first
        _, action = next_action(live)
        await service.act(live.id, 1, live.seq, action)
    reached = cut_appends(db, before=before)  # the computers' turns are under way
    await reached.wait()
    await service.close()  # cancels the computer's turn being saved
    await assert_memory_is_the_log(db, live)
    restarted = TableService(db, computer_delay=3600)
    await restarted.restore()
    again = restarted.live[live.id]
    assert record.to_record(again.match) == record.to_record(live.match)  # type: ignore[arg-type]
    await restarted.close()

