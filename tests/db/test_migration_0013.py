"""Migration 0013: a tournament running before it upgrades speaking English, its entrants with
no stored name (the tables then ask the member cache, as before)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db import Database

from .old_databases import database_at


async def test_a_running_tournament_of_0012_upgrades(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, 12)
    con = sqlite3.connect(path)
    con.execute("INSERT INTO tournaments (id, guild_id, channel_id, host_id, format, variant,"
                " seed, stage) VALUES (1, 10, 20, 7, 'quick', 'bulgarian', 5, 'running')")
    for position, user in enumerate((7, 8, 9), start=1):
        con.execute("INSERT INTO tournament_entrants (tournament_id, user_id, position)"
                    " VALUES (1, ?, ?)", (user, position))
    con.commit()
    con.close()
    db = await Database.open(path)
    try:
        repo = db.tournaments
        row = await repo.get(1)
        assert row is not None and (row.stage, row.language) == ("running", "en")
        assert [(e.user_id, e.name) for e in await repo.entrants(1)] == \
            [(7, None), (8, None), (9, None)]
        await repo.add_entrant(1, 11, "ana")
        assert (await repo.entrants(1))[-1].name == "ana"
    finally:
        await db.close()
