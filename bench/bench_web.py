"""The web pages on a big server: a board page and a match page with one million stored matches.

    python bench/bench_web.py [--matches 1000000] [--players 2000] [--runs 300] [--db PATH]

With --db, the filled database is kept there (bench/bench_stats.py fills it the same way), and
a later run on it measures without filling.

Target (issue 43): a board page and a match page (its replay, card by card, drawn whole) under
50 ms server side, p99. Each request goes through the bot's own web server (web/: the guard,
the routes, the pages) over loopback, from its arrival to its last byte: a board page of a
random variant-less page offset (players or pairs, all time or this week), a match page at a
random step of a match of fifteen deals played by seeded random players: first with nothing
kept (each request reads, replays and draws as if the match were new), then as served (each
deal's page built at its first view, then kept: web/page_cache.py).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_stats import GUILD, START, fill, migrate
from db import Database
from db.analyses import DONE, AnalysedStats, AnalysisRepo, PlayerCost
from db.log import LogEntry
from db.tables import SeatRow
from game.cards import card_str
from game.match import Match
from game.record import action_to_json
from game.rules import Variant
from service.records import Records, Replay
from web import WebServer
from web.guard import RateLimit, guard
from web.site import Site, add_site_routes

TOKEN = "B" * 22


class BenchSource:
    """What the pages read, as the bot's BotSource does, from the database alone."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.records = Records(db)
        self.tokens = db.web_tokens

    async def guild_of(self, token: str) -> int | None:
        return await self.tokens.guild_of(token)

    async def language(self, guild_id: int) -> str:
        return "en"

    async def deal_sheet(self, replay: Replay, deal: int, language: str,
                         analysed: bool = False) -> bytes:
        raise NotImplementedError  # the match page links its sheets; no image is timed here

    async def analysis(self, table_id: int
                       ) -> tuple[dict[int, dict[str, Any]], list[PlayerCost]]:
        """The match's stored analysis, read as the bot reads it (none is stored here)."""
        repo = AnalysisRepo(self.db)
        return await repo.stored_deals(table_id), await repo.players(table_id)

    async def analysed(self, table_id: int) -> bool:
        """Whether it is done, read as the bot reads it (one row) at each match page."""
        row = await AnalysisRepo(self.db).get(table_id)
        return row is not None and row.state == DONE

    async def member_analysis(self, guild_id: int, user_id: int, variant: str
                              ) -> AnalysedStats:
        return await AnalysisRepo(self.db).member_stats(guild_id, user_id, variant)

    async def podiums(self, guild_id: int, variant: str, user_id: int) -> tuple[int, int]:
        return await self.db.tournaments.podiums(guild_id, variant, user_id)


def random_match(seed: int, deals: int) -> tuple[Match, list[LogEntry]]:
    """A classic match of ``deals`` deals (a target no one reaches), played at random."""
    rng = random.Random(seed)
    match = Match(Variant.CLASSIC, {"target": 100_000, "deal_cap": deals})
    entries: list[LogEntry] = []
    while not match.is_over:
        deal = match.start_deal(match.new_deck(seed))
        entries.append(LogEntry(len(entries), "deal", {
            "dealer": deal.dealer, "deck": [card_str(c) for c in deal.deck]}))
        while not deal.is_over:
            seat = deal.to_act
            action = rng.choice(match.legal_actions())
            match.apply(action)
            entries.append(LogEntry(len(entries), "action", action_to_json(seat, action)))
    return match, entries


async def add_match(db: Database, deals: int) -> int:
    """A played match's table, seats and action log, for the match of table 1 (filled)."""
    existing = await db.tables.get(1)
    if existing is None:
        row = await db.tables.create(guild_id=GUILD, channel_id=5, host_id=10_000,
                                     variant="classic", options={"target": 100_000,
                                                                 "deal_cap": deals},
                                     private=False, seed=1)
        assert row.id == 1, "table ids are the filled matches' ids: the database must be new"
        _, entries = random_match(1, deals)
        for seat in range(4):
            await db.tables.put_seat(SeatRow(1, seat, 10_000 + seat, f"player {seat}"))
        await db.log.append(1, entries)
        await db.web_tokens.issue(GUILD, TOKEN, replace=True)
    return 1


