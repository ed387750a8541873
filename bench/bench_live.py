"""Many viewers of one live table: each move reaches every viewer's page within 1 s.

    python bench/bench_live.py [--viewers 1000] [--moves 64] [--interval 0.25]

One table of four people is played move by move through the table service (random legal
actions, ``--interval`` seconds apart), its listener the bot's (``bot/live_watch.py``'s
``Watched``, the delivery replaced by nothing) and its live page served by the bot's web
server (``web/live.py``). ``--viewers`` clients hold the page's event stream open, in a child
process (on a 2-core machine, one core each). For each move: the time from the service's
answer to the last viewer that received it (or a later state, which a slow viewer gets
instead), and how long the move's commit took (a viewer must never hold the table up). Target
(issue 43): every move reaches every viewer within 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.live_watch import Watched, public_state
from db import Database
from game.players import RandomPlayer
from game.view import table_view
from service.tables import LiveTable, NewTable, NullListener, TableService
from web import WebServer
from web.live import Feed, add_live_routes

GUILD, CHANNEL = 1, 2
TOKEN = "B" * 22
USERS = ((11, "ana"), (12, "bo"), (13, "cy"), (14, "dee"))


class Source:
    def __init__(self, service: TableService) -> None:
        self.service = service

    async def guild_of(self, token: str) -> int | None:
        return GUILD if token == TOKEN else None

    async def language(self, guild_id: int) -> str:
        return "en"

    def open_table(self, guild_id: int, table_id: int) -> LiveTable | None:
        return self.service.live.get(table_id)


async def viewers_main(url: str, count: int) -> None:
    """The child process: ``count`` viewers of ``url``; prints ``ready`` once each has its
    first state, then ``<seq> <time>`` when every viewer has had that state or a later one
    (time.perf_counter: the system's monotonic clock, the same in both processes)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * count + 256)), hard))
    reached: dict[int, int] = {}
    first = [0]
    out = sys.stdout

    async def one(session: aiohttp.ClientSession) -> None:
        seen = -1
        async with session.get(url) as r:
            assert r.status == 200, r.status
            async for line in r.content:
                if not line.startswith(b"data: "):
                    continue
                at = line.index(b'"seq":') + 6  # the state's (cheaper than the whole JSON)
                seq = int(line[at:line.index(b",", at)])
                now = time.perf_counter()
                if seen < 0:
                    first[0] += 1
                    if first[0] == count:
                        out.write("ready\n")
                        out.flush()
                    seen = seq
                    continue
                for q in range(seen + 1, seq + 1):
                    reached[q] = reached.get(q, 0) + 1
                    if reached[q] == count:
                        out.write(f"{q} {now}\n")
                        out.flush()
                seen = max(seen, seq)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                     timeout=aiohttp.ClientTimeout(total=None)) as session:
        await asyncio.gather(*(one(session) for _ in range(count)), return_exceptions=True)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def run(viewers: int, moves_count: int, interval: float) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * viewers + 256)), hard))
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(str(Path(tmp) / "bench.sqlite3"))
        feed: Feed[LiveTable] = Feed(public_state, per_table=max(viewers, 1))
        service = TableService(db, listener=Watched(NullListener(), feed),
                               rng=random.Random(1))
        server = WebServer(0)
        add_live_routes(server, Source(service), feed)
        await server.start()
        live = await service.create(NewTable(GUILD, CHANNEL, USERS[0][0], USERS[0][1],
                                             "classic", {"target": 1000}))
        for seat, (uid, name) in enumerate(USERS[1:], start=1):
            await service.sit(live.id, uid, name, seat)
        await service.start(live.id, USERS[0][0])
        url = f"http://127.0.0.1:{server.port}/s/{TOKEN}/table/{live.id}/events"
        started = time.perf_counter()
        child = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--child", url, "--viewers", str(viewers),
            stdout=asyncio.subprocess.PIPE)
        assert child.stdout is not None
        line = await asyncio.wait_for(child.stdout.readline(), 120)
        assert line == b"ready\n", line
        connect = time.perf_counter() - started
        reached: dict[int, float] = {}

        async def listen() -> None:
            assert child.stdout is not None
            async for got in child.stdout:
                seq, at = got.split()
                reached[int(seq)] = float(at)

        listening = asyncio.create_task(listen())
        rng = RandomPlayer(1)
        commits: list[float] = []
        reach: list[float] = []
        missed = 0
        for _ in range(moves_count):
            match = live.match
            to_act = match.to_act if match is not None else None
            if match is None or to_act is None or live.id not in service.live:
                break
            action = rng.choose(table_view(match, to_act))
            t0 = time.perf_counter()
            await service.act(live.id, USERS[to_act][0], live.seq, action)
            done = time.perf_counter()
            commits.append(done - t0)
            seq, limit = live.seq, done + 5.0
            while seq not in reached and time.perf_counter() < limit:
                await asyncio.sleep(0.005)
            if seq in reached:
                reach.append(reached[seq] - done)
            else:
                missed += 1
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - done)))
        child.kill()
        await child.wait()
        listening.cancel()
        await asyncio.gather(listening, return_exceptions=True)
        await server.stop()
        await service.close()
        await db.close()
    return {"viewers": viewers, "moves": len(commits), "connect_s": round(connect, 2),
            "reach_p50_ms": round(1000 * statistics.median(reach), 1),
            "reach_p99_ms": round(1000 * percentile(reach, 0.99), 1),
            "reach_max_ms": round(1000 * max(reach), 1),
            "missed_moves": missed, "states_made": feed.published,
            "commit_p99_ms": round(1000 * percentile(commits, 0.99), 2),
            "within_1s": missed == 0 and bool(reach) and max(reach) < 1.0}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=64)
    parser.add_argument("--interval", type=float, default=0.25)
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the viewers' process
    args = parser.parse_args(argv)
    if args.child:
        asyncio.run(viewers_main(args.child, args.viewers))
        return
    out = asyncio.run(run(args.viewers, args.moves, args.interval))
    print(json.dumps(out))
    print(f"{out['viewers']} viewers, {out['moves']} moves: every viewer reached in "
          f"p50 {out['reach_p50_ms']} ms, p99 {out['reach_p99_ms']} ms, max "
          f"{out['reach_max_ms']} ms; moves missed {out['missed_moves']}; a move's commit p99 "
          f"{out['commit_p99_ms']} ms; within 1 s: {out['within_1s']}")


if __name__ == "__main__":
    main()
