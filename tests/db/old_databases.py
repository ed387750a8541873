"""Databases as an older version of the bot left them, for the migrations' tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.migrate import _statements, migration_files


def database_at(path: Path, last: int) -> None:
    """A database migrated up to version ``last`` only, with one open table and a seat."""
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT "
                "NULL, applied_at TEXT NOT NULL DEFAULT 'then')")
    for version, name, sql in migration_files():
        if version > last:
            break
        for statement in _statements(sql):
            con.execute(statement)
        con.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                    (version, name))
    con.execute("INSERT INTO tables (id, guild_id, channel_id, host_id, variant, options, seed)"
                " VALUES (1, 10, 20, 7, 'classic', '{\"target\": 501}', 3)")
    con.execute("INSERT INTO seats (table_id, seat, user_id, name) VALUES (1, 0, 7, 'ana')")
    con.commit()
    con.close()
