"""Starting a game, cut short at every database statement (an error, or the process killed
there): the table is then either still a lobby the host can start or a game with its first
deal, in the same process and after a restart; never a game nobody can play."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any, cast

import aiosqlite
import pytest

from db import LogEntry
from db.sqlite import SqliteDatabase
from service import Refusal
from service.tables import NewTable, TableService
from tests.bot.helpers import status_of

from .test_finish_crash import CutConnection, process_gone
from .test_service import CHANNEL, GUILD, play_random

HOST = 1


async def lobby(service: TableService) -> int:
    live = await service.create(NewTable(GUILD, CHANNEL, HOST, "ana", "classic", {}))
    for seat, uid in enumerate((2, 3, 4), start=1):
        await service.sit(live.id, uid, f"p{uid}", seat)
    return live.id


async def check_playable(service: TableService, table_id: int) -> None:
    """The table is a lobby the host can start, or a game under way: either way a card can be
    played now, and the log in the database holds what memory holds."""
    live = service.live[table_id]
    if live.row.status == "lobby":
        assert live.match is None
        await service.start(table_id, HOST)
    assert live.row.status == "playing" and live.match is not None
    assert live.match.deal is not None  # the first deal is dealt
    entries = await service.db.log.entries(table_id)
    assert entries[0].kind == "deal" and live.seq == len(entries)
    assert await status_of(service.db, table_id) == "playing"
    await play_random(service, table_id, 3)
    assert live.seq == len(entries) + 3


@pytest.mark.parametrize("mode", ["error", "kill"])
async def test_start_is_all_or_nothing(tmp_path: Path, mode: str) -> None:
    cut_at = 1
    while True:
        path = tmp_path / f"{mode}{cut_at}.sqlite3"
        db = await SqliteDatabase.connect(str(path))
        service = TableService(db)
        table_id = await lobby(service)
        real = db._conn
        cut = CutConnection(real, cut_at, mode)
        db._conn = cast(aiosqlite.Connection, cut)  # a stand-in that fails at one statement
        try:
            await service.start(table_id, HOST)
        except Refusal as e:  # answered (by a killed process, to nobody): nothing changed
            assert "could not be saved" in str(e)
            assert service.live[table_id].row.status == "lobby"
        except (asyncio.CancelledError, sqlite3.OperationalError):
            assert mode == "kill"
        reached = cut.statements < cut_at  # the start went through before the cut
        if mode == "error":  # the same process goes on
            db._conn = real
            await check_playable(service, table_id)
        await process_gone(db, real)
        db = await SqliteDatabase.connect(str(path))
        try:
            again = TableService(db)
            await again.restore()
            await check_playable(again, table_id)
            await again.close()
        finally:
            await db.close()
        if reached:
            break
        cut_at += 1
    assert cut_at > 3  # starting took several statements (one transaction), each one cut


@pytest.mark.parametrize("before", [True, False], ids=["before-write", "during-write"])
async def test_a_cancelled_start_leaves_memory_as_saved(tmp_path: Path, before: bool) -> None:
    db = await SqliteDatabase.connect(str(tmp_path / "cancel.sqlite3"))
    try:
        service = TableService(db)
        table_id = await lobby(service)
        reached = asyncio.Event()
        real = db.tables.start

        async def start(table_id: int, entries: list[LogEntry],
                        sweep_at: float | None = None, **credits: Any) -> None:
            reached.set()
            if before:
                await asyncio.sleep(0)
            await real(table_id, entries, sweep_at, **credits)

        db.tables.start = start  # type: ignore[method-assign]
        task = asyncio.create_task(service.start(table_id, HOST))
        await reached.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        live = service.live[table_id]
        saved = await db.tables.get(table_id)
        assert saved is not None and live.row.status == saved.status
        assert live.seq == len(await db.log.entries(table_id))
        await check_playable(service, table_id)
    finally:
        await db.close()
