"""Migration 0006: a table speaks a language; a table opened before it speaks English."""

from __future__ import annotations

from pathlib import Path

from db import Database
from service.tables import TableService

from .old_databases import database_at


async def test_an_open_table_of_0005_upgrades_and_restores_in_english(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, 5)
    db = await Database.open(path)
    try:
        versions = [r[0] for r in await db.fetchall("SELECT version FROM schema_migrations")]
        assert 6 in versions
        service = TableService(db, computer_delay=3600)
        try:
            (live,) = await service.restore()
            assert live.id == 1 and live.language == "en"
            assert [s.name for s in live.seats.values()] == ["ana"]
        finally:
            await service.close()
    finally:
        await db.close()


async def test_a_table_keeps_its_language(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "new.sqlite3")
    try:
        t = await db.tables.create(guild_id=10, channel_id=20, host_id=1, variant="bulgarian",
                                   options={}, private=False, seed=1, language="bg")
        again = await db.tables.get(t.id)
        assert again is not None and (t.language, again.language) == ("bg", "bg")
    finally:
        await db.close()
