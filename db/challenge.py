"""The daily deal's tries and boards (migration 0020).

A try is claimed before its table opens (the primary key makes it one a day per member, board
and variant), linked to its table, and scored when the table ends. Challenge tables have
computers at three seats, so their matches never move the ordinary ratings; the challenge's
board is this table's alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .queries import Queries

WORLD = 0  # the scope of the world's board, shared by every server


@dataclass(frozen=True, slots=True)
class TryRow:
    scope: int
    day: str
    variant: str
    user_id: int
    guild_id: int
    table_id: int | None
    score: int | None
    against: int | None

    @property
    def finished(self) -> bool:
        return self.score is not None


_COLUMNS = "scope, day, variant, user_id, guild_id, table_id, score, against"


def _row(r: Any) -> TryRow:
    return TryRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])


class ChallengeRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def claim(self, scope: int, day: str, variant: str, user_id: int, guild_id: int,
                    now: str) -> bool:
        """The member's try of the day, taken; False if they had it already."""
        async with self.db.transaction() as tx:
            had = await tx.fetchone(
                "SELECT 1 FROM challenge_tries WHERE scope = ? AND day = ? AND variant = ?"
                " AND user_id = ?", (scope, day, variant, user_id))
            if had is not None:
                return False
            await tx.execute(
                "INSERT INTO challenge_tries (scope, day, variant, user_id, guild_id,"
                " started_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (scope, day, variant, user_id, guild_id, now))
        return True

    async def give_back(self, scope: int, day: str, variant: str, user_id: int) -> None:
        """A try whose table could not open: not used."""
        await self.db.write(
            "DELETE FROM challenge_tries WHERE scope = ? AND day = ? AND variant = ?"
            " AND user_id = ? AND table_id IS NULL", (scope, day, variant, user_id))

    async def link(self, scope: int, day: str, variant: str, user_id: int,
                   table_id: int) -> None:
        await self.db.write(
            "UPDATE challenge_tries SET table_id = ? WHERE scope = ? AND day = ?"
            " AND variant = ? AND user_id = ?", (table_id, scope, day, variant, user_id))

    async def get(self, scope: int, day: str, variant: str, user_id: int) -> TryRow | None:
        row = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM challenge_tries WHERE scope = ? AND day = ?"
            " AND variant = ? AND user_id = ?", (scope, day, variant, user_id))
        return _row(row) if row is not None else None

    async def of_table(self, table_id: int) -> TryRow | None:
        row = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM challenge_tries WHERE table_id = ?", (table_id,))
        return _row(row) if row is not None else None

    async def score(self, table_id: int, score: int, against: int, now: str) -> bool:
        """The try played at this table is over; False if it was scored already."""
        async with self.db.transaction() as tx:
            row = await tx.fetchone("SELECT score FROM challenge_tries WHERE table_id = ?",
                                    (table_id,))
            if row is None or row[0] is not None:
                return False
            await tx.execute(
                "UPDATE challenge_tries SET score = ?, against = ?, finished_at = ?"
                " WHERE table_id = ?", (score, against, now, table_id))
        return True

    async def board(self, scope: int, day: str, variant: str) -> list[TryRow]:
        """The day's tries, the finished ones best first, then those still playing."""
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM challenge_tries WHERE scope = ? AND day = ?"
            " AND variant = ? ORDER BY score IS NULL, score DESC, finished_at, user_id",
            (scope, day, variant))
        return [_row(r) for r in rows]

    async def streaks(self, scope: int, users: list[int], day: str) -> dict[int, int]:
        """Each member's days in a row with a try on this board, up to ``day``."""
        if not users:
            return {}
        rows = await self.db.fetchall(
            "SELECT DISTINCT user_id, day FROM challenge_tries WHERE scope = ? AND day <= ?"
            f" AND user_id IN ({','.join('?' * len(users))}) ORDER BY user_id, day DESC",
            (scope, day, *users))
        days: dict[int, list[str]] = {}
        for user, d in rows:
            days.setdefault(user, []).append(d)
        out = {}
        for user in users:
            expect, n = date.fromisoformat(day), 0
            for d in days.get(user, []):
                if date.fromisoformat(d) != expect:
                    break
                n += 1
                expect -= timedelta(days=1)
            out[user] = n
        return out

    async def days_to_post(self, guild_id: int, before: str) -> list[str]:
        """Past days this server played, its own board or the world's from here, whose boards
        are not posted yet."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT day FROM challenge_tries t WHERE (scope = ? OR (scope = ?"
            " AND guild_id = ?)) AND day < ? AND NOT EXISTS (SELECT 1 FROM challenge_posts p"
            " WHERE p.guild_id = ? AND p.day = t.day) ORDER BY day",
            (guild_id, WORLD, guild_id, before, guild_id))
        return [r[0] for r in rows]

    async def world_variants_from(self, guild_id: int, day: str) -> list[str]:
        """The variants of the world's board this server played that day."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT variant FROM challenge_tries WHERE scope = ? AND day = ?"
            " AND guild_id = ? ORDER BY variant", (WORLD, day, guild_id))
        return [r[0] for r in rows]

    async def variants_of(self, scope: int, day: str) -> list[str]:
        rows = await self.db.fetchall(
            "SELECT DISTINCT variant FROM challenge_tries WHERE scope = ? AND day = ?"
            " ORDER BY variant", (scope, day))
        return [r[0] for r in rows]

    async def mark_posted(self, guild_id: int, day: str) -> None:
        await self.db.write("INSERT INTO challenge_posts (guild_id, day) VALUES (?, ?)"
                            " ON CONFLICT DO NOTHING", (guild_id, day))
