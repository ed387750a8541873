"""Shard locks and clicks carried between processes (db/routing.py) on a real PostgreSQL: a
click reaches the process that runs its shard once; none is left behind when no process takes
it; a lock connection that dies is taken again, or the process is told it lost its shards."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import asyncpg
import pytest

from db import Database
from db.postgres import PostgresDatabase
from db.routing import CLICK, SHARD_LOCKS, ClickRoutes, ShardTaken, signature


@pytest.fixture
async def db(postgres_url: str) -> AsyncIterator[PostgresDatabase]:
    opened = await Database.open(postgres_url)
    assert isinstance(opened, PostgresDatabase)
    yield opened
    await opened.close()


KEY = b"the bot's click key"


def routes(db: PostgresDatabase, heard: list[dict[str, Any]] | None = None,
           lost: Callable[[], None] = lambda: None) -> ClickRoutes:
    return ClickRoutes(db, (heard if heard is not None else []).append, lost, key=KEY)


async def until(check: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    """Wait for something another connection makes true (a real server's notice)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        assert loop.time() < deadline, "never happened"
        await asyncio.sleep(0.02)


async def leftovers(db: PostgresDatabase) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM routed_clicks")
    assert row is not None
    return int(row[0])


async def test_a_click_reaches_the_process_of_its_shard_once(db: PostgresDatabase) -> None:
    heard0: list[dict[str, Any]] = []
    heard1: list[dict[str, Any]] = []
    first, second = routes(db, heard0), routes(db, heard1)
    await first.start([0])
    await second.start([1])
    try:
        assert await first.running(1) and await first.running(0)
        assert await first.send(1, 7, {"id": "11", "data": {"custom_id": "bt:act:7:3:pass"}})

        async def taken() -> bool:  # the owner parses it just after saying it took it
            return bool(heard1)

        await until(taken)
        assert heard1 == [{"id": "11", "data": {"custom_id": "bt:act:7:3:pass"}}]
        assert heard0 == [] and await leftovers(db) == 0
        # No process runs shard 2: said at once, nothing left behind.
        assert not await first.send(2, 7, {"id": "12"})
        assert await leftovers(db) == 0
    finally:
        await first.close()
        await second.close()


async def test_a_shard_whose_owner_does_not_answer_gets_its_click_back(
        db: PostgresDatabase) -> None:
    holder = await asyncpg.connect(db.url)  # holds shard 1's lock but never listens
    await holder.fetchval("SELECT pg_advisory_lock($1, $2)", SHARD_LOCKS, 1)
    sender = routes(db)
    await sender.start([0])
    try:
        assert not await sender.send(1, 7, {"id": "13"}, timeout=0.2)
        assert await leftovers(db) == 0  # taken back: nobody can answer it twice
    finally:
        await sender.close()
        await holder.close()


async def test_a_running_shard_cannot_be_taken_twice(db: PostgresDatabase) -> None:
    first = routes(db)
    await first.start([0, 1])
    try:
        with pytest.raises(ShardTaken, match="shard 1 is run by another process"):
            await routes(db).start([1], wait=0.1, every=0.02)
    finally:
        await first.close()
    later = routes(db)
    await later.start([1], wait=0.1)  # once let go, it is free
    await later.close()


async def end_lock_connection(db: PostgresDatabase) -> None:
    await db.fetchone("SELECT pg_terminate_backend(pid) FROM pg_locks"
                      " WHERE locktype = 'advisory' AND classid = ?", (SHARD_LOCKS,))


async def test_a_lost_lock_connection_takes_its_shards_again(db: PostgresDatabase) -> None:
    lost: list[bool] = []
    mine = routes(db, lost=lambda: lost.append(True))
    await mine.start([1], every=0.02)
    try:
        before = mine._conn
        await end_lock_connection(db)
        async def held_again() -> bool:
            return mine._conn not in (None, before) and await mine.running(1)

        await until(held_again)
        assert await mine.running(1) and lost == []
        heard: list[dict[str, Any]] = []
        mine.on_click = heard.append
        sender = routes(db)
        await sender.start([0])
        assert await sender.send(1, 3, {"id": "14"}, timeout=5)  # it listens again
        await sender.close()

        async def taken() -> bool:
            return bool(heard)

        await until(taken)
        assert heard == [{"id": "14"}]
    finally:
        await mine.close()


async def test_a_process_whose_shards_were_taken_meanwhile_is_told(
        db: PostgresDatabase) -> None:
    lost = asyncio.Event()
    mine = routes(db, lost=lost.set)
    await mine.start([1], wait=0.2, every=0.02)
    rival = await asyncpg.connect(db.url)
    try:
        # The rival waits on the lock: the moment it is free, the rival has it.
        waiting = asyncio.ensure_future(
            rival.fetchval("SELECT pg_advisory_lock($1, $2)", SHARD_LOCKS, 1))
        async def rival_waits() -> bool:
            row = await db.fetchone("SELECT COUNT(*) FROM pg_locks WHERE NOT granted"
                                    " AND locktype = 'advisory' AND classid = ?",
                                    (SHARD_LOCKS,))
            return row is not None and row[0] == 1

        await until(rival_waits)
        await db.fetchone("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE granted"
                          " AND locktype = 'advisory' AND classid = ? AND pid <> ?",
                          (SHARD_LOCKS, rival.get_server_pid()))
        await waiting
        await asyncio.wait_for(lost.wait(), 10)
    finally:
        await mine.close()
        await rival.close()


def logged(caplog: pytest.LogCaptureFixture, text: str) -> Callable[[], Awaitable[bool]]:
    async def seen() -> bool:
        return any(text in r.getMessage() for r in caplog.records)
    return seen


async def queue(db: PostgresDatabase, shard: int, table_id: int, payload: dict[str, Any],
                signed: str | None) -> int:
    """A row put in routed_clicks as someone other than this version's sender would."""
    async with db.transaction() as tx:
        click_id = await tx.execute(
            "INSERT INTO routed_clicks (shard, table_id, payload, signature) VALUES (?, ?, ?, ?)",
            (shard, table_id, json.dumps(payload), signed))
        assert click_id is not None
        await tx.execute("SELECT pg_notify(?, ?)", (CLICK, f"{shard}:{click_id}"))
    return click_id


async def test_a_row_without_the_bots_signature_is_ignored_and_logged(
        db: PostgresDatabase, caplog: pytest.LogCaptureFixture) -> None:
    """A clicks row anyone with the database could write (a forged interaction), one signed
    with another key, and one an older version queued during an upgrade (no signature): the
    owner runs none of them, logs each, and leaves them for their sender to take back."""
    heard: list[dict[str, Any]] = []
    owner = routes(db, heard)
    await owner.start([1])
    caplog.set_level(logging.INFO, logger="db.routing")
    try:
        forged = {"id": "66", "data": {"custom_id": "bt:act:7:3:play.AS"}}
        unsigned = await queue(db, 1, 7, forged, None)
        text = json.dumps(forged)
        other_key = await queue(db, 1, 7, forged, signature(b"another bot", 1, 7, text))
        # Signed for shard 2 and table 7, but queued for shard 1: the signature says no.
        moved = await queue(db, 1, 7, forged, signature(KEY, 2, 7, text))
        for click_id in (unsigned, other_key, moved):
            await until(logged(caplog, f"routed click {click_id} "))
        assert heard == [] and await leftovers(db) == 3
        # Their sender (an older process) takes them back by id, as it always did.
        for click_id in (unsigned, other_key, moved):
            await db.write("DELETE FROM routed_clicks WHERE id = ?", (click_id,))
        # A click this version sends goes through as before.
        sender = routes(db)
        await sender.start([0])
        try:
            assert await sender.send(1, 7, {"id": "67"}, timeout=5)
        finally:
            await sender.close()

        async def taken() -> bool:
            return bool(heard)

        await until(taken)
        assert heard == [{"id": "67"}]
    finally:
        await owner.close()


async def test_a_click_is_taken_only_from_the_shard_its_notice_names(
        db: PostgresDatabase, caplog: pytest.LogCaptureFixture) -> None:
    """A notice naming shard 1 and a row queued for shard 2: the owner of shard 1 does not take
    (delete) another shard's click."""
    heard: list[dict[str, Any]] = []
    owner = routes(db, heard)
    await owner.start([1])
    caplog.set_level(logging.INFO, logger="db.routing")
    try:
        payload = {"id": "68"}
        async with db.transaction() as tx:
            click_id = await tx.execute(
                "INSERT INTO routed_clicks (shard, table_id, payload, signature)"
                " VALUES (?, ?, ?, ?)",
                (2, 7, json.dumps(payload), signature(KEY, 2, 7, json.dumps(payload))))
            await tx.execute("SELECT pg_notify(?, ?)", (CLICK, f"1:{click_id}"))
        await until(logged(caplog, f"routed click {click_id} is not queued for shard 1"))
        assert heard == [] and await leftovers(db) == 1
    finally:
        await owner.close()
