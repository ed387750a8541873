"""PostgreSQL through asyncpg (``DATABASE_URL=postgresql://...``).

Same model as the SQLite backend: one connection, one statement or transaction at a time, so
the repositories' read-then-write transactions mean the same on both. Several bot processes on
one PostgreSQL (sharding) will need more than one connection and a rule for who writes a table:
docs/postgresql.md has the plan.

The repositories' SQL is SQLite's, rewritten by db/dialect.py before it runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .connection import Database, is_postgres_url, redact
from .dialect import Catalog
from .migrate import apply_migrations
from .queries import Row, Transaction

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)


def _asyncpg() -> Any:
    try:
        import asyncpg
    except ImportError:  # an optional extra: SQLite needs none of it
        raise RuntimeError("DATABASE_URL names PostgreSQL, but asyncpg is not installed: "
                           "pip install 'belote-bot[postgres]'") from None
    return asyncpg


class PostgresTransaction(Transaction):
    __slots__ = ("_catalog", "_conn")

    def __init__(self, conn: asyncpg.Connection, catalog: Catalog) -> None:
        self._conn = conn
        self._catalog = catalog

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int | None:
        return await _execute(self._conn, self._catalog, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self._conn.executemany(self._catalog.postgres(sql), batch)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        return await self._conn.fetchrow(self._catalog.postgres(sql), *params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self._conn.fetch(self._catalog.postgres(sql), *params))


async def _execute(conn: asyncpg.Connection, catalog: Catalog, sql: str,
                   params: Iterable[Any]) -> int | None:
    query = catalog.postgres(sql)
    if " RETURNING " in query.upper():
        value = await conn.fetchval(query, *params)
        return value if isinstance(value, int) else None
    await conn.execute(query, *params)
    return None


_T = TypeVar("_T")


class DatabaseUnavailable(ConnectionError):
    """The database connection died under a write (not applied), or cannot be opened again."""


class PostgresDatabase(Database):
    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection, url: str) -> None:
        asyncpg_module = _asyncpg()
        self._conn = conn
        self._url = url
        self._lock = asyncio.Lock()
        self.path = redact(url)
        self.integrity_errors = (asyncpg_module.IntegrityConstraintViolationError,)
        # Empty until the migrations are applied (they need no rewrite but ``?``).
        self._catalog = Catalog({}, {})
        self._repositories()

    @classmethod
    def opens(cls, target: str | Path) -> bool:
        return is_postgres_url(target)

    @classmethod
    async def connect(cls, url: str) -> PostgresDatabase:
        conn = await _asyncpg().connect(url)
        db = cls(conn, url)
        try:
            async with db.transaction() as tx:
                # Two processes starting at once: the second waits here for the first's
                # migrations instead of applying them a second time.
                await tx.execute("SELECT pg_advisory_xact_lock(4242001)")
                applied = await apply_migrations(tx, cls.dialect)
            await db.load_catalog()
        except BaseException:
            await conn.close()
            raise
        if applied:
            log.info("database %s: applied migrations %s", db.path, ", ".join(applied))
        return db

    @property
    def url(self) -> str:
        """The URL connected to, with its password (never logged: ``path`` is for that)."""
        return self._url

    async def load_catalog(self) -> None:
        """Read the primary keys the SQL rewrites need (after every migration)."""
        keys: dict[str, list[str]] = {}
        for r in await self.fetchall(
                "SELECT c.relname, a.attname FROM pg_index i"
                " JOIN pg_class c ON c.oid = i.indrelid"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true"
                " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
                " WHERE i.indisprimary AND n.nspname = current_schema()"
                " ORDER BY c.relname, k.ord"):
            keys.setdefault(r[0], []).append(r[1])
        generated = {r[0]: r[1] for r in await self.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND is_identity = 'YES'")}
        self._catalog = Catalog(keys, {t: c for t, c in generated.items()
                                       if keys.get(t) == [c]})

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    # ---- a connection that drops (the server restarted, the backend was ended) --------------
    async def _connection(self) -> asyncpg.Connection:
        """The connection, opened again if it was lost. Caller holds the lock."""
        if self._conn.is_closed():
            log.warning("database %s: the connection was lost; connecting again", self.path)
            try:
                self._conn = await _asyncpg().connect(self._url)
            except (OSError, _asyncpg().PostgresError) as e:
                raise DatabaseUnavailable(f"database {self.path} unreachable: {e}") from None
        return self._conn

    def _lost(self, conn: asyncpg.Connection, error: BaseException) -> bool:
        """Did ``error`` come from the connection dying (not from the statement)?"""
        return conn.is_closed() or isinstance(error, (ConnectionError, OSError))

    async def _read(self, run: Callable[[asyncpg.Connection], Awaitable[_T]]) -> _T:
        """A read is safe to run again: once more on a new connection if the first died."""
        async with self._lock:
            conn = await self._connection()
            try:
                return await run(conn)
            except Exception as e:
                if not self._lost(conn, e):
                    raise
                if not conn.is_closed():
                    conn.terminate()
            conn = await self._connection()
            return await run(conn)

    async def _begin(self) -> tuple[asyncpg.Connection, asyncpg.transaction.Transaction]:
        """BEGIN on the connection. If it had died unnoticed, BEGIN fails before any of the
        caller's statements was sent, so beginning once more on a new connection is safe.
        Caller holds the lock."""
        conn = await self._connection()
        try:
            tr = conn.transaction()
            await tr.start()
            return conn, tr
        except Exception as e:
            if not self._lost(conn, e):
                raise
            if not conn.is_closed():
                conn.terminate()
        conn = await self._connection()
        tr = conn.transaction()
        await tr.start()
        return conn, tr

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        # A write may have reached the server before its connection died: it is not run
        # again (it could apply twice). The caller gets DatabaseUnavailable (the action is
        # refused and reloaded from the log); the next one runs on a new connection.
        async with self._lock:
            conn = self._conn
            try:
                conn, tr = await self._begin()
                try:
                    yield PostgresTransaction(conn, self._catalog)
                except BaseException:
                    if not conn.is_closed():
                        await tr.rollback()
                    raise
                await tr.commit()
            except Exception as e:
                if not self._lost(conn, e):
                    raise
                if not conn.is_closed():
                    conn.terminate()
                log.warning("database %s: the connection died during a transaction; it is "
                            "not applied, the next one connects again", self.path)
                raise DatabaseUnavailable(str(e)) from None

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        query, values = self._catalog.postgres(sql), tuple(params)
        return await self._read(lambda conn: conn.fetchrow(query, *values))

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        query, values = self._catalog.postgres(sql), tuple(params)
        return list(await self._read(lambda conn: conn.fetch(query, *values)))

    async def write(self, sql: str, params: Iterable[Any] = ()) -> None:
        async with self.transaction() as tx:
            await tx.execute(sql, params)

    async def reset_sequences(self) -> None:
        """After rows were copied in with their ids (migrate-db): each generated key goes on
        from the largest id present."""
        async with self.transaction() as tx:
            for table, column in self._catalog.generated.items():
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                    f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")
