"""The bot in several processes on one PostgreSQL: busy tables per process and in total with 1,
2 and 4 processes, each running one of the bot's shards.

    python bench/bench_shards.py [--tables 100] [--seconds 40] [--processes 1 2 4]

For each number of processes K: a new PostgreSQL database (a throwaway server, as the tests'
tests/db/pgserver.py), the fake Discord in this process with K servers, server i in shard i of
K, the tables spread evenly over them; K bot processes, process i started as
``--shard-count K --shards i`` on the same ``DATABASE_URL``. Every table has four people who
think 1 to 4 s and click a random legal control on their hand (bench/bench_bot.py's players).
The fake sends every click on a hand to shard 0's process, as Discord sends direct messages:
a table in another shard has it carried to its owner (bot/sharding.py). Reports per K: actions
applied per second, click to acknowledgement p50/p99, click to the table message showing it
p50/p99, the clicks carried between processes, each process's CPU (and its render workers'),
and the busy tables one core serves at that CPU per table. With Discord's limits on
(``--rate-limits``) each process keeps its share of the bot's 48 calls a second.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_load.bot_side import Probe
from bench.bot_load.figures import pct
from bench.bot_load.players import Players, open_tables
from tests.db import pgserver
from tests.fakediscord import FakeDiscord
from tests.fakediscord.remote import RemoteBot, serve_bot


# ---- a bot process --------------------------------------------------------------------------
async def count_actions(bot: Any) -> dict[str, int]:
    """Actions in the shared log, by kind of action (both backends: counted here)."""
    rows = await bot.db.fetchall("SELECT kind, payload FROM actions")
    out: Counter[str] = Counter()
    for kind, payload in rows:
        out["<deals>" if kind == "deal" else str(json.loads(payload)["action"])] += 1
    return dict(out)


async def routed(bot: Any) -> int:
    """Clicks this process took from another (it owns their tables)."""
    return int(getattr(bot, "routed_taken", 0))


def child(args: argparse.Namespace) -> None:
    from bot import create_bot
    from bot.click_router import ClickRouter
    probe = Probe(None)

    # Count the clicks carried here (a wrapper, so the bot's code is measured as it is).
    taken = ClickRouter.taken

    def counting(self: ClickRouter, data: dict[str, Any]) -> None:
        self.bot.routed_taken = getattr(self.bot, "routed_taken", 0) + 1  # type: ignore
        taken(self, data)

    ClickRouter.taken = counting  # type: ignore[method-assign]
    handlers: dict[str, Callable[..., Awaitable[Any]]] = {
        "start": probe.start, "finish": probe.finish, "actions": count_actions,
        "routed": routed}
    asyncio.run(serve_bot(create_bot, handlers, None, database_url=args.child,
                          shard_count=args.count, shards=str(args.shard),
                          computer_delay=1.0))


# ---- this process: the fake Discord and the players -----------------------------------------
async def new_database(server: pgserver.Server, name: str) -> str:
    import asyncpg
    conn = await asyncpg.connect(server.url)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return server.database_url(name)


async def one_run(server: pgserver.Server, k: int, args: argparse.Namespace) -> None:
    url = await new_database(server, f"belote_shards_{k}")
    fake = FakeDiscord().start()
    fake.install()
    fake.keep_upload_bytes = False
    fake.rate_limits = args.rate_limits
    guilds = [fake.add_guild(f"Bench {i}", shard=(i, k)) for i in range(k)]
    remotes = []
    for i in range(k):  # one after the other: the first applies the migrations
        remotes.append(await RemoteBot.spawn(fake, [
            sys.executable, __file__, "--child", url, "--count", str(k), "--shard", str(i)]))
    per = args.tables // k
    tables = []
    for i, (guild, remote) in enumerate(zip(guilds, remotes, strict=True)):
        channels = [guild.add_text_channel(f"t{i}_{t}") for t in range(per)]
        tables += await open_tables(fake, remote, guild, channels, 0)
    # Discord sends every direct-message click to shard 0.
    players = Players(fake, remotes[0], seed=1)
    before = await remotes[0].call("actions")
    gc.collect()
    gc.freeze()
    gc.disable()
    for remote in remotes:
        await remote.call("start")
    started = time.perf_counter()
    stop = asyncio.Event()
    watcher = asyncio.create_task(players.watch_tables(tables, stop))
    until = started + args.seconds
    await asyncio.gather(*(players.realistic(t, until, (1.0, 4.0)) for t in tables))
    for remote in remotes:
        await remote.settle(600)
    wall = time.perf_counter() - started
    stop.set()
    await watcher
    probes = [await remote.call("finish") for remote in remotes]
    carried = [await remote.call("routed") for remote in remotes]
    gc.enable()
    after = await remotes[0].call("actions")
    actions = sum(after.get(key, 0) - before.get(key, 0) for key in after if key != "<deals>")
    acked = [r.latency for r, _ in players.clicks if r.latency is not None]
    unanswered = len(players.clicks) - len(acked)
    refused = sum(1 for r, _ in players.clicks if r.callback_type not in (6, 7, None))
    print(f"{k} process(es), {len(tables)} tables ({per} each), {wall:.0f} s: "
          f"{actions / wall:.1f} actions/s applied; {len(players.clicks)} clicks, "
          f"{sum(carried)} carried to another process, {unanswered} unanswered, "
          f"{refused} refused")
    if acked:
        print(f"    click to ack p50 {pct(acked, .5) * 1000:.1f} ms, p99 "
              f"{pct(acked, .99) * 1000:.1f} ms; click to the table message p50 "
              f"{pct(players.to_table, .5) * 1000:.0f} ms, p99 "
              f"{pct(players.to_table, .99) * 1000:.0f} ms")
    for i, probe in enumerate(probes):
        cpu = (probe["cpu"] + probe["workers"]) / probe["wall"]
        print(f"    process {i}: {cpu * 100:.0f}% of a core with its render workers "
              f"({probe['cpu'] / probe['wall'] * 100:.0f}% itself), loop lag p99 "
              f"{probe['lag_p99'] * 1000:.1f} ms; at this load one core serves "
              f"{per / max(cpu, 1e-9):.0f} busy tables")
    requests = fake.requests
    print(f"    429 answers: {sum(1 for r in requests if r.status == 429)}; "
          f"{os.cpu_count()} cores for the fake, the players and every bot process")
    for remote in remotes:
        await remote.close()
    fake.close()


async def run(args: argparse.Namespace) -> None:
    server = pgserver.start()
    try:
        for k in args.processes:
            await one_run(server, k, args)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--rate-limits", action="store_true",
                        help="the fake answers 429 past Discord's limits")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # a bot process: the database URL
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--shard", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
