"""Leaderboards, stats and results on a big server: one million stored matches in one server.

    python bench/bench_stats.py [--matches 1000000] [--players 2000] [--runs 200] [--db PATH]

With --db, the filled database is kept there, and a later run on it measures without filling.

Targets (issue 11): a leaderboard page (its rows, its size, the asker's rank) under 20 ms, a
player's /belote stats (counts, best partner, rating chart) under 50 ms, a new result recorded
with its rating update under 5 ms. Also prints the database file size per million matches.

The database is filled directly with SQL (the same tables and indexes as the bot's, through
its migrations): matches, their players, deal sheets, skills of players and pairs, a rating
history row per rated player and pair per match, and month and week gains. Ratings are drawn
at random (their values do not change the speed); players pair at random, so almost every
pair is new, the worst case for the pairs board.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from db import Database, MatchPlayer
from db.results import period_keys
from game.rating import SHOWN_BASE, SHOWN_SCALE

GUILD = 1
START = datetime(2024, 1, 1, tzinfo=UTC)
SHEET = json.dumps([{"score": [162, 0], "outcome": "made", "taker": i % 4,
                     "contract": "hearts", "made": True, "sweep": None}
                    for i in range(8)], separators=(",", ":"))


def shown(mu: float, sigma: float) -> float:
    return SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma)


def fill(path: Path, matches: int, players: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=OFF")  # a fill, not the bot: no journal, no syncs
    con.execute("PRAGMA synchronous=OFF")
    con.execute("PRAGMA cache_size=-262144")
    users = [10_000 + i for i in range(players)]
    skill: dict[tuple[int, int, int], list[float]] = {}
    periods: dict[tuple[int, str, int, int], list[float]] = defaultdict(lambda: [0.0, 0, 0])
    step = timedelta(seconds=max(1, int(2 * 365 * 86400 / matches)))

    def batches() -> Iterator[tuple[list[Any], list[Any], list[Any], list[Any]]]:
        m_rows: list[Any] = []
        p_rows: list[Any] = []
        d_rows: list[Any] = []
        h_rows: list[Any] = []
        for seq in range(1, matches + 1):
            when = START + step * seq
            four = rng.sample(users, 4)
            winner = rng.randrange(2)
            computers = 1 if rng.random() < 0.1 else 0
            iso = when.strftime("%Y-%m-%dT%H:%M:%S.000Z")
            m_rows.append((seq, seq, GUILD, "classic", "{}", "played", winner, 1001, 600, 9,
                           computers, int(not computers), iso, iso, 1500.0))
            for seat, u in enumerate(four):
                human = not (computers and seat == 3)
                p_rows.append((seq, seat, u if human else None, None if human else "easy",
                               seat & 1, int(seat & 1 == winner), 0, rng.randrange(3),
                               rng.randrange(2), 0, rng.randrange(2)))
            d_rows.append((seq, SHEET))
            if not computers:
                month, week = period_keys(when)
                pair_keys = [(min(four[0], four[2]), max(four[0], four[2])),
                             (min(four[1], four[3]), max(four[1], four[3]))]
                keys = [(0, u, 0, seat & 1) for seat, u in enumerate(four)] + \
                    [(1, a, b, t) for t, (a, b) in enumerate(pair_keys)]
                for kind, a, b, team in keys:
                    s = skill.setdefault((kind, a, b), [25.0, 25.0 / 3, 0, 0])
                    before = shown(s[0], s[1])
                    s[0] += 0.5 if team == winner else -0.5
                    s[1] = max(1.0, s[1] * 0.99)
                    s[2] += 1
                    s[3] += int(team == winner)
                    if kind == 0:  # the charts are players'
                        h_rows.append((GUILD, "classic", kind, a, b, seq, s[0], s[1],
                                       shown(s[0], s[1]), before))
                    for key in (month, week):
                        pr = periods[(kind, key, a, b)]
                        pr[0] += shown(s[0], s[1]) - before
                        pr[1] += 1
                        pr[2] += int(team == winner)
            if len(m_rows) >= 50_000:
                yield m_rows, p_rows, d_rows, h_rows
                m_rows, p_rows, d_rows, h_rows = [], [], [], []
        yield m_rows, p_rows, d_rows, h_rows

    for m_rows, p_rows, d_rows, h_rows in batches():
        with con:
            con.executemany("INSERT INTO matches (seq, table_id, guild_id, variant, options,"
                            " ending, winner_team, score0, score1, deals, computers, rated,"
                            " started_at, finished_at, duration)"
                            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", m_rows)
            con.executemany("INSERT INTO match_players VALUES (?,?,?,?,?,?,?,?,?,?,?)", p_rows)
            con.executemany("INSERT INTO match_deals VALUES (?,?)", d_rows)
            con.executemany("INSERT INTO skill_history VALUES (?,?,?,?,?,?,?,?,?,?)", h_rows)
    with con:
        con.executemany("INSERT INTO skills VALUES (?,?,?,?,?,?,?,?,?,?)",
                        [(GUILD, "classic", k, a, b, s[0], s[1], shown(s[0], s[1]), s[2], s[3])
                         for (k, a, b), s in skill.items()])
        con.executemany("INSERT INTO period_skills VALUES (?,?,?,?,?,?,?,?,?)",
                        [(GUILD, "classic", k, key, a, b, p[0], p[1], p[2])
                         for (k, key, a, b), p in periods.items()])
    con.execute("ANALYZE")
    con.execute("PRAGMA journal_mode=WAL")  # as the bot has it
    con.close()


async def timed(fn: Callable[[], Awaitable[object]], runs: int) -> tuple[float, float]:
    """Median and 95th percentile, in milliseconds."""
    await fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    # The nearest rank: the smallest time at least 95% of the runs took no longer than.
    return statistics.median(times), times[math.ceil(len(times) * 0.95) - 1]


async def measure(path: Path, players: int, runs: int, when: datetime) -> None:
    db = await Database.open(path)
    results = db.results
    results.clock = lambda: when
    rng = random.Random(2)
    users = [10_000 + i for i in range(players)]

    async def page(pairs: bool, period: str) -> None:
        user = rng.choice(users)
        offset = rng.randrange(0, 50) * 10
        await results.leaderboard(GUILD, "classic", 10, offset, period, pairs)
        await results.board_size(GUILD, "classic", period, pairs)
        await results.rank_of(GUILD, "classic", user, period, pairs)

    async def stats() -> None:
        user = rng.choice(users)
        await results.stats(GUILD, user, "classic")
        await results.rating_history(GUILD, "classic", user)

    table = 10**9 + int(time.time())  # new table ids on every run of a kept database

    async def record() -> None:
        nonlocal table
        table += 1
        four = rng.sample(users, 4)
        await results.record_match(table_id=table, guild_id=GUILD, variant="classic",
                                   winner=rng.randrange(2), totals=(1001, 700), deals=9,
                                   players=[MatchPlayer(s, u, None) for s, u in enumerate(four)])

    for name, fn, target in (
            ("leaderboard page, players, all time", lambda: page(False, "all"), 20),
            ("leaderboard page, players, this month", lambda: page(False, "month"), 20),
            ("leaderboard page, players, this week", lambda: page(False, "week"), 20),
            ("leaderboard page, pairs, all time", lambda: page(True, "all"), 20),
            ("leaderboard page, pairs, this week", lambda: page(True, "week"), 20),
            ("/belote stats", stats, 50),
            ("result recorded + ratings moved", record, 5)):
        median, p95 = await timed(fn, runs)
        mark = "ok" if median < target else "SLOW"
        print(f"{name:40s} median {median:7.2f} ms  p95 {p95:7.2f} ms  "
              f"(target < {target} ms) {mark}")
    await db.close()


async def migrate(path: Path) -> None:
    db = await Database.open(path)  # the bot's schema, by its migrations
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=200)
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
        size = os.path.getsize(path)
        print(f"database: {size / 2**20:.0f} MiB, {size / 2**20 / args.matches * 1e6:.0f} MiB "
              "per million matches")
        step = timedelta(seconds=max(1, int(2 * 365 * 86400 / args.matches)))
        asyncio.run(measure(path, args.players, args.runs, START + step * args.matches))


if __name__ == "__main__":
    main()
