"""The token each server's web pages sit under (web/, service/web_links.py): read, issued,
renewed."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .queries import Queries


class WebTokenRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def token_of(self, guild_id: int) -> str | None:
        row = await self.db.fetchone("SELECT token FROM web_tokens WHERE guild_id = ?",
                                     (guild_id,))
        return None if row is None else str(row[0])

    async def guild_of(self, token: str) -> int | None:
        row = await self.db.fetchone("SELECT guild_id FROM web_tokens WHERE token = ?",
                                     (token,))
        return None if row is None else int(row[0])

    async def issue(self, guild_id: int, token: str, *, replace: bool) -> str:
        """Store ``token`` for the server; with ``replace`` false an existing one is kept (two
        first requests at once agree on one). Returns the token in force."""
        async with self.db.transaction() as tx:
            if replace:
                await tx.execute("DELETE FROM web_tokens WHERE guild_id = ?", (guild_id,))
            await tx.execute("INSERT INTO web_tokens (guild_id, token) VALUES (?, ?)"
                             " ON CONFLICT (guild_id) DO NOTHING", (guild_id, token))
            row = await tx.fetchone("SELECT token FROM web_tokens WHERE guild_id = ?",
                                    (guild_id,))
        assert row is not None
        return str(row[0])
