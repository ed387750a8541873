"""Per-server settings and small process facts (the hash of the synced command tree), and the
language each server's preferred locale gives, as the process that runs the server last saw it
(a ``meta`` row per server, ``locale_language:<guild id>``): another process's pages read it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .queries import Queries

LOCALE_KEY = "locale_language:"
# SQLite's limit on the parameters of one statement is 999 in old builds: stay below it.
_CHUNK = 500


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

    async def locale_language(self, guild_id: int) -> str | None:
        """The language the server's preferred locale gives, as last recorded (None: never)."""
        return await self.meta(f"{LOCALE_KEY}{guild_id}")

    async def locale_languages(self, guild_ids: Iterable[int]) -> dict[int, str]:
        """What ``locale_language`` holds for each of these servers (those recorded)."""
        keys = sorted({f"{LOCALE_KEY}{g}" for g in guild_ids})
        out: dict[int, str] = {}
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start:start + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows = await self.db.fetchall(
                f"SELECT key, value FROM meta WHERE key IN ({marks})", chunk)
            out.update((int(row[0][len(LOCALE_KEY):]), row[1]) for row in rows)
        return out

    async def set_locale_language(self, guild_id: int, language: str) -> None:
        await self.set_meta(f"{LOCALE_KEY}{guild_id}", language)
