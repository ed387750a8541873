"""Fair play at the table service (issue 48): what a host, a staller or a request racing the
last card could once win without winning it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from db import Database
from service import Refusal
from service.tables import LiveTable, NewTable, TableService
from tests.bot.helpers import status_of
from tests.bot.test_service import CHANNEL, GUILD, four_players, play_random

MODERATOR = 99


class GatedResults:
    """Holds the save of a won match (``record_match``) until released, so that other
    requests arrive while the winning card is being saved."""

    def __init__(self, db: Database) -> None:
        self.saving = asyncio.Event()
        self.release = asyncio.Event()
        self._record = db.results.record_match
        db.results.record_match = self._held  # type: ignore[method-assign]

    async def _held(self, **kwargs: Any) -> dict[int, tuple[float, float]]:
        self.saving.set()
        await self.release.wait()
        return await self._record(**kwargs)


@pytest.mark.parametrize("request_kind", ["end", "leave", "kick"])
async def test_a_request_during_the_winning_card_does_not_close_the_table_again(
        db: Database, request_kind: str) -> None:
    service = TableService(db)
    ended: list[LiveTable] = []
    service.end_hooks.append(ended.append)
    table_id = await four_players(service)  # a target of 1: the first deal played wins
    gate = GatedResults(db)
    player = asyncio.create_task(play_random(service, table_id, 10_000, seed=4))
    await asyncio.wait_for(gate.saving.wait(), 30)
    # While the winning card is saved, a moderator ends the table / a player leaves / a
    # moderator kicks: each waits for the table's lock, looked up before it was closed.
    late: asyncio.Task[object]
    if request_kind == "end":
        late = asyncio.create_task(service.end(table_id, MODERATOR, can_manage=True))
    elif request_kind == "leave":
        late = asyncio.create_task(service.leave(table_id, 2))
    else:
        late = asyncio.create_task(service.kick(table_id, MODERATOR, 3, can_manage=True))
    await asyncio.sleep(0.05)
    gate.release.set()
    await player
    with pytest.raises(Refusal) as refused:
        await late
    assert refused.value.message_id == "tables.game_over"
    assert table_id not in service.live
    assert await status_of(db, table_id) == "finished"  # not "ended" over the result
    assert len(ended) == 1  # the tournaments and the rest hear of its end once
    assert await db.results.winner_of(table_id) in (0, 1)


async def test_once_the_match_is_under_way_only_a_moderator_who_does_not_play_kicks_or_ends(
        db: Database) -> None:
    service = TableService(db)
    table_id = await four_players(service)
    live = service.live[table_id]
    # The host (ana, seat 0) may no longer remove an opponent or end the match...
    for request in (service.kick(table_id, 1, 2, can_manage=False),
                    service.end(table_id, 1, can_manage=False),
                    # ...nor may a moderator who plays at the table (here ana again).
                    service.kick(table_id, 1, 2, can_manage=True),
                    service.end(table_id, 1, can_manage=True)):
        with pytest.raises(Refusal) as refused:
            await request
        assert refused.value.message_id in ("sweeper.kick.referee", "tables.end_referee")
        assert "only a moderator who does not play at it" in refused.value.text()
    assert live.seats[1].departed is None and live.seats[1].computer is None
    assert table_id in service.live and await status_of(db, table_id) == "playing"
    # A moderator who does not play there may.
    await service.kick(table_id, MODERATOR, 2, can_manage=True)
    assert live.seats[1].departed == "kicked"
    await service.end(table_id, MODERATOR, can_manage=True)
    assert await status_of(db, table_id) == "ended"


async def test_the_one_person_at_a_table_of_computers_may_end_it_under_way(
        db: Database) -> None:
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {"target": 1}))
    for seat in (1, 2, 3):
        await service.add_computer(live.id, 1, seat)
    await service.start(live.id, 1)
    await service.end(live.id, 1, can_manage=False)
    assert await status_of(db, live.id) == "ended"
    # With a second person at it (even one a computer stands in for), she may not.
    other = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {"target": 1}))
    await service.sit(other.id, 2, "bo", 1)
    for seat in (2, 3):
        await service.add_computer(other.id, 1, seat)
    await service.start(other.id, 1)
    with pytest.raises(Refusal) as refused:
        await service.end(other.id, 1, can_manage=False)
    assert refused.value.message_id == "tables.end_referee"
    assert await status_of(db, other.id) == "playing"


async def test_the_host_still_kicks_and_ends_in_the_lobby(db: Database) -> None:
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {}))
    await service.sit(live.id, 2, "bo", 1)
    await service.kick(live.id, 1, 2, can_manage=False)
    assert 1 not in live.seats
    await service.end(live.id, 1, can_manage=False)
    assert live.id not in service.live
