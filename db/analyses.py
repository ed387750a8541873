"""The analysis of finished matches (migration 0024): where each match's analysis stands, each
deal's analysis as JSON, and what each player's cards cost over the match.

bot/analysis.py runs the analyses and is the only writer; a deal's analysis is stored with the
count of deals done in one transaction, so a restart resumes from the deals stored and never
analyses one twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .queries import Queries

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    table_id: int
    guild_id: int
    state: str
    deals: int  # finished deals to analyse (0 until its run reads the match)
    done: int  # ... analysed and stored
    starts: int
    error: str | None


@dataclass(frozen=True, slots=True)
class PlayerCost:
    """What one player's chosen cards cost over a match (``user_id`` 0: a computer's)."""

    seat: int
    user_id: int
    cards: int
    exact: int
    cost: int
    cost_points: int


@dataclass(frozen=True, slots=True)
class AnalysedStats:
    """A member's cards over their analysed matches: accuracy is ``exact / cards``."""

    matches: int
    cards: int
    exact: int
    cost: int
    cost_points: int


_COLUMNS = "table_id, guild_id, state, deals, done, starts, error"


def _row(r: Any) -> AnalysisRow:
    return AnalysisRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6])


class AnalysisRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def get(self, table_id: int) -> AnalysisRow | None:
        row = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM match_analyses WHERE table_id = ?", (table_id,))
        return _row(row) if row is not None else None

    async def ask(self, table_id: int, guild_id: int, now: str) -> AnalysisRow:
        """The match's analysis, queued if it was never asked for or failed; as it stands
        otherwise (queued, running or done: asking again changes nothing)."""
        async with self.db.transaction() as tx:
            row = await tx.fetchone(
                f"SELECT {_COLUMNS} FROM match_analyses WHERE table_id = ?", (table_id,))
            if row is None:
                await tx.execute(
                    "INSERT INTO match_analyses (table_id, guild_id, state, asked_at)"
                    " VALUES (?, ?, ?, ?)", (table_id, guild_id, QUEUED, now))
            elif row[2] == FAILED:
                await tx.execute(
                    "UPDATE match_analyses SET state = ?, starts = 0, error = NULL,"
                    " asked_at = ? WHERE table_id = ?", (QUEUED, now, table_id))
            else:
                return _row(row)
            row = await tx.fetchone(
                f"SELECT {_COLUMNS} FROM match_analyses WHERE table_id = ?", (table_id,))
        assert row is not None
        return _row(row)

    async def unfinished(self) -> list[AnalysisRow]:
        """The analyses queued or running (a restart takes them up), oldest asked first."""
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM match_analyses WHERE state IN (?, ?)"
            " ORDER BY asked_at, table_id", (QUEUED, RUNNING))
        return [_row(r) for r in rows]

    async def start(self, table_id: int, deals: int) -> AnalysisRow:
        """A run of the match's analysis begins: running, ``deals`` to do, one start more."""
        await self.db.write(
            "UPDATE match_analyses SET state = ?, deals = ?, starts = starts + 1"
            " WHERE table_id = ?", (RUNNING, deals, table_id))
        row = await self.get(table_id)
        assert row is not None
        return row

    async def stored_deals(self, table_id: int) -> dict[int, dict[str, Any]]:
        """The deals analysed so far, by index."""
        rows = await self.db.fetchall(
            "SELECT deal, analysis FROM deal_analyses WHERE table_id = ? ORDER BY deal",
            (table_id,))
        return {int(r[0]): json.loads(r[1]) for r in rows}

    async def stored_deal(self, table_id: int, deal: int) -> dict[str, Any] | None:
        """Deal ``deal``'s analysis (its index in the match), None until it is stored."""
        row = await self.db.fetchone(
            "SELECT analysis FROM deal_analyses WHERE table_id = ? AND deal = ?",
            (table_id, deal))
        return json.loads(row[0]) if row is not None else None

    async def store_deal(self, table_id: int, deal: int, analysis: dict[str, Any]) -> int:
        """One deal's analysis stored, with the count of deals done; returns that count."""
        async with self.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO deal_analyses (table_id, deal, analysis) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (table_id, deal, json.dumps(analysis, separators=(",", ":"))))
            row = await tx.fetchone("SELECT COUNT(*) FROM deal_analyses WHERE table_id = ?",
                                    (table_id,))
            done = int(row[0]) if row is not None else 0
            await tx.execute("UPDATE match_analyses SET done = ? WHERE table_id = ?",
                             (done, table_id))
        return done

    async def finish(self, table_id: int, guild_id: int, variant: str,
                     players: list[PlayerCost], now: str) -> None:
        """The match is analysed: what each player's cards cost, and its state done."""
        async with self.db.transaction() as tx:
            await tx.execute("DELETE FROM analysis_players WHERE table_id = ?", (table_id,))
            await tx.executemany(
                "INSERT INTO analysis_players (table_id, seat, user_id, guild_id, variant,"
                " cards, exact, cost, cost_points) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(table_id, p.seat, p.user_id, guild_id, variant, p.cards, p.exact, p.cost,
                  p.cost_points) for p in players])
            await tx.execute(
                "UPDATE match_analyses SET state = ?, finished_at = ?, error = NULL"
                " WHERE table_id = ?", (DONE, now, table_id))

    async def fail(self, table_id: int, error: str, now: str) -> None:
        await self.db.write(
            "UPDATE match_analyses SET state = ?, error = ?, finished_at = ? WHERE table_id = ?",
            (FAILED, error[:500], now, table_id))

    async def players(self, table_id: int) -> list[PlayerCost]:
        rows = await self.db.fetchall(
            "SELECT seat, user_id, cards, exact, cost, cost_points FROM analysis_players"
            " WHERE table_id = ? ORDER BY seat, user_id", (table_id,))
        return [PlayerCost(*(int(x) for x in r)) for r in rows]

    async def member_stats(self, guild_id: int, user_id: int, variant: str) -> AnalysedStats:
        """A member's chosen cards over their analysed matches of a variant in a server."""
        row = await self.db.fetchone(
            "SELECT COUNT(DISTINCT table_id), COALESCE(SUM(cards), 0),"
            " COALESCE(SUM(exact), 0), COALESCE(SUM(cost), 0), COALESCE(SUM(cost_points), 0)"
            " FROM analysis_players WHERE guild_id = ? AND user_id = ? AND variant = ?",
            (guild_id, user_id, variant))
        assert row is not None
        return AnalysedStats(*(int(x) for x in row))

    # ---- the messages that show an analysis's progress -------------------------------------
    # A replay message showing an analysis's progress (bot/controls/analysis.py) is written
    # down in ``meta`` (key ``analysis.watch.<message id>``, JSON), so that the next start,
    # which resumes the analysis, also takes up that message's edits.
    WATCH_KEY = "analysis.watch."

    async def keep_watch(self, message_id: int, spot: dict[str, Any]) -> None:
        await self.db.write(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (f"{self.WATCH_KEY}{message_id}", json.dumps(spot, sort_keys=True)))

    async def watches(self) -> list[dict[str, Any]]:
        """The messages written down by :meth:`keep_watch` and not dropped since."""
        rows = await self.db.fetchall(
            "SELECT value FROM meta WHERE key LIKE ? ORDER BY key", (f"{self.WATCH_KEY}%",))
        return [json.loads(r[0]) for r in rows]

    async def drop_watch(self, message_id: int) -> None:
        await self.db.write("DELETE FROM meta WHERE key = ?",
                            (f"{self.WATCH_KEY}{message_id}",))
