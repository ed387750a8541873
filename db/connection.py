"""The SQLite connection: WAL, foreign keys, a busy timeout, and a single writer.

One aiosqlite connection serves the whole process. Its worker thread runs statements one at a
time; the lock here also keeps a multi-statement transaction from interleaving with anything
else on the connection, so every transaction is all-or-nothing and readers never see half of one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .migrate import apply_migrations

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000


class Transaction:
    """Statements inside one ``BEGIN IMMEDIATE ... COMMIT``."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int | None:
        """Run one statement; returns the last row id (for INSERTs)."""
        cursor = await self._conn.execute(sql, tuple(params))
        rowid = cursor.lastrowid
        await cursor.close()
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        await self._conn.executemany(sql, [tuple(r) for r in rows])

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self._conn.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._conn.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())


class Database:
    """The process's database. Open with :meth:`open`; repositories hang off it."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        from .guilds import GuildRepo
        from .log import ActionLog
        from .results import ResultRepo
        from .tables import TableRepo

        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = path
        self.tables = TableRepo(self)
        self.log = ActionLog(self)
        self.results = ResultRepo(self)
        self.guilds = GuildRepo(self)

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; we open them explicitly.
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL is durable against a killed process in WAL mode (only a power cut can lose
        # the last commits); FULL would fsync on every card played.
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        db = cls(conn, path)
        async with db.transaction() as tx:
            applied = await apply_migrations(tx)
        if applied:
            log.info("database %s: applied migrations %s", path, ", ".join(applied))
        return db

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """``async with db.transaction() as tx:`` commits on success, rolls back on error."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield Transaction(self._conn)
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

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self._lock, self._conn.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock, self._conn.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def write(self, sql: str, params: Iterable[Any] = ()) -> None:
        """One statement, atomic by itself (autocommit), in a single trip to the db thread."""
        async with self._lock:
            await self._conn.execute(sql, tuple(params))

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int | None:
        """One statement in its own transaction; returns the last row id."""
        async with self.transaction() as tx:
            return await tx.execute(sql, params)
