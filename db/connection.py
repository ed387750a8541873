"""The database a process uses: SQLite (the default) or PostgreSQL, behind one interface.

Repositories see a :class:`Database` (``fetchone``, ``fetchall``, ``write``, ``execute``,
``transaction``) and a :class:`Transaction` (``execute``, ``executemany``, ``fetchone``,
``fetchall``), and write SQLite's SQL with ``?`` placeholders. The SQLite implementation runs
it as it is; the PostgreSQL one (db/postgres.py) rewrites the few SQLite idioms the repositories
use (db/dialect.py says which) before running it.

:meth:`Database.open` picks the implementation from what it is given: a path, ``:memory:`` or
``sqlite:///path`` opens SQLite; ``postgresql://...`` opens PostgreSQL.

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
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, overload
from urllib.parse import unquote, urlsplit

import aiosqlite

from .migrate import apply_migrations

if TYPE_CHECKING:
    from .analyses import AnalysisRepo
    from .audit import AuditRepo
    from .challenge import ChallengeRepo
    from .credits import CreditsRepo
    from .guild_settings import GuildSettingsRepo
    from .guilds import GuildRepo
    from .log import ActionLog
    from .readers import MemberLanguagesRepo
    from .results import ResultRepo
    from .seasons import SeasonRepo
    from .tables import TableRepo
    from .tournaments import TournamentRepo
    from .web_tokens import WebTokenRepo

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

# A row as either backend gives it (aiosqlite.Row or asyncpg.Record): both index by position
# and by column name, and that is all the repositories use.
Row: TypeAlias = Any

T = TypeVar("T")

SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_PREFIXES)


def sqlite_path(target: str | Path) -> str:
    """The file a SQLite target names: a path, ``:memory:`` or ``sqlite:///path``."""
    text = str(target)
    if text.startswith(SQLITE_PREFIX):
        text = text[len(SQLITE_PREFIX):] or ":memory:"
    elif "://" in text:
        raise ValueError(f"not a database URL this bot knows: {redact(text)!r} (use "
                         "sqlite:///path or postgresql://user@host/database)")
    return text


# The forms a database password takes in text (issue 48): a URL's userinfo
# (``scheme://user:pass@host``; greedy up to the last ``@`` before a ``/`` or a space, as a raw
# ``@`` in a password is common), and ``password=`` (also ``sslpassword=``, ``PGPASSWORD=``...)
# as a URL query parameter or a libpq ``key=value`` connection string, quoted or not.
_USERINFO = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*):[^\s/]*@")
_PASSWORD_KEY = re.compile(r"(?i)(\w*password\s*=\s*)(?:'(?:\\.|[^'\\])*'|[^\s&#;]*)")


def redact(text: str) -> str:
    """``text`` (a database URL, a libpq connection string, a log line) without any database
    password in it, fit for a log line: each password becomes ``***``."""
    text = _USERINFO.sub(r"\1:***@", text)
    return _PASSWORD_KEY.sub(r"\1***", text)


def url_passwords(url: str) -> list[str]:
    """The passwords a database URL holds (userinfo, ``password=`` in its query), as written and
    percent-decoded: what a log filter must scrub wherever it appears, even out of its URL."""
    found: list[str] = []
    parts = urlsplit(url)
    if parts.password:
        found.append(parts.password)
    for pair in parts.query.split("&"):
        key, _, value = pair.partition("=")
        if key.lower().endswith("password") and value:
            found.append(value)
    found += [unquote(p) for p in found]
    # A password of one or two characters would scrub unrelated text: the patterns above
    # still catch it where it is written as a password.
    return sorted({p for p in found if len(p) > 2}, key=len, reverse=True)


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


class Database(ABC):
    """The process's database. Open with :meth:`open`; repositories hang off it."""

    #: "sqlite" or "postgresql": for the few places that must know (tests, migrate-db).
    dialect: str
    #: What was opened, without a password: a file path or a redacted URL.
    path: str
    #: Errors a broken constraint raises (a second writer of the same log step, a seat of a
    #: table that does not exist), whichever the backend.
    integrity_errors: tuple[type[Exception], ...]

    # The repositories, one per concern, every one reached the same way: ``db.credits``.
    # They keep no state of their own (the database is the state), so one of each is enough.
    tables: TableRepo
    log: ActionLog
    results: ResultRepo
    guilds: GuildRepo
    settings: GuildSettingsRepo
    languages: MemberLanguagesRepo
    audit: AuditRepo
    credits: CreditsRepo
    tournaments: TournamentRepo
    seasons: SeasonRepo
    challenge: ChallengeRepo
    web_tokens: WebTokenRepo
    analyses: AnalysisRepo

    def _repositories(self) -> None:
        from .analyses import AnalysisRepo
        from .audit import AuditRepo
        from .challenge import ChallengeRepo
        from .credits import CreditsRepo
        from .guild_settings import GuildSettingsRepo
        from .guilds import GuildRepo
        from .log import ActionLog
        from .readers import MemberLanguagesRepo
        from .results import ResultRepo
        from .seasons import SeasonRepo
        from .tables import TableRepo
        from .tournaments import TournamentRepo
        from .web_tokens import WebTokenRepo

        self.tables = TableRepo(self)
        self.log = ActionLog(self)
        self.results = ResultRepo(self)
        self.guilds = GuildRepo(self)
        self.settings = GuildSettingsRepo(self)
        self.languages = MemberLanguagesRepo(self)
        self.audit = AuditRepo(self)
        self.credits = CreditsRepo(self)
        self.tournaments = TournamentRepo(self)
        self.seasons = SeasonRepo(self)
        self.challenge = ChallengeRepo(self)
        self.web_tokens = WebTokenRepo(self)
        self.analyses = AnalysisRepo(self)

    @overload
    @staticmethod
    async def open(target: Path) -> SqliteDatabase: ...

    @overload
    @staticmethod
    async def open(target: str | Path) -> Database: ...

    @staticmethod
    async def open(target: str | Path) -> Database:
        """Open (creating if need be) and migrate the database ``target`` names (a path is
        always a SQLite file)."""
        if is_postgres_url(target):
            from .postgres import PostgresDatabase
            return await PostgresDatabase.connect(str(target))
        return await SqliteDatabase.connect(sqlite_path(target))

    @abstractmethod
    async def close(self) -> None: ...

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

    @abstractmethod
    async def reset_sequences(self) -> None:
        """After rows were copied in with their ids (db/transfer.py): new rows get ids above
        them."""


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
    async def connect(cls, path: str) -> SqliteDatabase:
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
