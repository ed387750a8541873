"""SQLite: single statements go to the database's thread together, in the order they were
asked, never inside someone else's transaction and never ahead of a caller already waiting."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from db import Database
from db.sqlite import SqliteDatabase

SET = "INSERT OR REPLACE INTO member_languages (user_id, language) VALUES (?, ?)"
GET = "SELECT language FROM member_languages WHERE user_id = ?"


@pytest.fixture
async def sqlite(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    db = await Database.open(tmp_path / "belote.sqlite3")
    assert isinstance(db, SqliteDatabase)
    yield db
    await db.close()


class HeldThread:
    """Keeps the database's thread busy until released, and counts the trips queued to it
    (aiosqlite queues one function per trip)."""

    def __init__(self, db: SqliteDatabase) -> None:
        self.conn: Any = db._conn
        self.queue: Any = self.conn._execute
        self.release = threading.Event()
        self.queued = 0
        setattr(self.conn, "_execute", self._counted)  # noqa: B010

    async def _counted(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        self.queued += 1
        return await self.queue(fn, *args, **kwargs)

    def hold(self) -> asyncio.Future[Any]:
        held: asyncio.Future[Any] = asyncio.ensure_future(self.queue(self.release.wait, 10))
        return held

    def undo(self) -> None:
        del self.conn._execute


def language(row: Any) -> str:
    assert row is not None
    return str(row[0])


async def turns(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_single_statements_are_on_their_way_together(sqlite: SqliteDatabase) -> None:
    thread = HeldThread(sqlite)
    held = thread.hold()
    try:
        asked: list[asyncio.Future[Any]] = [
                 asyncio.ensure_future(sqlite.write(SET, (1, "fr"))),
                 asyncio.ensure_future(sqlite.fetchone(GET, (1,))),
                 asyncio.ensure_future(sqlite.write(SET, (1, "bg"))),
                 asyncio.ensure_future(sqlite.fetchall(GET, (1,)))]
        await turns()
        # All four are in the thread's queue behind the held trip, none waits for a lock.
        assert thread.queued == 4 and not any(a.done() for a in asked)
    finally:
        thread.release.set()
        await held
        thread.undo()
    _, first, _, last = await asyncio.gather(*asked)
    assert language(first) == "fr" and [r[0] for r in last] == ["bg"]  # in the order asked


async def test_a_statement_waits_for_an_open_transaction_and_is_not_part_of_it(
        sqlite: SqliteDatabase) -> None:
    await sqlite.write(SET, (1, "en"))
    written: asyncio.Future[None] | None = None
    with pytest.raises(RuntimeError):
        async with sqlite.transaction() as tx:
            await tx.execute(SET, (1, "fr"))
            written = asyncio.ensure_future(sqlite.write(SET, (2, "bg")))
            await turns()
            assert not written.done()  # it waits: it would have run inside the transaction
            raise RuntimeError("rolled back")
    assert written is not None
    await written
    assert language(await sqlite.fetchone(GET, (1,))) == "en"  # the transaction's undone
    assert language(await sqlite.fetchone(GET, (2,))) == "bg"  # the statement's kept


async def test_a_statement_never_overtakes_a_caller_already_waiting(
        sqlite: SqliteDatabase) -> None:
    """A write that was waiting for a transaction to end lands before a write asked after
    the transaction ended, even if that one is asked before the first gets going again."""
    waiting: asyncio.Future[None] | None = None
    async with sqlite.transaction() as tx:
        await tx.execute(SET, (1, "en"))
        waiting = asyncio.ensure_future(sqlite.write(SET, (1, "fr")))
        await turns()
    # The transaction is over; the waiting write has not run again yet: this one is asked
    # now, in the same step, and must still go after it.
    assert waiting is not None and not waiting.done()
    await sqlite.write(SET, (1, "bg"))
    await waiting
    assert language(await sqlite.fetchone(GET, (1,))) == "bg"  # the later write is the last
