"""SQLite's write-ahead log is copied back into the database file by a second connection on a
timer, never inside one of the bot's writes (which would then wait for the disk)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from db import Database, LogEntry
from db import sqlite as db_sqlite
from db.sqlite import SqliteDatabase

from .test_db import new_table

BIG = {"seat": 0, "action": "pass", "note": "x" * 3000}  # about a page a step


async def fill(db: Database, table_id: int, steps: int, start: int = 0) -> None:
    for seq in range(start, start + steps, 50):
        await db.log.append(table_id, [LogEntry(s, "action", BIG) for s in range(seq, seq + 50)])


async def test_the_bots_writes_leave_the_log_to_the_checkpointer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db_sqlite, "CHECKPOINT_EVERY", 3600.0)  # only when asked, here
    db = await SqliteDatabase.connect(str(tmp_path / "b.sqlite3"))
    try:
        t = (await new_table(db)).id
        await fill(db, t, 1500)  # past SQLite's own mark (1,000 pages)
        checkpointed = await db.checkpoint()
        assert checkpointed is not None
        in_log, copied = checkpointed
        assert in_log > 1000  # no write of the bot's copied the log back on its way
        assert copied == in_log  # the second connection copied all of it
        await fill(db, t, 100, start=1500)
        checkpointed = await db.checkpoint()
        assert checkpointed is not None and checkpointed[0] < 200  # the log started over
        assert len(await db.log.entries(t)) == 1600
    finally:
        await db.close()


async def test_the_checkpointer_runs_on_its_timer_and_stops_with_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db_sqlite, "CHECKPOINT_EVERY", 0.0)
    path = tmp_path / "b.sqlite3"
    threads = threading.active_count()
    db = await SqliteDatabase.connect(str(path))
    try:
        before = path.stat().st_size
        await fill(db, (await new_table(db)).id, 300)
        for _ in range(500):  # the database file grows once the log is copied into it
            if path.stat().st_size > before + 300 * 3000:
                break
            await asyncio.sleep(0.01)
        assert path.stat().st_size > before + 300 * 3000
    finally:
        await db.close()
    for _ in range(500):  # aiosqlite's threads end once their connections are closed
        if threading.active_count() <= threads:
            break
        await asyncio.sleep(0.01)
    assert threading.active_count() <= threads


async def test_a_database_in_memory_has_no_checkpointer() -> None:
    db = await SqliteDatabase.connect(":memory:")
    try:
        assert await db.checkpoint() is None
    finally:
        await db.close()
