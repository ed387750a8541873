"""A table's status is db.TableStatus; the database keeps the very strings live servers hold."""

from __future__ import annotations

from db import Database, LogEntry, TableStatus
from db.tables import LiveMark, ShownRow

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


async def test_a_table_s_live_mark_moves_with_its_status_its_log_and_its_message(
        database_target: str) -> None:
    """What the live page of another process polls (db.tables.live_mark): one row, moving
    with the status, the last log entry and what the table message was confirmed to show."""
    db = await Database.open(database_target)
    try:
        t = await new_table(db)
        assert await db.tables.live_mark(t.id + 1) is None
        lobby = await db.tables.live_mark(t.id)
        assert lobby == LiveMark(TableStatus.LOBBY, None, None, None, None)
        await db.tables.set_shown_many([ShownRow(t.id, -1, "seats-1"), ShownRow(t.id, 0, "h")])
        seated = await db.tables.live_mark(t.id)
        assert seated is not None and seated.shown == "seats-1" and seated != lobby
        await db.tables.set_status(t.id, TableStatus.PLAYING)
        await db.log.append(t.id, [LogEntry(0, "deal", {"dealer": 0}),
                                   LogEntry(1, "action", {"seat": 1, "action": "pass"})])
        await db.tables.set_shown_many([ShownRow(t.id, -1, "deal-1", 2, 1234.5)])
        playing = await db.tables.live_mark(t.id)
        assert playing == LiveMark(TableStatus.PLAYING, 1, "deal-1", 2, 1234.5)
        assert await db.tables.live_mark(t.id) == playing  # nothing moved: the same mark
        await db.tables.set_status(t.id, TableStatus.ENDED)
        ended = await db.tables.live_mark(t.id)
        assert ended is not None and ended.status is TableStatus.ENDED
    finally:
        await db.close()
