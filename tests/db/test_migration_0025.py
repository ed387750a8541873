"""Migration 0025 on a database an older version left (issues 45 and 48): the tables that
ended in the last day with a thread are owed its archive (older threads Discord archived by
itself); the matches recorded before keep the rating rules they were rated under; the seasons
ended before have their pairs' podium, from the season gains."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from db import Database
from db.results import iso

from .old_databases import database_at


async def test_an_upgrade_owes_the_threads_of_tables_ended_lately(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, 23)
    now = datetime.now(UTC)
    con = sqlite3.connect(path)
    rows = [(2, 502, "ended", iso(now - timedelta(hours=1))),
            (3, 503, "finished", iso(now - timedelta(hours=20))),
            (4, 504, "ended", iso(now - timedelta(days=3))),  # archived by Discord since
            (5, None, "finished", iso(now - timedelta(hours=1))),  # no thread
            (6, 506, "playing", None)]  # still open
    con.executemany("INSERT INTO tables (id, guild_id, channel_id, thread_id, host_id, variant,"
                    " options, seed, status, ended_at) VALUES (?, 10, 20, ?, 7, 'classic',"
                    " '{}', 3, ?, ?)", rows)
    con.execute("INSERT INTO matches (seq, table_id, guild_id, variant, ending, score0, score1,"
                " deals, finished_at) VALUES (1, 2, 10, 'classic', 'abandoned', 0, 0, 1, 'x')")
    con.commit()
    con.close()
    db = await Database.open(path)
    try:
        assert await db.tables.owed_threads() == [(2, 502), (3, 503)]
        row = await db.fetchone("SELECT rating_rules FROM matches WHERE seq = 1")
        assert row is not None and row[0] == 1
    finally:
        await db.close()


async def test_an_upgrade_keeps_the_pairs_podium_of_the_seasons_ended(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, 23)
    con = sqlite3.connect(path)
    con.execute("INSERT INTO seasons (guild_id, number, length, period, started_at, ended_at,"
                " posted) VALUES (10, 1, 'month', '2026-10', 'a', 'b', 1)")
    con.execute("INSERT INTO seasons (guild_id, number, length, period, started_at)"
                " VALUES (10, 2, 'month', '2026-11', 'b')")  # running: no podium yet
    pairs = [(1, 2, 30.0, 3, 3), (3, 4, -30.0, 3, 0), (1, 3, 12.0, 4, 2), (2, 4, 12.0, 5, 3),
             (5, 6, 99.0, 2, 2)]  # too few matches to be ranked
    for period in ("2026-10", "2026-11"):
        con.executemany("INSERT INTO period_skills (guild_id, variant, kind, period, user_id,"
                        " partner_id, gain, matches, wins) VALUES (10, 'classic', 1, ?, ?, ?, ?,"
                        " ?, ?)", [(period, *p) for p in pairs])
    con.commit()
    con.close()
    db = await Database.open(path)
    try:
        rows = await db.fetchall("SELECT number, place, user_id, partner_id, gain, matches, wins"
                                 " FROM season_pair_podiums ORDER BY number, place")
        assert [tuple(r) for r in rows] == [(1, 1, 1, 2, 30.0, 3, 3), (1, 2, 1, 3, 12.0, 4, 2),
                                            (1, 3, 2, 4, 12.0, 5, 3)]
    finally:
        await db.close()
