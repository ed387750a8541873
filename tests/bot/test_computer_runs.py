"""Runs of computer moves (service/tables/batch.py): what follows a person's action until their
next turn is played after one delay and told to the delivery as one change, so it costs one
table message edit, not one per card."""

from __future__ import annotations

import random

import pytest

from db import Database
from game.players import RandomPlayer
from game.view import table_view
from service.tables import NewTable, TableService
from service.tables.batch import Batch
from tests.bot.helpers import match_of, to_act

from .test_service import CHANNEL, GUILD, Recorder


async def one_person_three_computers(service: TableService, variant: str) -> int:
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", variant, {"target": 1}))
    for seat in (1, 2, 3):
        await service.add_computer(live.id, 1, seat, "easy")
    await service.start(live.id, 1)
    await service.settle()
    return live.id


@pytest.mark.parametrize("variant", ["classic", "coinche", "bulgarian"])
async def test_the_computers_between_two_turns_of_a_person_are_one_table_change(
        db: Database, variant: str) -> None:
    rec = Recorder()
    service = TableService(db, listener=rec, computer_delay=0, rng=random.Random(5))
    table_id = await one_person_three_computers(service, variant)
    rng = RandomPlayer(7)
    runs = 0
    while table_id in service.live:
        live = service.live[table_id]
        assert to_act(live) == 0  # the computers never stop short of the person's turn
        match = match_of(live)
        deals, seq = len(match.deals), live.seq
        rec.calls.clear()
        await service.act(table_id, 1, live.seq, rng.choose(table_view(match, 0)))
        await service.settle()
        if table_id not in service.live or len(match.deals) != deals:
            continue  # a deal ended: its sheet comes between the two tables shown
        moves = live.seq - seq - 1
        tables = [c for c in rec.calls if c[0] == "table"]
        hands = [c for c in rec.calls if c[0] == "hands"]
        if moves == 0:  # the person won the trick: they lead the next one
            assert tables == [("table", table_id)]
            continue
        assert moves <= 6  # the end of the trick and the start of the next
        # One change for the person's action, one for the computers after it, however many.
        assert tables == [("table", table_id)] * 2
        # The run's hand changes are told once, with the person's controls in them.
        assert len(hands) == 2 and 0 in hands[1][1]  # type: ignore[operator]
        runs += 1
    assert runs >= 5
    await service.close()


async def test_a_batch_tells_what_it_held_before_a_deal_sheet_and_nothing_twice(
        db: Database) -> None:
    rec = Recorder()
    service = TableService(db, listener=rec, rng=random.Random(5))
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {}))
    table_id = live.id
    rec.calls.clear()
    batch = Batch(rec, live)
    batch.table_changed(live)
    batch.hands_changed(live, [1])
    batch.table_changed(live)
    batch.hands_changed(live, [2, 0])
    assert rec.calls == []  # held until the run ends
    batch.deal_finished(live, 0)
    assert rec.calls == [("table", table_id), ("hands", (0, 1, 2)), ("deal", 0)]
    batch.flush()
    assert len(rec.calls) == 3  # nothing held: nothing told
    batch.hands_changed(live, [0])
    batch.flush()
    assert rec.calls[3:] == [("hands", (0,))]  # hands alone do not edit the table
    await service.close()
