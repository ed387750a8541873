"""Each member's client language, as their last interaction said (bot/languages.Readers keeps
it in memory and writes each change here, so a restart keeps it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .queries import Queries

# SQLite's limit on the parameters of one statement is 999 in old builds: stay below it.
_CHUNK = 500


class MemberLanguagesRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def load(self, user_ids: Iterable[int]) -> dict[int, str]:
        ids = sorted(set(user_ids))
        out: dict[int, str] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start:start + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows = await self.db.fetchall(
                f"SELECT user_id, language FROM member_languages WHERE user_id IN ({marks})",
                chunk)
            out.update((row[0], row[1]) for row in rows)
        return out

    async def save(self, user_id: int, language: str | None) -> None:
        """``language`` for ``user_id``; None forgets it (their client speaks none of ours)."""
        if language is None:
            await self.db.write("DELETE FROM member_languages WHERE user_id = ?", (user_id,))
            return
        await self.db.write(
            "INSERT INTO member_languages (user_id, language) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
            (user_id, language))
