"""Migration 0015: a table open before stakes existed upgrades with no stake, and restores."""

from __future__ import annotations

from pathlib import Path

from db import Database
from service.tables import TableService

from .old_databases import database_at


async def test_an_open_table_of_0014_upgrades_without_a_stake(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, 14)
    db = await Database.open(path)
    try:
        service = TableService(db, computer_delay=3600)
        try:
            (live,) = await service.restore()
            assert live.id == 1 and live.row.stake == 0
            assert [s.name for s in live.seats.values()] == ["ana"]
        finally:
            await service.close()
    finally:
        await db.close()
