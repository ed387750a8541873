"""Migration 0019: the quarters' gains of a database from before seasons are its months' own,
so a quarter's season board is right from the first day; the open table still restores."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db import Database
from service.tables import TableService

from .old_databases import database_at


async def test_quarters_are_filled_from_the_months(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, 17)
    con = sqlite3.connect(path)
    rows = [("2026-10", 7, 12.5, 2, 1), ("2026-11", 7, 30.0, 3, 3), ("2026-12", 7, -2.5, 1, 0),
            ("2026-09", 7, 100.0, 4, 4), ("2026-W47", 7, 30.0, 3, 3), ("2026-11", 8, 5.0, 3, 2)]
    con.executemany("INSERT INTO period_skills (guild_id, variant, kind, period, user_id,"
                    " partner_id, gain, matches, wins) VALUES (10, 'classic', 0, ?, ?, 0, ?, ?, ?)",
                    rows)
    con.commit()
    con.close()
    db = await Database.open(path)
    try:
        seasons = db.seasons
        board = await seasons.board(10, "classic", "2026-Q4")
        assert [(r.user_id, r.rating, r.matches, r.wins) for r in board] == [
            (7, 40.0, 6, 4), (8, 5.0, 3, 2)]
        q3 = await seasons.board(10, "classic", "2026-Q3")
        assert [(r.user_id, r.rating) for r in q3] == [(7, 100.0)]
        service = TableService(db, computer_delay=3600)
        try:
            (live,) = await service.restore()
            assert live.id == 1
        finally:
            await service.close()
    finally:
        await db.close()
