"""A table's start: its status and its first deal are one transaction."""

from __future__ import annotations

import pytest

from db import Database, LogEntry

DEAL = LogEntry(0, "deal", {"dealer": 0, "deck": []})


async def test_start_sets_the_status_and_the_first_deal_together(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        row = await db.tables.create(guild_id=10, channel_id=20, host_id=1, variant="classic",
                                     options={}, private=False, seed=7)
        await db.tables.start(row.id, [DEAL])
        started = await db.tables.get(row.id)
        assert started is not None and started.status == "playing"
        assert await db.log.entries(row.id) == [DEAL]
        other = await db.tables.create(guild_id=10, channel_id=20, host_id=2,
                                       variant="classic", options={}, private=False, seed=8)
        with pytest.raises(db.integrity_errors):  # a deal that cannot be logged ...
            await db.tables.start(other.id, [DEAL, DEAL])
        still = await db.tables.get(other.id)
        assert still is not None and still.status == "lobby"  # ... starts nothing
        assert await db.log.entries(other.id) == []
    finally:
        await db.close()
