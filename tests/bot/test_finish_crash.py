"""The click that wins a match, cut short at every database statement (an error, or the process
killed there): after a restart the table is either just before that click or fully finished,
never a won match without its result, ratings and closed table."""

from __future__ import annotations

import asyncio
import copy
import sqlite3
from pathlib import Path
from typing import Any, cast

import aiosqlite
import pytest

from db import Database, LogEntry
from db.sqlite import SqliteDatabase
from game.actions import Play
from game.players import RandomPlayer
from game.record import action_to_json
from game.view import table_view
from service import Refusal
from service.tables import NewTable, TableService
from tests.bot.helpers import match_of, status_of, to_act

from .test_service import CHANNEL, GUILD, Recorder, four_players, user_at

USERS = (1, 2, 3, 4)


class CutConnection:
    """The database connection, cut at its ``cut_at``-th statement: ``error`` makes that one
    statement fail (the connection lives on); ``kill`` stops everything from there, as a
    killed process does (nothing more reaches the database, not even a rollback)."""

    def __init__(self, conn: Any, cut_at: int, mode: str) -> None:
        self.conn, self.cut_at, self.mode = conn, cut_at, mode
        self.statements = 0
        self.dead = False

    def _check(self) -> None:
        if self.dead:
            raise sqlite3.OperationalError("the process is gone")
        self.statements += 1
        if self.statements == self.cut_at:
            if self.mode == "kill":
                self.dead = True
                raise asyncio.CancelledError()
            raise sqlite3.OperationalError("disk I/O error")

    def execute(self, *args: Any) -> Any:
        self._check()
        return self.conn.execute(*args)

    def executemany(self, *args: Any) -> Any:
        self._check()
        return self.conn.executemany(*args)

    def execute_fetchall(self, *args: Any) -> Any:
        self._check()
        return self.conn.execute_fetchall(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


async def process_gone(db: SqliteDatabase, real: aiosqlite.Connection) -> None:
    """The end of the process that held ``db``, cut or not: its connection closes (which rolls
    back a transaction left open) and so does its checkpointer, whose thread would otherwise
    outlive the test (aiosqlite's threads are no daemons: the interpreter could not exit)."""
    db._conn = real
    await db.close()


async def to_the_last_card(service: TableService, table_id: int) -> tuple[int, Play]:
    """Play at random until the next card wins the match; returns (user, that card)."""
    rng = RandomPlayer(5)
    for _ in range(2000):
        live = service.live[table_id]
        seat = to_act(live)
        action = rng.choose(table_view(match_of(live), seat))
        if isinstance(action, Play):
            trial = copy.deepcopy(match_of(live))
            trial.apply(action, seat)
            if trial.winner is not None:
                return user_at(service, table_id, seat), Play(action.card)
        await service.act(table_id, user_at(service, table_id, seat), live.seq, action)
    raise AssertionError("no match point")


async def ratings(db: Database) -> dict[int, int]:
    """Matches counted per user."""
    rows = await db.fetchall("SELECT user_id, matches FROM skills WHERE kind = 0")
    return {r[0]: r[1] for r in rows}


async def check_whole(db: Database, table_id: int, user: int, card: Play) -> str:
    """Restore on ``db`` and check the table is before the winning click or fully after it.
    Returns which ("before" or "after")."""
    rec = Recorder()
    service = TableService(db, listener=rec)
    was_open = await status_of(db, table_id) == "playing"
    await service.restore()
    counted = await db.fetchone("SELECT COUNT(*) FROM matches WHERE table_id = ?", (table_id,))
    assert counted is not None
    results = counted[0]
    row = await db.tables.get(table_id)
    assert row is not None
    if results == 0:
        assert row.status == "playing" and table_id in service.live
        assert await ratings(db) == {}
        live = service.live[table_id]
        await service.act(table_id, user, live.seq, card)  # the card can be played again
        outcome = "before"
    else:
        assert results == 1
        # A won match still open in the database is finished by the restore, and told.
        assert not was_open or [c for c in rec.calls if c[0] == "match"]
        outcome = "after"
    assert await status_of(db, table_id) == "finished"
    assert table_id not in service.live
    assert await ratings(db) == dict.fromkeys(USERS, 1)  # counted once
    for uid in USERS:  # nobody is held at the finished table
        await service.create(NewTable(GUILD, CHANNEL, uid, f"p{uid}", "classic", {}))
    return outcome


@pytest.mark.parametrize("mode", ["error", "kill"])
async def test_the_winning_click_is_all_or_nothing(tmp_path: Path, mode: str) -> None:
    outcomes = []
    cut_at = 1
    while True:
        path = tmp_path / f"{mode}{cut_at}.sqlite3"
        db = await SqliteDatabase.connect(str(path))
        service = TableService(db)
        table_id = await four_players(service)
        user, card = await to_the_last_card(service, table_id)
        real = db._conn
        cut = CutConnection(real, cut_at, mode)
        db._conn = cast(aiosqlite.Connection, cut)  # a stand-in that fails at one statement
        try:
            await service.act(table_id, user, service.live[table_id].seq, card)
        except Refusal as e:  # the error, answered: nothing changed
            assert mode == "error" and "could not be saved" in str(e)
            assert table_id in service.live
        except (asyncio.CancelledError, sqlite3.OperationalError):
            assert mode == "kill"
        reached = cut.statements < cut_at  # the click went through before the cut
        if mode == "error" and not reached:
            # The same process goes on: the card was not played and can be played again.
            db._conn = real
            live = service.live[table_id]
            await service.act(table_id, user, live.seq, card)
        await process_gone(db, real)
        db = await SqliteDatabase.connect(str(path))
        try:
            outcomes.append(await check_whole(db, table_id, user, card))
        finally:
            await db.close()
        if reached:
            break
        cut_at += 1
    assert cut_at > 3  # the winning click took several statements, each one cut
    # Killed before its COMMIT, the click is undone; an error is answered, and the player
    # plays the card again in the same process.
    assert outcomes[-1] == "after"
    assert ("before" in outcomes) == (mode == "kill")


async def test_a_won_match_left_unrecorded_is_finished_at_restore(tmp_path: Path) -> None:
    # What a bot from before this fix left when stopped between the last card and the result.
    path = tmp_path / "old.sqlite3"
    db = await SqliteDatabase.connect(str(path))
    service = TableService(db)
    table_id = await four_players(service)
    user, card = await to_the_last_card(service, table_id)
    live = service.live[table_id]
    seat = to_act(live)
    await db.log.append(table_id, [LogEntry(live.seq, "action", action_to_json(seat, card),
                                            user)])
    await db.close()
    db = await SqliteDatabase.connect(str(path))
    try:
        rec = Recorder()
        service = TableService(db, listener=rec)
        assert await service.restore() == []
        assert await status_of(db, table_id) == "finished"
        assert await db.results.winner_of(table_id) in (0, 1)
        assert await ratings(db) == dict.fromkeys(USERS, 1)
        assert [c for c in rec.calls if c[0] == "match"]
        for uid in USERS:
            await service.create(NewTable(GUILD, CHANNEL, uid, f"p{uid}", "classic", {}))
        again = TableService(db)  # and only once
        await again.restore()
        assert await ratings(db) == dict.fromkeys(USERS, 1)
    finally:
        await db.close()
