"""Migration 0018: routed clicks carry a signature; a row queued before it keeps its place
with none (the owner ignores it and its sender takes it back, tests/db/test_routing.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db import Database

from .old_databases import database_at


async def test_a_click_queued_before_0018_upgrades_unsigned(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, 17)
    con = sqlite3.connect(path)
    con.execute("INSERT INTO routed_clicks (shard, table_id, payload) VALUES (1, 1, '{}')")
    con.commit()
    con.close()
    db = await Database.open(path)
    try:
        row = await db.fetchone("SELECT shard, table_id, payload, signature FROM routed_clicks")
        assert row is not None and tuple(row) == (1, 1, "{}", None)
    finally:
        await db.close()
