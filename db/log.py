"""The append-only action log: a table's game record, one row per step.

A row is either the start of a deal (``kind='deal'``, ``{"dealer": n, "deck": [...]}``) or an
action in the record format (``kind='action'``, ``{"seat": n, "action": ...}``). Sequence
numbers start at 0 and have no gaps; (table_id, seq) is unique, so a second writer of the same
step fails instead of forking the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .connection import Database, Transaction


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    kind: str  # 'deal' or 'action'
    payload: dict[str, Any]
    user_id: int | None = None


class ActionLog:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def append(self, table_id: int, entries: list[LogEntry]) -> None:
        """Append steps atomically: one INSERT statement (its own transaction, all or none),
        so a card played costs one trip to the database thread."""
        if entries:
            await self.db.write(*_insert(table_id, entries))

    async def entries(self, table_id: int) -> list[LogEntry]:
        rows = await self.db.fetchall(
            "SELECT seq, kind, payload, user_id FROM actions WHERE table_id = ? ORDER BY seq",
            (table_id,))
        return [LogEntry(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]


async def append_in(tx: Transaction, table_id: int, entries: list[LogEntry]) -> None:
    """Append steps as part of the caller's transaction (e.g. with the match's result)."""
    if entries:
        await tx.execute(*_insert(table_id, entries))


def _insert(table_id: int, entries: list[LogEntry]) -> tuple[str, list[object]]:
    """One INSERT statement for these steps, and its parameters."""
    rows = ", ".join(["(?, ?, ?, ?, ?)"] * len(entries))
    params: list[object] = []
    for e in entries:
        params += [table_id, e.seq, e.kind, json.dumps(e.payload, separators=(",", ":")),
                   e.user_id]
    return f"INSERT INTO actions (table_id, seq, kind, payload, user_id) VALUES {rows}", params


def to_record(variant: str, options: dict[str, Any], players: list[str] | None,
              entries: list[LogEntry]) -> dict[str, Any]:
    """The game record (docs/game-record.md) these log entries make."""
    deals: list[dict[str, Any]] = []
    for e in entries:
        if e.kind == "deal":
            deals.append({"dealer": e.payload["dealer"], "deck": list(e.payload["deck"]),
                          "actions": []})
        elif deals:
            deals[-1]["actions"].append(e.payload)
        else:
            raise ValueError(f"action at seq {e.seq} before any deal")
    record: dict[str, Any] = {"format": "belote-record/1", "variant": variant,
                              "options": options, "deals": deals}
    if players is not None:
        record["players"] = players
    return record
