"""SQLite's SQL, as the repositories write it, made PostgreSQL's.

The repositories write one SQL, SQLite's, so a repository function works on both backends
without a second copy. PostgreSQL runs it after these rewrites, and only these:

- ``?`` placeholders become ``$1``, ``$2``, ... (a ``?`` inside a quoted string stays);
- ``INSERT OR IGNORE INTO t ...`` becomes ``INSERT INTO t ... ON CONFLICT DO NOTHING``;
- ``INSERT OR REPLACE INTO t (cols) ...`` becomes an upsert on t's primary key that sets every
  other listed column (SQLite's REPLACE deletes the old row first; no table here has rows that
  hang off a replaced one, so the two agree);
- ``strftime('%Y-%m-%dT%H:%M:%fZ', 'now')``, the stored timestamp format, becomes the same text
  from PostgreSQL's clock;
- ``INDEXED BY name`` (a hint to SQLite's planner) is dropped;
- an INSERT into a table whose primary key is one generated integer gets ``RETURNING`` that
  key, so :meth:`Transaction.execute` gives the new row's id as SQLite's ``lastrowid`` does.

Anything else must already be SQL both engines read the same way (docs/postgresql.md lists
the rules); the test suite runs every repository against both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# The timestamp every table stores (ISO 8601, UTC, milliseconds), as each engine writes it.
SQLITE_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
POSTGRES_NOW = ("to_char(clock_timestamp() AT TIME ZONE 'UTC',"
                " 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')")

_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\s", re.I)
_OR_REPLACE = re.compile(r"^\s*INSERT\s+OR\s+REPLACE\s+INTO\s+(\w+)\s*\(([^)]*)\)", re.I)
_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.I)
_INDEXED_BY = re.compile(r"\s+INDEXED\s+BY\s+\w+", re.I)
_RETURNING = re.compile(r"\bRETURNING\b", re.I)
_ON_CONFLICT = re.compile(r"\bON\s+CONFLICT\b", re.I)


class DialectError(ValueError):
    """SQL this module cannot carry over to PostgreSQL; the message says what to write."""


@dataclass
class Catalog:
    """What the rewrites need to know of the schema, read once the migrations are applied:
    each table's primary key columns, and the tables whose key is a generated integer."""

    primary_keys: Mapping[str, Sequence[str]]
    generated: Mapping[str, str]  # table -> its generated key column
    _cache: dict[str, str] = field(default_factory=dict)

    def postgres(self, sql: str) -> str:
        """``sql`` as PostgreSQL runs it (remembered: the repositories' SQL is mostly fixed)."""
        done = self._cache.get(sql)
        if done is None:
            done = to_postgres(sql, self)
            if len(self._cache) < 4096:  # IN lists of every length would grow it without end
                self._cache[sql] = done
        return done


def to_postgres(sql: str, catalog: Catalog) -> str:
    out = sql.replace(SQLITE_NOW, POSTGRES_NOW)
    out = _INDEXED_BY.sub("", out)
    if _OR_IGNORE.match(out):
        out = _OR_IGNORE.sub("INSERT INTO ", out, count=1)
        if not _ON_CONFLICT.search(out):
            out = out.rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
    else:
        m = _OR_REPLACE.match(out)
        if m:
            out = _upsert(out, m, catalog)
    m = _INSERT.match(out)
    if m and not _RETURNING.search(out):
        key = catalog.generated.get(m.group(1).lower())
        if key is not None:
            out = out.rstrip().rstrip(";") + f" RETURNING {key}"
    return placeholders(out)


def _upsert(sql: str, m: re.Match[str], catalog: Catalog) -> str:
    table = m.group(1).lower()
    columns = [c.strip() for c in m.group(2).split(",")]
    keys = catalog.primary_keys.get(table)
    if not keys:
        raise DialectError(f"INSERT OR REPLACE INTO {table}: the table has no primary key "
                           "to upsert on; write INSERT ... ON CONFLICT (...) DO UPDATE")
    rest = [c for c in columns if c.lower() not in {k.lower() for k in keys}]
    body = "INSERT INTO " + sql[m.start(1):]
    conflict = f" ON CONFLICT ({', '.join(keys)}) DO "
    conflict += ("UPDATE SET " + ", ".join(f"{c} = EXCLUDED.{c}" for c in rest)) if rest \
        else "NOTHING"
    return body.rstrip().rstrip(";") + conflict


def placeholders(sql: str) -> str:
    """``?`` -> ``$n``, outside quoted strings and identifiers."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)
