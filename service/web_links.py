"""Each server's web address: the token its pages sit under and the links messages carry.

A token is 128 random bits (``secrets``): nobody finds a server's pages without being given a
link. ``/belote config`` shows it to moderators and renews it; the old one then answers 404 at
once. Nothing is cached: with several shards on one database, each process serves pages and a
renewal made through one is seen by all (a lookup is one indexed read).
"""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from db import Database

# What a token looks like (token_urlsafe(16): 22 characters); anything else is not looked up.
TOKEN_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{22}")


def new_token() -> str:
    return secrets.token_urlsafe(16)


class WebLinks:
    def __init__(self, db: Database, base_url: str | None) -> None:
        self.repo = db.web_tokens
        self.base_url = base_url.rstrip("/") if base_url else None

    async def token(self, guild_id: int) -> str:
        """The server's token, issued on first asking."""
        stored = await self.repo.token_of(guild_id)
        if stored is None:
            stored = await self.repo.issue(guild_id, new_token(), replace=False)
        return stored

    async def renew(self, guild_id: int) -> str:
        """A new token: every link given before answers 404 from now on."""
        return await self.repo.issue(guild_id, new_token(), replace=True)

    async def guild_of(self, token: str) -> int | None:
        """The server whose pages ``token`` opens, or None (a wrong or renewed token)."""
        if not TOKEN_SHAPE.fullmatch(token):
            return None
        return await self.repo.guild_of(token)

    async def url(self, guild_id: int, path: str = "/") -> str | None:
        """The public address of one of the server's pages (None without ``WEB_BASE_URL``)."""
        if self.base_url is None:
            return None
        return f"{self.base_url}/s/{await self.token(guild_id)}{path}"

    async def site(self, guild_id: int) -> str:
        """The server's home page, relative to wherever the pages are served (for moderators
        when there is no ``WEB_BASE_URL``)."""
        return f"/s/{await self.token(guild_id)}/"
