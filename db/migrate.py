"""Numbered SQL migrations (db/migrations/NNNN_name.sql), applied in order and recorded."""

from __future__ import annotations

import re
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .connection import Transaction

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration the package ships, in order."""
    out = []
    for entry in resources.files("db.migrations").iterdir():
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


async def apply_migrations(tx: Transaction) -> list[str]:
    """Apply the migrations not yet recorded, inside the caller's transaction."""
    await tx.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))")
    done = {row[0] for row in await tx.fetchall("SELECT version FROM schema_migrations")}
    applied = []
    for version, name, sql in migration_files():
        if version in done:
            continue
        for statement in _statements(sql):
            await tx.execute(statement)
        await tx.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                         (version, name))
        applied.append(f"{version:04d}_{name}")
    return applied
