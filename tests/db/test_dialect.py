"""The rewrites that let the repositories' SQLite SQL run on PostgreSQL (db/dialect.py)."""

from __future__ import annotations

import pytest

from db.dialect import POSTGRES_NOW, Catalog, DialectError, placeholders

CATALOG = Catalog({"seats": ["table_id", "seat"], "invites": ["table_id", "user_id"],
                   "tables": ["id"], "actions": ["table_id", "seq"]}, {"tables": "id"})


def test_placeholders_are_numbered_outside_quotes_only() -> None:
    assert placeholders("SELECT '?', \"a?\" FROM t WHERE a = ? AND b IN (?, ?)") == \
        "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3)"


def test_insert_or_replace_is_an_upsert_on_the_primary_key() -> None:
    sql = CATALOG.postgres("INSERT OR REPLACE INTO seats (table_id, seat, name, computer)"
                           " VALUES (?, ?, ?, ?)")
    assert sql == ("INSERT INTO seats (table_id, seat, name, computer) VALUES ($1, $2, $3, $4)"
                   " ON CONFLICT (table_id, seat) DO UPDATE SET name = EXCLUDED.name,"
                   " computer = EXCLUDED.computer")
    assert CATALOG.postgres("INSERT OR REPLACE INTO invites (table_id, user_id) VALUES (?, ?)"
                            ).endswith("ON CONFLICT (table_id, user_id) DO NOTHING")
    with pytest.raises(DialectError, match="ON CONFLICT"):
        CATALOG.postgres("INSERT OR REPLACE INTO nokey (a) VALUES (?)")


def test_insert_or_ignore_the_clock_the_index_hint_and_the_new_id() -> None:
    assert CATALOG.postgres("INSERT OR IGNORE INTO invites (table_id, user_id) VALUES (?, ?)"
                            ) == ("INSERT INTO invites (table_id, user_id) VALUES ($1, $2)"
                                  " ON CONFLICT DO NOTHING")
    assert CATALOG.postgres("UPDATE tables SET ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                            " WHERE id = ?") == \
        f"UPDATE tables SET ended_at = {POSTGRES_NOW} WHERE id = $1"
    assert CATALOG.postgres("SELECT x FROM skills INDEXED BY skills_board WHERE a = ?") == \
        "SELECT x FROM skills WHERE a = $1"
    assert CATALOG.postgres("INSERT INTO tables (guild_id) VALUES (?)") == \
        "INSERT INTO tables (guild_id) VALUES ($1) RETURNING id"
    assert "RETURNING" not in CATALOG.postgres("INSERT INTO actions (table_id) VALUES (?)")
