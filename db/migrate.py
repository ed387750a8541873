"""Numbered SQL migrations, applied in order and recorded in ``schema_migrations``.

SQLite's are db/migrations/NNNN_name.sql; PostgreSQL's are db/migrations/postgresql/NNNN_name.sql,
one for each SQLite one, with the same number and name, giving the same tables and columns
(tests/db/test_schemas.py checks both). docs/postgresql.md says how to write one."""

from __future__ import annotations

import re
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .queries import Transaction

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


DIALECTS = ("sqlite", "postgresql")
_PACKAGES = {"sqlite": "db.migrations", "postgresql": "db.migrations.postgresql"}
# The version table, in each dialect (same columns; the timestamp text the same).
_VERSIONS = {
    "sqlite": "CREATE TABLE IF NOT EXISTS schema_migrations ("
              " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
              " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))",
    "postgresql": "CREATE TABLE IF NOT EXISTS schema_migrations ("
                  " version BIGINT PRIMARY KEY, name TEXT NOT NULL,"
                  " applied_at TEXT NOT NULL DEFAULT (to_char(clock_timestamp() AT TIME ZONE"
                  " 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')))",
}


def migration_files(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration the package ships for ``dialect``, in order."""
    out = []
    for entry in resources.files(_PACKAGES[dialect]).iterdir():
        m = _NAME.match(entry.name)
        if m:
            out.append((int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    out.sort()
    versions = [v for v, _, _ in out]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migrations share a number: {versions}")
    return out


def _statements(sql: str) -> list[str]:
    # Our migrations hold no triggers or string literals with ';', so a split is exact.
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


async def apply_migrations(tx: Transaction, dialect: str = "sqlite") -> list[str]:
    """Apply the migrations not yet recorded, inside the caller's transaction."""
    await tx.execute(_VERSIONS[dialect])
    done = {row[0] for row in await tx.fetchall("SELECT version FROM schema_migrations")}
    applied = []
    for version, name, sql in migration_files(dialect):
        if version in done:
            continue
        for statement in _statements(sql):
            await tx.execute(statement)
        await tx.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                         (version, name))
        applied.append(f"{version:04d}_{name}")
    return applied
