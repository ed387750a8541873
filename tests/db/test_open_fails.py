"""A database that cannot be opened (a migration fails) leaves no connection behind: aiosqlite's
worker thread is no daemon, and one left running keeps the process from exiting."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from db import Database


def workers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


def still_running(threads: set[threading.Thread]) -> list[threading.Thread]:
    """Those of ``threads`` that do not end (a closed connection's worker ends at once; an
    open one's waits for work forever)."""
    for thread in threads:
        thread.join(timeout=10)
    return [t for t in threads if t.is_alive()]


async def test_a_failed_migration_closes_the_connection(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    db = await Database.open(path)
    await db.close()
    con = sqlite3.connect(path)  # a migration that will fail when applied again
    con.execute("DELETE FROM schema_migrations WHERE version = 12")
    con.commit()
    con.close()
    before = workers()
    with pytest.raises(sqlite3.OperationalError, match="already exists"):
        await Database.open(path)
    assert still_running(workers() - before) == []
    # Nothing was half-applied: with the version recorded again, it opens.
    con = sqlite3.connect(path)
    con.execute("INSERT INTO schema_migrations (version, name) VALUES (12, 'member_languages')")
    con.commit()
    con.close()
    db = await Database.open(path)
    await db.close()
