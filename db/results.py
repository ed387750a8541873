"""Finished matches, per-player results, and ratings per server and variant (stored here,
computed by the ``rate`` the caller gives: see game.rating)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .log import LogEntry, append_in
from .tables import TableStatus

if TYPE_CHECKING:
    from .connection import Database

# Given the stored ratings {user_id: rating} of the match's people (newcomers have none), the
# ratings {seat: (before, after)} of every seat a person played (game.rating.match_ratings).
Rater = Callable[[dict[int, float]], Mapping[int, tuple[float, float]]]


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    seat: int
    user_id: int | None  # None: a computer seat
    computer: str | None


@dataclass(frozen=True, slots=True)
class RatingRow:
    user_id: int
    rating: float
    matches: int
    wins: int


class ResultRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record_match(self, *, table_id: int, guild_id: int, variant: str, winner: int,
                           totals: tuple[int, int], deals: int,
                           players: list[MatchPlayer], rate: Rater,
                           entries: list[LogEntry] | None = None) -> dict[int, tuple[float, float]]:
        """Append the match's last steps (``entries``: the winning action), store the result,
        update the ratings (``rate`` computes them from the stored ones, read here so that no
        other result slips in between) and close the table, in one transaction: a crash leaves
        either none of it (the last card is not played) or all of it, never a won match without
        a result.

        Returns {user_id: (rating before, rating after)} for the rated players."""
        changes: dict[int, tuple[float, float]] = {}
        async with self.db.transaction() as tx:
            await append_in(tx, table_id, entries or [])
            await tx.execute(
                "INSERT INTO results (table_id, guild_id, variant, winner_team, score0, score1,"
                " deals) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, guild_id, variant, winner, totals[0], totals[1], deals))
            stored: dict[int, float] = {}
            for p in players:
                if p.user_id is not None and p.user_id not in stored:
                    row = await tx.fetchone(
                        "SELECT rating FROM ratings WHERE guild_id = ? AND variant = ?"
                        " AND user_id = ?", (guild_id, variant, p.user_id))
                    if row is not None:
                        stored[p.user_id] = row[0]
            rated = rate(stored)
            for p in players:
                team = p.seat & 1
                won = int(team == winner)
                r0 = r1 = None
                if p.user_id is not None:
                    r0, r1 = rated[p.seat]
                    changes[p.user_id] = (r0, r1)
                    await tx.execute(
                        "INSERT INTO ratings (guild_id, variant, user_id, rating, matches, wins)"
                        " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, variant, user_id)"
                        " DO UPDATE SET rating = excluded.rating, matches = matches + 1,"
                        " wins = wins + excluded.wins,"
                        " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                        (guild_id, variant, p.user_id, r1, won))
                await tx.execute(
                    "INSERT INTO result_players (table_id, seat, user_id, computer, team, won,"
                    " rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (table_id, p.seat, p.user_id, p.computer, team, won, r0, r1))
            await tx.execute(
                "UPDATE tables SET status = ?,"
                " ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                (TableStatus.FINISHED.value, table_id))
        return changes

    async def leaderboard(self, guild_id: int, variant: str, limit: int = 10) -> list[RatingRow]:
        rows = await self.db.fetchall(
            "SELECT user_id, rating, matches, wins FROM ratings WHERE guild_id = ?"
            " AND variant = ? ORDER BY rating DESC, wins DESC, user_id LIMIT ?",
            (guild_id, variant, limit))
        return [RatingRow(r[0], r[1], r[2], r[3]) for r in rows]

    async def winner_of(self, table_id: int) -> int | None:
        row = await self.db.fetchone("SELECT winner_team FROM results WHERE table_id = ?",
                                     (table_id,))
        return row[0] if row is not None else None
