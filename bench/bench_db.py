"""Action commit latency: the write every card or bid costs (one INSERT into the action log,
its own transaction), on SQLite beside PostgreSQL.

    python bench/bench_db.py [--tables 100] [--actions 40]

One table appends ``--actions`` steps one after the other (a lone writer: the latency of a
commit itself); then each of ``--tables`` tables does, all at once (as busy tables do: each
waits for its previous write, the tables overlap; the process's one connection takes one
transaction at a time, so this is the queue as well). Reports the time from
asking for a write to it being committed, p50/p99/max, and the writes per second, for a
SQLite file (WAL, on this machine's disk) and a PostgreSQL 15 server on this machine (a
throwaway one, started as the tests start theirs: tests/db/pgserver.py; synchronous commit, as
PostgreSQL's default).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from db import Database
from db.log import LogEntry
from tests.db import pgserver


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def measure(target: str, tables: int, actions: int) -> str:
    db = await Database.open(target)
    try:
        ids = []
        for t in range(tables):
            row = await db.tables.create(guild_id=1, channel_id=t + 1, host_id=1,
                                         variant="classic", options={}, private=False, seed=t)
            ids.append(row.id)
        waits: list[float] = []

        async def play(table_id: int) -> None:
            for seq in range(actions):
                entry = LogEntry(seq, "action", {"seat": seq % 4, "action": "pass"}, 1)
                asked = time.perf_counter()
                await db.log.append(table_id, [entry])
                waits.append(time.perf_counter() - asked)

        start = time.perf_counter()
        await asyncio.gather(*(play(i) for i in ids))
        took = time.perf_counter() - start
        return (f"{db.dialect:10}  p50 {pct(waits, .5) * 1000:6.2f} ms  "
                f"p99 {pct(waits, .99) * 1000:6.2f} ms  max {max(waits) * 1000:6.1f} ms  "
                f"{len(waits) / took:6.0f} commits/s")
    finally:
        await db.close()


async def postgres_url() -> tuple[str, pgserver.Server]:
    import asyncpg

    server = pgserver.start()
    conn = await asyncpg.connect(server.url)
    try:
        await conn.execute("CREATE DATABASE belote_bench")
    finally:
        await conn.close()
    return server.database_url("belote_bench"), server


async def run(args: argparse.Namespace) -> None:
    url, server = await postgres_url()
    try:
        for tables in (1, args.tables):
            print(f"{tables} table(s) writing at once, {args.actions} actions each, one commit "
                  "per action:")
            with tempfile.TemporaryDirectory() as tmp:
                print("    " + await measure(str(Path(tmp) / "bench.sqlite3"), tables,
                                             args.actions))
            print("    " + await measure(url, tables, args.actions))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=40)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
