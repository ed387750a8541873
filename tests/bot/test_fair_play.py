"""Fair play at the table service (issue 48): what a host, a staller or a request racing the
last card could once win without winning it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.tables import LiveTable, Refusal, TableService
from db import Database
from tests.bot.helpers import status_of
from tests.bot.test_service import four_players, play_random

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
