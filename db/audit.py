"""The audit log: moderator actions and the tables the bot closed by itself."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .queries import Queries


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    guild_id: int
    action: str
    actor_id: int | None  # None: the bot by itself
    table_id: int | None
    details: Mapping[str, Any] = field(default_factory=dict)
    created_at: str = ""


class AuditRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def add(self, guild_id: int, action: str, *, actor_id: int | None,
                  table_id: int | None = None,
                  details: Mapping[str, Any] | None = None) -> AuditEntry:
        blob = json.dumps(dict(details or {}), sort_keys=True)
        async with self.db.transaction() as tx:
            rowid = await tx.execute(
                "INSERT INTO audit_log (guild_id, action, actor_id, table_id, details)"
                " VALUES (?, ?, ?, ?, ?)", (guild_id, action, actor_id, table_id, blob))
            row = await tx.fetchone("SELECT created_at FROM audit_log WHERE id = ?", (rowid,))
        assert rowid is not None and row is not None
        return AuditEntry(rowid, guild_id, action, actor_id, table_id, json.loads(blob), row[0])

    async def recent(self, guild_id: int, limit: int = 20) -> list[AuditEntry]:
        """The server's newest entries first."""
        rows = await self.db.fetchall(
            "SELECT id, guild_id, action, actor_id, table_id, details, created_at"
            " FROM audit_log WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit))
        return [AuditEntry(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]
