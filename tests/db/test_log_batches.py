"""The action log's group commit: the moves of tables appending at the same time share a
statement, and each move still stands or falls alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from db import Database, LogEntry
from db import log as action_log

from .test_db import new_table


async def new_tables(db: Database, n: int) -> list[int]:
    return [(await new_table(db)).id for _ in range(n)]


def count_statements(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Rows of each INSERT into the log from here on."""
    rows: list[int] = []
    write = db.write

    async def counted(sql: str, params: Any = ()) -> None:
        if sql.startswith("INSERT INTO actions"):
            rows.append(len(list(params)) // 5)
        await write(sql, params)

    monkeypatch.setattr(db, "write", counted)
    return rows


def deal(seq: int = 0) -> LogEntry:
    return LogEntry(seq, "deal", {"dealer": 0, "deck": ["7C"]})


def move(seq: int, user: int = 9) -> LogEntry:
    return LogEntry(seq, "action", {"seat": 1, "action": "pass"}, user)


async def test_moves_of_tables_at_once_share_a_write_and_all_land(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = await new_tables(db, 30)
    statements = count_statements(db, monkeypatch)
    await asyncio.gather(*(db.log.append(t, [deal(), move(1, t)]) for t in tables))
    assert statements == [60]  # thirty appends, one statement
    for t in tables:
        assert [(e.seq, e.kind, e.user_id) for e in await db.log.entries(t)] == [
            (0, "deal", None), (1, "action", t)]


async def test_moves_that_come_while_a_write_is_on_its_way_go_in_the_next(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = await new_tables(db, 5)
    statements = count_statements(db, monkeypatch)
    first = asyncio.create_task(db.log.append(tables[0], [deal()]))
    await asyncio.sleep(0)  # the writer took it and is waiting for the database
    await asyncio.gather(first, *(db.log.append(t, [deal(), move(1)]) for t in tables[1:]))
    assert statements == [1, 8]
    for t in tables[1:]:
        assert [e.seq for e in await db.log.entries(t)] == [0, 1]


async def test_a_broken_step_fails_only_its_own_table(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, c, d = await new_tables(db, 4)
    for t in (a, b, c, d):
        await db.log.append(t, [deal()])
    statements = count_statements(db, monkeypatch)
    results = await asyncio.gather(
        db.log.append(a, [move(1)]),
        db.log.append(b, [move(1)]),
        db.log.append(c, [move(2), move(0)]),  # seq 0 is taken: neither of c's steps is kept
        db.log.append(d, [move(1), move(2)]),
        return_exceptions=True)
    assert [results[0], results[1], results[3]] == [None, None, None]
    assert isinstance(results[2], db.integrity_errors)
    # All four together (refused because of c), then one by one.
    assert statements == [6, 1, 1, 2, 2]
    assert [e.seq for e in await db.log.entries(b)] == [0, 1]
    assert [e.seq for e in await db.log.entries(c)] == [0]
    assert [e.seq for e in await db.log.entries(d)] == [0, 1, 2]


async def test_a_caller_that_stops_waiting_still_has_its_step_logged(db: Database) -> None:
    a, b = await new_tables(db, 2)
    first = asyncio.create_task(db.log.append(a, [deal()]))
    await asyncio.sleep(0)  # a's write is on its way
    second = asyncio.create_task(db.log.append(b, [deal()]))
    await asyncio.sleep(0)
    second.cancel()
    await first
    with pytest.raises(asyncio.CancelledError):
        await second
    await db.log.append(a, [move(1)])  # the writer goes on for the next ones
    assert [e.seq for e in await db.log.entries(b)] == [0]
    assert [e.seq for e in await db.log.entries(a)] == [0, 1]


async def test_a_long_queue_is_written_in_statements_of_whole_appends(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(action_log, "ROWS_PER_STATEMENT", 7)
    tables = await new_tables(db, 6)
    statements = count_statements(db, monkeypatch)
    await asyncio.gather(*(db.log.append(t, [deal(), move(1), move(2)]) for t in tables))
    # Two appends a statement (three would be 9 rows, over 7): an append is never split.
    assert statements == [6, 6, 6]
    for t in tables:
        assert [e.seq for e in await db.log.entries(t)] == [0, 1, 2]
