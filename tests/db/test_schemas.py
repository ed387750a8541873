"""SQLite's and PostgreSQL's migrations give the same schema: every SQLite migration has a
PostgreSQL one of the same number and name, and the two make the same tables, with the same
columns (in order), the same NOT NULLs and the same primary keys."""

from __future__ import annotations

from pathlib import Path

from db import Database
from db.migrate import migration_files

Schema = dict[str, list[tuple[str, bool, int]]]  # table -> (column, not null, place in the key)


def test_every_sqlite_migration_has_a_postgresql_counterpart() -> None:
    sqlite = [(v, n) for v, n, _ in migration_files("sqlite")]
    postgres = [(v, n) for v, n, _ in migration_files("postgresql")]
    missing = sorted(set(sqlite) - set(postgres))
    assert not missing, (
        f"SQLite migrations without a PostgreSQL counterpart in db/migrations/postgresql/: "
        f"{missing} (docs/postgresql.md says how to write one)")
    assert postgres == sqlite


async def sqlite_schema(db: Database) -> Schema:
    out: Schema = {}
    for (table,) in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name"):
        columns = await db.fetchall(f"PRAGMA table_info({table})")
        # A primary key column is never NULL (SQLite's rowid alias reports notnull 0).
        out[table] = [(c["name"], bool(c["notnull"]) or c["pk"] > 0, c["pk"]) for c in columns]
    return out


async def postgres_schema(db: Database) -> Schema:
    keys = {(r[0], r[1]): r[2] for r in await db.fetchall(
        "SELECT c.relname, a.attname, k.ord FROM pg_index i"
        " JOIN pg_class c ON c.oid = i.indrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true"
        " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
        " WHERE i.indisprimary AND n.nspname = current_schema()")}
    out: Schema = {}
    for r in await db.fetchall(
            "SELECT table_name, column_name, is_nullable FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"):
        out.setdefault(r[0], []).append((r[1], r[2] == "NO", keys.get((r[0], r[1]), 0)))
    return out


async def test_both_backends_make_the_same_tables_and_columns(tmp_path: Path,
                                                              postgres_url: str) -> None:
    lite = await Database.open(tmp_path / "schema.sqlite3")
    pg = await Database.open(postgres_url)
    try:
        mine, theirs = await sqlite_schema(lite), await postgres_schema(pg)
    finally:
        await lite.close()
        await pg.close()
    assert "tables" in mine and "matches" in mine
    assert sorted(theirs) == sorted(mine), "the two schemas have different tables"
    for table in mine:
        assert theirs[table] == mine[table], f"table {table} differs"
