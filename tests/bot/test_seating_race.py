"""One table per person per server, even when two seating requests of the same person run at
once: every database call yields to the other request (as a busy database thread does), so
the second request runs its checks while the first one is still writing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from db import Database
from service import Refusal
from service.tables import NewTable, TableService

from .test_service import CHANNEL, GUILD

HOST = 1


def yielding(db: Database) -> Database:
    """``db`` with every call giving the other tasks a few turns first."""

    async def pause() -> None:
        for _ in range(3):
            await asyncio.sleep(0)

    def wrap(method: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            await pause()
            return await method(*args, **kwargs)
        return call

    real_transaction = db.transaction

    @contextlib.asynccontextmanager
    async def transaction() -> AsyncIterator[Any]:
        await pause()
        async with real_transaction() as tx:
            yield tx

    for name in ("fetchone", "fetchall", "write", "execute"):
        setattr(db, name, wrap(getattr(db, name)))
    db.transaction = transaction  # type: ignore[method-assign]
    return db


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "races.sqlite3")
    yield yielding(database)
    await database.close()


async def open_seats(db: Database, user_id: int) -> int:
    """The seats this user plays at open tables of the server, in the database."""
    row = await db.fetchone(
        "SELECT COUNT(*) FROM seats s JOIN tables t ON t.id = s.table_id WHERE t.guild_id = ?"
        " AND s.user_id = ? AND s.computer IS NULL AND t.status IN ('lobby', 'playing')",
        (GUILD, user_id))
    assert row is not None
    return int(row[0])


def one_went_through(results: Sequence[object]) -> None:
    assert sum(not isinstance(r, BaseException) for r in results) == 1, results
    refused = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(r, Refusal) and "sit at table #" in str(r) for r in refused), refused


async def test_two_creates_by_the_same_host_open_one_table(db: Database) -> None:
    service = TableService(db)
    results = await asyncio.gather(
        *(service.create(NewTable(GUILD, CHANNEL, HOST, "ana", "classic", {}))
          for _ in range(2)), return_exceptions=True)
    one_went_through(results)
    assert len(service.live) == 1
    assert await open_seats(db, HOST) == 1
    assert len(await db.tables.open_tables()) == 1  # the refused one left no empty table


async def test_create_while_sitting_down_elsewhere(db: Database) -> None:
    service = TableService(db)
    other = await service.create(NewTable(GUILD, CHANNEL, 9, "zed", "classic", {}))
    results = await asyncio.gather(
        service.create(NewTable(GUILD, CHANNEL, HOST, "ana", "classic", {})),
        service.sit(other.id, HOST, "ana", 1), return_exceptions=True)
    one_went_through(results)
    assert await open_seats(db, HOST) == 1
    assert sum(live.seat_of(HOST) is not None for live in service.live.values()) == 1


async def test_sitting_at_two_tables_at_once(db: Database) -> None:
    service = TableService(db)
    first = await service.create(NewTable(GUILD, CHANNEL, 8, "yan", "classic", {}))
    second = await service.create(NewTable(GUILD, CHANNEL, 9, "zed", "classic", {}))
    results = await asyncio.gather(service.sit(first.id, HOST, "ana", 1),
                                   service.sit(second.id, HOST, "ana", 1),
                                   return_exceptions=True)
    one_went_through(results)
    assert await open_seats(db, HOST) == 1


async def test_taking_a_seat_back_while_creating(db: Database) -> None:
    service = TableService(db, computer_delay=3600)
    live = await service.create(NewTable(GUILD, CHANNEL, 9, "zed", "classic", {}, fill=True))
    await service.sit(live.id, HOST, "ana", 1)
    await service.start(live.id, 9)
    await service.leave(live.id, HOST)  # a computer plays their seat; they may come back
    results = await asyncio.gather(
        service.create(NewTable(GUILD, CHANNEL, HOST, "ana", "classic", {})),
        service.reclaim(live.id, HOST), return_exceptions=True)
    one_went_through(results)
    assert await open_seats(db, HOST) == 1
    await service.close()
