"""What a repository sees of the database: :class:`Queries` (``fetchone``, ``fetchall``,
``write``, ``execute``, ``transaction``) and a :class:`Transaction` (``execute``,
``executemany``, ``fetchone``, ``fetchall``). Repositories write SQLite's SQL with ``?``
placeholders; each backend (db/sqlite.py, db/postgres.py) runs it its own way.

Kept apart from db/connection.py, which builds the repositories, so that a repository names
only what it uses and no import runs back up."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeAlias

# A row as either backend gives it (aiosqlite.Row or asyncpg.Record): both index by position
# and by column name, and that is all the repositories use.
Row: TypeAlias = Any

# The largest integer either backend stores (64-bit): an id past it is refused before it
# reaches a query (SQLite would raise OverflowError).
MAX_ID = 2**63 - 1


class Transaction(ABC):
    """Statements that commit together or not at all."""

    @abstractmethod
    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int | None:
        """Run one statement; returns the new row's id for an INSERT into a table whose
        primary key is one generated integer (``tables.id``, ``matches.seq``, ...)."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None: ...

    @abstractmethod
    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...


class Queries(ABC):
    """The statements a repository runs, whichever the backend."""

    #: "sqlite" or "postgresql": for the few places that must know (tests, migrate-db).
    dialect: str
    #: What was opened, without a password: a file path or a redacted URL.
    path: str
    #: Errors a broken constraint raises (a second writer of the same log step, a seat of a
    #: table that does not exist), whichever the backend.
    integrity_errors: tuple[type[Exception], ...]

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """``async with db.transaction() as tx:`` commits on success, rolls back on error."""

    @abstractmethod
    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def write(self, sql: str, params: Iterable[Any] = ()) -> None:
        """One statement, atomic by itself (autocommit), in a single trip to the database."""

    async def ping(self) -> None:
        """A trivial query: returns once the database answers (the bot's readiness check)."""
        await self.fetchone("SELECT 1")

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int | None:
        """One statement in its own transaction; returns the new row's id (see
        :meth:`Transaction.execute`)."""
        async with self.transaction() as tx:
            return await tx.execute(sql, params)
