"""SQLite, the default backend: one file in WAL mode.

SQLite: one aiosqlite connection serves the whole process. Its worker thread runs statements
one at a time, in the order they were asked; the lock here keeps a multi-statement transaction
from interleaving with anything else on the connection, so every transaction is all-or-nothing
and readers never see half of one. A single statement takes no lock while no transaction is
open or waiting: it goes straight into the thread's queue, behind the statements already
there, so many are on their way at once (under the lock, each waited for the trip of the one
before, and a trip on a busy process lasts until its event loop comes round: bench_bot
measured waits for the lock of hundreds of milliseconds at 200 tables). A second connection
does nothing but checkpoint the write-ahead log, on a timer, so that no write of the bot's
waits for the disk (CHECKPOINT_EVERY).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .connection import Database, is_postgres_url, sqlite_path
from .migrate import apply_migrations
from .queries import Row, Transaction

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000

# SQLite copies its write-ahead log back into the database file (a checkpoint, with an fsync)
# every 1,000 pages by default, inside whichever write crosses that mark: that write, and
# every statement queued behind it on the one connection, then waits for the disk (10-25 ms
# on a quiet development machine, bench/bench_db.py; far more on a busy cloud disk). Here a
# second connection, in a thread of its own, checkpoints every CHECKPOINT_EVERY seconds
# instead; the bot's connection checkpoints by itself only if the log grows past
# SAFETY_CHECKPOINT_PAGES (about 40 MB: that second connection stopped keeping up).
CHECKPOINT_EVERY = 1.0
SAFETY_CHECKPOINT_PAGES = 10_000
CHECKPOINT_TASK = "belote-db-checkpoints"  # the timer's task: it lives as long as the database

T = TypeVar("T")


class SqliteTransaction(Transaction):
    """Statements inside one ``BEGIN IMMEDIATE ... COMMIT``.

    Each statement is one trip to aiosqlite's thread: its cursor is read where it ran and
    never closed from here (a finished statement holds nothing; the cursor goes with its
    last reference). A busy process waits for every trip (the thread needs the interpreter,
    the answer needs the event loop), so trips are what a statement costs under load."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int | None:
        cursor = await self._conn.execute(sql, tuple(params))
        return cursor.lastrowid

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        await self._conn.executemany(sql, [tuple(r) for r in rows])

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        return _first(await self._conn.execute_fetchall(sql, tuple(params)))

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, tuple(params)))


def _first(rows: Iterable[Row]) -> Row | None:
    """The first of a query's rows (the queries asked for one row are keyed or LIMIT 1)."""
    return next(iter(rows), None)


class SqliteDatabase(Database):
    """One SQLite file in WAL mode, one connection, one writer at a time."""

    dialect = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._waiting = 0  # callers waiting for the lock (they keep their turn: _alone)
        self.path = path
        self._repositories()
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoints: asyncio.Task[None] | None = None

    @classmethod
    def opens(cls, target: str | Path) -> bool:
        return not is_postgres_url(target)

    @classmethod
    async def connect(cls, target: str) -> SqliteDatabase:
        path = sqlite_path(target)  # a path, ":memory:" or sqlite:///path
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; we open them explicitly.
        conn = await aiosqlite.connect(path, isolation_level=None)
        db: SqliteDatabase | None = None
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable against a killed process in WAL mode (only a power cut can
            # lose the last commits); FULL would fsync on every card played.
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            db = cls(conn, path)
            async with db.transaction() as tx:
                applied = await apply_migrations(tx, cls.dialect)
            if path != ":memory:":
                await db._checkpoint_apart()
        except BaseException:
            # aiosqlite's worker is no daemon thread: a connection left open on a failed
            # migration would keep the process from ever exiting.
            if db is not None:
                await db._stop_checkpoints()
            await conn.close()
            raise
        if applied:
            log.info("database %s: applied migrations %s", path, ", ".join(applied))
        return db

    async def _checkpoint_apart(self) -> None:
        """Checkpoint from a second connection, on a timer (see CHECKPOINT_EVERY)."""
        await self._conn.execute(f"PRAGMA wal_autocheckpoint={SAFETY_CHECKPOINT_PAGES}")
        self._checkpointer = await aiosqlite.connect(self.path, isolation_level=None)
        await self._checkpointer.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        self._checkpoints = asyncio.create_task(self._checkpoint_every(),
                                                name=CHECKPOINT_TASK)

    async def _checkpoint_every(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_EVERY)
            try:
                await self.checkpoint()
            except sqlite3.Error as e:  # the next one tries again; the safety mark holds
                log.warning("database %s: checkpoint failed (%s)", self.path, e)

    async def checkpoint(self) -> tuple[int, int] | None:
        """Copy the write-ahead log into the database file now, without waiting for (or
        holding up) the bot's connection: (pages in the log, pages copied), or None for a
        database with no second connection (``:memory:``)."""
        if self._checkpointer is None:
            return None
        rows = list(await self._checkpointer.execute_fetchall(
            "PRAGMA wal_checkpoint(PASSIVE)"))
        _, in_log, copied = rows[0]
        return in_log, copied

    async def _stop_checkpoints(self) -> None:
        if self._checkpoints is not None:
            self._checkpoints.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpoints
            self._checkpoints = None
        if self._checkpointer is not None:
            await self._checkpointer.close()
            self._checkpointer = None

    async def close(self) -> None:
        await self._stop_checkpoints()
        async with self._locked():
            await self._conn.close()

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[None]:
        """The connection to ourselves (a transaction, the close), counted while waiting."""
        self._waiting += 1
        try:
            await self._lock.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            self._lock.release()

    async def _alone(self, statement: Callable[[], Awaitable[T]]) -> T:
        """Run one statement: at once when no transaction is open and nobody waits for the
        lock (aiosqlite's queue keeps the order, and nothing can come between the check
        and the statement's entry into that queue: no await separates them), else after
        those, in turn. So a statement never runs inside someone's transaction, and never
        overtakes a caller that asked before it."""
        if not self._lock.locked() and not self._waiting:
            return await statement()
        async with self._locked():
            return await statement()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._locked():
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteTransaction(self._conn)
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            try:
                await self._conn.execute("COMMIT")
            except BaseException:
                # A failed COMMIT leaves the transaction open: end it, or its writes would
                # linger, seen by this connection only, until some later COMMIT.
                await self._conn.execute("ROLLBACK")
                raise

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        args = tuple(params)
        return _first(await self._alone(lambda: self._conn.execute_fetchall(sql, args)))

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        args = tuple(params)
        return list(await self._alone(lambda: self._conn.execute_fetchall(sql, args)))

    async def write(self, sql: str, params: Iterable[Any] = ()) -> None:
        args = tuple(params)
        await self._alone(lambda: self._conn.execute(sql, args))

    async def reset_sequences(self) -> None:
        return None  # a new rowid is always above the largest one present
