"""Per-server settings and small process facts (the hash of the synced command tree)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .queries import Queries


class GuildRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def settings(self, guild_id: int) -> dict[str, Any]:
        row = await self.db.fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?",
                                     (guild_id,))
        return json.loads(row[0]) if row is not None else {}

    async def update_settings(self, guild_id: int, **changes: Any) -> dict[str, Any]:
        async with self.db.transaction() as tx:
            row = await tx.fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?",
                                    (guild_id,))
            settings = json.loads(row[0]) if row is not None else {}
            settings.update(changes)
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, json.dumps(settings, sort_keys=True)))
        return settings

    async def meta(self, key: str) -> str | None:
        row = await self.db.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row is not None else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.db.write(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))
