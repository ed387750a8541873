"""The per-key lock (service/keyed_lock.py) and the lock tables that use it: a key's lock is kept
while someone holds or waits on it, and forgotten after, so ids asked about once (a forged
tournament id, every server that ever seated someone) leave nothing behind."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import pytest

from db import Database
from game.tournament import TournamentError
from service.guild_settings import GuildSettingsStore
from service.keyed_lock import KeyedLock
from service.tables import NewTable, TableService
from service.tournaments import TournamentRunner


async def test_one_holder_of_a_key_at_a_time_and_other_keys_never_wait() -> None:
    locks: KeyedLock[int] = KeyedLock()
    order: list[str] = []
    gate = asyncio.Event()

    async def hold(key: int, name: str) -> None:
        async with locks(key):
            order.append(f"{name} in")
            await gate.wait()
            order.append(f"{name} out")

    first = asyncio.create_task(hold(1, "a"))
    await asyncio.sleep(0)
    second = asyncio.create_task(hold(1, "b"))
    other = asyncio.create_task(hold(2, "c"))
    for _ in range(3):
        await asyncio.sleep(0)
    assert order == ["a in", "c in"]  # b waits for a; c (another key) does not
    assert locks.locked(1) and locks.locked(2) and len(locks) == 2
    gate.set()
    await asyncio.gather(first, second, other)
    assert order.index("a out") < order.index("b in")
    assert len(locks) == 0 and not locks.locked(1)


async def test_a_key_is_forgotten_when_its_last_holder_leaves_even_by_an_error() -> None:
    locks: KeyedLock[str] = KeyedLock()
    with pytest.raises(RuntimeError):
        async with locks("x"):
            assert len(locks) == 1
            raise RuntimeError("boom")
    assert len(locks) == 0
    async with locks("x"):  # and it can be taken again
        pass
    assert len(locks) == 0


async def test_a_waiter_cancelled_while_waiting_is_counted_out() -> None:
    locks: KeyedLock[int] = KeyedLock()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks(7):
            await release.wait()

    async def waiter() -> None:
        async with locks(7):
            raise AssertionError("a cancelled waiter never holds the lock")

    held = asyncio.create_task(holder())
    await asyncio.sleep(0)
    waiting = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert len(locks) == 1  # the holder's still
    release.set()
    await held
    assert len(locks) == 0


async def test_the_seating_locks_of_servers_are_forgotten_once_idle(db: Database) -> None:
    service = TableService(db, computer_delay=0, rng=random.Random(1))
    try:
        for guild in range(1, 41):  # forty servers each seat someone once
            live = await service.create(NewTable(guild, 10, 1, "ana", "classic", {}))
            await service.sit(live.id, 2, "bo", 1)
        assert len(service.tables._seating) == 0
    finally:
        await service.close()


async def test_tournament_locks_asked_about_once_are_forgotten(db: Database) -> None:
    service = TableService(db, computer_delay=0, rng=random.Random(1))
    runner = TournamentRunner(db, service, GuildSettingsStore(db),
                              names=lambda guild, user: f"p{user}",
                              clock=lambda: datetime(2026, 12, 1, tzinfo=UTC),
                              rng=random.Random(2))
    try:
        for forged in range(10**12, 10**12 + 50):  # ids of no tournament, clicked once each
            with pytest.raises(TournamentError):
                await runner.join(forged, 5, "eve")
        assert len(runner._guards) == 0
    finally:
        await service.close()
