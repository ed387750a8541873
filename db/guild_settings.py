"""The stored server settings: per server, one JSON object of the values a moderator changed.

Only changed values are stored; a missing key means the default, which lives in the code
(service/guild_settings.py), so a default can change without touching any row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .queries import Queries


class GuildSettingsRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def load(self, guild_id: int) -> dict[str, Any]:
        row = await self.db.fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?",
                                     (guild_id,))
        if row is None:
            return {}
        stored = json.loads(row[0])
        return stored if isinstance(stored, dict) else {}

    async def change(self, guild_id: int, values: Mapping[str, Any],
                     reset: Iterable[str] = ()) -> dict[str, Any]:
        """Set ``values`` and drop the keys in ``reset``, in one transaction; returns the
        stored object after the change."""
        async with self.db.transaction() as tx:
            row = await tx.fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?",
                                    (guild_id,))
            stored = json.loads(row[0]) if row is not None else {}
            if not isinstance(stored, dict):
                stored = {}
            stored.update(values)
            for key in reset:
                stored.pop(key, None)
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, json.dumps(stored, sort_keys=True)))
        return stored