async def timed(fn: Callable[[], Awaitable[object]], runs: int) -> tuple[float, float]:
    """Median and 99th percentile, in milliseconds."""
    for _ in range(5):
        await fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[math.ceil(len(times) * 0.99) - 1]


async def measure(path: Path, runs: int, deals: int, when: datetime) -> None:
    db = await Database.open(path)
    db.results.clock = lambda: when  # "this week" is the filled matches' last week
    try:
        await serve_and_time(db, runs, deals)
    finally:
        await db.close()


async def serve_and_time(db: Database, runs: int, deals: int) -> None:
    table = await add_match(db, deals)
    source = BenchSource(db)
    server = WebServer(0)
    server.app.middlewares.append(guard(RateLimit(rate=1e9, burst=10**9), ("/s/", "/api/")))
    site = add_site_routes(server, source)
    await server.start()
    try:
        await time_pages(server.port, source, site, table, runs, deals)
    finally:
        await server.stop()


async def time_pages(port: int, source: BenchSource, site: Site, table: int, runs: int,
                     deals: int) -> None:
    base = f"http://127.0.0.1:{port}/s/{TOKEN}"
    rng = random.Random(3)
    replay = await source.records.replay(GUILD, table)
    assert replay is not None
    count = sum(1 + len(d["actions"]) for d in replay.record["deals"])
    async with aiohttp.ClientSession() as session:
        async def get(path: str) -> None:
            async with session.get(base + path) as r:
                assert r.status == 200, (path, r.status)
                await r.read()

        async def board(pairs: int, period: str) -> Callable[[], Awaitable[None]]:
            size = await source.records.board_size(GUILD, "classic", period, bool(pairs))
            pages = min(50, max(1, -(-size // 10)))
            return lambda: get(f"/?variant=classic&period={period}&pairs={pairs}"
                               f"&page={rng.randrange(1, pages + 1)}")

        async def match() -> None:
            await get(f"/match/{table}?step={rng.randrange(count)}")

        async def first_view() -> None:
            # Nothing kept: the match read, replayed and its deal drawn, as before the cache.
            site.pages = type(site.pages)(site.pages.capacity)
            site.replays = type(site.replays)(site.replays.capacity)
            await match()

        size = 0
        async with session.get(f"{base}/match/{table}?step={count - 1}") as r:
            size = len(await r.read())
        print(f"match page: {deals} deals, {count} steps, {size / 1024:.0f} KiB a page")
        for name, fn in (("board page, players, all time", await board(0, "all")),
                         ("board page, pairs, this week", await board(1, "week")),
                         ("match page, first view (nothing kept)", first_view),
                         ("match page (replay at a random step)", match)):
            median, p99 = await timed(fn, runs)
            mark = "ok" if p99 < 50 else "SLOW"
            print(f"{name:40s} median {median:7.2f} ms  p99 {p99:7.2f} ms  (target p99 < 50 ms)"
                  f" {mark}")
            if fn is match:  # each deal's page built once, then served as kept
                print(f"  ({site.pages.misses} pages built, {site.pages.hits} served kept)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--deals", type=int, default=15, help="deals of the replayed match")
    parser.add_argument("--db", help="keep the filled database here (default: a temporary "
                        "file, removed after)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "bench.sqlite3"
        if not path.exists():
            asyncio.run(migrate(path))
            t = time.perf_counter()
            fill(path, args.matches, args.players)
            print(f"filled {args.matches} matches, {args.players} players in "
                  f"{time.perf_counter() - t:.0f} s")
        con = sqlite3.connect(path)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        step = timedelta(seconds=max(1, int(2 * 365 * 86400 / args.matches)))
        asyncio.run(measure(path, args.runs, args.deals, START + step * args.matches))


if __name__ == "__main__":
    main()
