"""Every row of one database copied into another (`belote-bot migrate-db`): SQLite to
PostgreSQL when a bot outgrows one machine, or back.

Both databases are opened (so migrated) by this code first, so they have the same tables at the
same version. The copy is one transaction on the target: it lands whole or not at all. The source
is read a page at a time in key order, so a table of any size is never held in memory whole. At the
end every table's rows are counted on both sides; a difference is an error.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from .connection import Database

BATCH = 1000
VERSIONS = "schema_migrations"  # each database keeps its own


class TransferError(Exception):
    """Why nothing (or, for a count check, something unexpected) was copied."""


async def _foreign_keys(db: Database) -> dict[str, set[str]]:
    """Every table of ``db`` (but the version table) and the tables it refers to."""
    out: dict[str, set[str]] = {}
    if db.dialect == "sqlite":
        for (table,) in await db.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%'"):
            refs = await db.fetchall(f"PRAGMA foreign_key_list({table})")
            out[table] = {r["table"] for r in refs}
    else:
        for (table,) in await db.fetchall(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"):
            out[table] = set()
        for r in await db.fetchall(
                "SELECT c.relname, p.relname FROM pg_constraint k"
                " JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE k.contype = 'f' AND n.nspname = current_schema()"):
            out[r[0]].add(r[1])
    out.pop(VERSIONS, None)
    return out


def _in_order(refs: dict[str, set[str]]) -> list[str]:
    """Tables with the ones they refer to first (so every foreign key holds on insert)."""
    done: list[str] = []
    seen: set[str] = set()

    def visit(table: str) -> None:
        if table in seen:
            return
        seen.add(table)
        for parent in sorted(refs.get(table, ())):
            if parent != table:
                visit(parent)
        done.append(table)

    for table in sorted(refs):
        visit(table)
    return done


async def _versions(db: Database) -> list[int]:
    return [r[0] for r in await db.fetchall(f"SELECT version FROM {VERSIONS} ORDER BY version")]


async def count_rows(db: Database, tables: list[str]) -> dict[str, int]:
    out = {}
    for table in tables:
        row = await db.fetchone(f"SELECT COUNT(*) FROM {table}")
        out[table] = int(row[0]) if row is not None else 0
    return out


async def _key_columns(db: Database, table: str) -> list[str]:
    """The columns that order ``table`` for paging: its primary key, else all its columns."""
    if db.dialect == "sqlite":
        info = await db.fetchall(f"PRAGMA table_info({table})")
        keys = [r["name"] for r in sorted(info, key=lambda r: r["pk"]) if r["pk"]]
        return keys or [r["name"] for r in info]
    rows = await db.fetchall(
        "SELECT a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true"
        " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
        " WHERE i.indisprimary AND n.nspname = current_schema() AND c.relname = ?"
        " ORDER BY k.ord", (table,))
    if rows:
        return [r[0] for r in rows]
    columns = await db.fetchall(
        "SELECT column_name FROM information_schema.columns WHERE table_schema ="
        " current_schema() AND table_name = ? ORDER BY ordinal_position", (table,))
    return [r[0] for r in columns]


async def _pages(db: Database, table: str, keys: list[str],
                 size: int) -> AsyncIterator[list[Any]]:
    """The rows of ``table`` a page at a time, in key order (each page starts after the last
    key of the one before): a table of any size is never held in memory whole."""
    order = ", ".join(keys)
    after: tuple[Any, ...] | None = None
    while True:
        if after is None:
            rows = await db.fetchall(f"SELECT * FROM {table} ORDER BY {order} LIMIT {size}")
        else:
            marks = ", ".join("?" * len(keys))
            rows = await db.fetchall(
                f"SELECT * FROM {table} WHERE ({order}) > ({marks})"
                f" ORDER BY {order} LIMIT {size}", after)
        if not rows:
            return
        yield rows
        if len(rows) < size:
            return
        after = tuple(rows[-1][k] for k in keys)


async def copy_database(source: Database, target: Database, *, overwrite: bool = False,
                        progress: Callable[[str, int], None] | None = None,
                        batch: int = BATCH) -> dict[str, int]:
    """Copy every row of ``source`` into ``target``; returns the rows copied per table.

    A target holding any row is refused (:class:`TransferError`) unless ``overwrite``, which
    empties its tables first (in the same transaction as the copy)."""
    if await _versions(source) != await _versions(target):
        raise TransferError("the two databases are at different schema versions: run this "
                            "bot's version on both")
    refs = await _foreign_keys(source)
    order = _in_order(refs)
    missing = sorted(set(order) - set(await _foreign_keys(target)))
    if missing:
        raise TransferError(f"the target has no table {', '.join(missing)}")
    held = {t: n for t, n in (await count_rows(target, order)).items() if n}
    if held and not overwrite:
        listed = ", ".join(f"{t} ({n})" for t, n in sorted(held.items()))
        raise TransferError(f"the target already holds rows: {listed}. Nothing was copied; "
                            "give --overwrite to replace them")
    copied: dict[str, int] = {}
    async with target.transaction() as tx:
        for table in reversed(order):
            if held.get(table):
                await tx.execute(f"DELETE FROM {table}")
        for table in order:
            copied[table] = 0
            keys = await _key_columns(source, table)
            async for rows in _pages(source, table, keys, batch):
                columns = list(rows[0].keys())
                sql = (f"INSERT INTO {table} ({', '.join(columns)})"
                       f" VALUES ({', '.join('?' * len(columns))})")
                page: list[tuple[Any, ...]] = [tuple(r) for r in rows]
                await tx.executemany(sql, page)
                copied[table] += len(rows)
            if progress is not None:
                progress(table, copied[table])
    await target.reset_sequences()
    theirs = await count_rows(target, order)
    wrong = {t: (copied[t], theirs[t]) for t in order if copied[t] != theirs[t]}
    if wrong:
        listed = ", ".join(f"{t}: {a} copied, {b} found" for t, (a, b) in wrong.items())
        raise TransferError(f"the counts differ after the copy: {listed}")
    return copied
