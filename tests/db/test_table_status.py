"""A table's status is db.TableStatus; the database keeps the very strings live servers hold."""

from __future__ import annotations

from db import Database, TableStatus

from .test_db import new_table


def test_the_stored_values_never_change() -> None:
    assert [s.value for s in TableStatus] == ["lobby", "playing", "finished", "ended"]


async def test_rows_read_back_as_the_enum_and_store_the_strings(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        t = await new_table(db)
        assert t.status is TableStatus.LOBBY and t.is_open
        await db.tables.set_status(t.id, TableStatus.PLAYING)
        assert [r.id for r in await db.tables.open_tables()] == [t.id]
        await db.tables.set_status(t.id, TableStatus.ENDED)
        row = await db.fetchone("SELECT status, ended_at FROM tables WHERE id = ?", (t.id,))
        assert row is not None
        assert row[0] == "ended" and type(row[0]) is str and row[1] is not None
        again = await db.tables.get(t.id)
        assert again is not None and again.status is TableStatus.ENDED and not again.is_open
        assert await db.tables.open_tables() == []
    finally:
        await db.close()
