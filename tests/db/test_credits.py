"""The credits ledger on both backends: a movement lands with its balance or not at all, once
per key, never below zero; a payout that crashes at any statement leaves the sums as they were,
and done again pays each member once."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from db import Database
from db.credits import Move, NotEnoughCredits, move

GUILD = 10


async def test_movements_balances_and_keys(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        repo = db.credits
        assert await repo.balance(GUILD, 1) is None
        assert await repo.apply(GUILD, [Move(1, 1000, "grant", "grant:1"),
                                        Move(2, 1000, "grant", "grant:2")]) == [1000, 1000]
        assert await repo.apply(GUILD, [Move(1, 1000, "grant", "grant:1")]) == [None]  # once
        assert await repo.apply(GUILD, [Move(1, -300, "stake", "stake:5:1", table_id=5)]) == \
            [700]
        # Short of credits: refused, and the other movement of the same call is not made.
        with pytest.raises(NotEnoughCredits):
            await repo.apply(GUILD, [Move(2, -100, "stake", "stake:6:2", table_id=6),
                                     Move(1, -701, "stake", "stake:6:1", table_id=6)])
        assert (await repo.balance(GUILD, 1), await repo.balance(GUILD, 2)) == (700, 1000)
        history = await repo.history(GUILD, 1)
        assert [(m.amount, m.balance, m.reason, m.table_id) for m in history] == \
            [(-300, 700, "stake", 5), (1000, 1000, "grant", None)]
        assert await repo.richest(GUILD) == [(2, 1000), (1, 700)]
        assert (await repo.rank(GUILD, 1), await repo.rank(GUILD, 3)) == (2, None)
        balances, ledger, per_reason = await repo.sums(GUILD)
        assert balances == ledger == 1700 and per_reason == {"grant": 2000, "stake": -300}
    finally:
        await db.close()


class Crash(Exception):
    pass


class CrashingTransaction:
    """The transaction as the payout sees it, dying at its ``at``-th statement (as the process
    would, killed there: nothing after it runs, the database rolls back what is open)."""

    def __init__(self, tx: Any, at: int) -> None:
        self.tx, self.at, self.count = tx, at, 0

    async def execute(self, sql: str, params: Any = ()) -> Any:
        self.count += 1
        if self.count == self.at:
            raise Crash(sql)
        return await self.tx.execute(sql, params)

    async def fetchone(self, sql: str, params: Any = ()) -> Any:
        self.count += 1
        if self.count == self.at:
            raise Crash(sql)
        return await self.tx.fetchone(sql, params)


async def test_a_payout_crashing_at_any_step_neither_loses_nor_duplicates(
        database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        repo = db.credits
        await repo.apply(GUILD, [Move(u, 1000, "grant", f"grant:{u}") for u in (1, 2, 3, 4)])
        await repo.apply(GUILD, [Move(u, -100, "stake", f"stake:9:{u}", table_id=9)
                                 for u in (1, 2, 3, 4)])
        pot = [Move(u, 200, "pot", f"pot:9:{u}", table_id=9) for u in (1, 3)]
        before = await repo.sums(GUILD)
        steps = 0
        for at in range(1, 100):
            tx_count = 0
            try:
                async with db.transaction() as tx:
                    crashing = CrashingTransaction(tx, at)
                    for m in pot:
                        await move(crashing, GUILD, m)  # type: ignore[arg-type]
                    tx_count = crashing.count
            except Crash:
                assert await repo.sums(GUILD) == before  # rolled back whole
                continue
            steps = tx_count
            break
        assert steps > 4  # it crashed at each of them first
        # Done: retried (a restart finishing the payout) it moves nothing more.
        assert await repo.apply(GUILD, pot) == [None, None]
        balances, ledger, per_reason = await repo.sums(GUILD)
        assert balances == ledger == 4000  # only the grants brought credits in
        assert per_reason == {"grant": 4000, "stake": -400, "pot": 400}
        assert [await repo.balance(GUILD, u) for u in (1, 2, 3, 4)] == [1100, 900, 1100, 900]
    finally:
        await db.close()


async def test_two_processes_taking_one_balance_at_once_cannot_overdraw_it(
        postgres_url: str) -> None:
    """Two processes (two databases open on one PostgreSQL) take 80 of a balance of 100 at the
    same moment: the second waits for the first's row and is refused, where a balance read and
    then written would have let both through (and left the ledger and the balance apart)."""
    first, second = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        await first.credits.apply(GUILD, [Move(1, 100, "grant", "grant:1")])
        held = asyncio.Event()
        commit = asyncio.Event()

        async def take_and_hold() -> None:
            async with first.transaction() as tx:
                assert await move(tx, GUILD, Move(1, -80, "stake", "stake:1:1")) == 20
                held.set()
                await commit.wait()

        holding = asyncio.create_task(take_and_hold())
        await held.wait()
        racing = asyncio.create_task(
            second.credits.apply(GUILD, [Move(1, -80, "stake", "stake:2:1")]))
        # The second waits on the first's row (PostgreSQL says so), then the first commits.
        watcher = await asyncpg.connect(postgres_url)  # a connection neither is using
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10.0
            while not await watcher.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND datname = current_database()"):
                assert loop.time() < deadline and not racing.done(), "the second never waited"
                await asyncio.sleep(0.01)
        finally:
            await watcher.close()
        commit.set()
        await holding
        with pytest.raises(NotEnoughCredits):
            await racing
        repo = first.credits
        assert await repo.balance(GUILD, 1) == 20
        balances, ledger, _ = await repo.sums(GUILD)
        assert balances == ledger == 20
    finally:
        await first.close()
        await second.close()
