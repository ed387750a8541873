"""Seasons (migration 0019): each server's seasons, their boards and the podiums kept.

A season is a week (ISO, from Monday), a month or a quarter, UTC. Its board is the rating
gained in it, read from ``period_skills`` under the season's period key, which every rated
match writes (db/results.skill_rows) and the ratings rebuild writes again: a season's board is
computed from the stored matches. A player (or pair) is ranked with at least
:data:`SEASON_MIN` rated matches in the season.

An ended season keeps the three first players of each variant played (``season_podiums``)
and its three first pairs (``season_pair_podiums``, migration 0025), written in the
transaction that ends it; ``posted`` says whether its post went out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from .results import PAIR, PLAYER, RatingRow, iso, period_keys, quarter_key

if TYPE_CHECKING:
    from .queries import Queries, Transaction

OFF = "off"
LENGTHS = ("week", "month", "quarter")
# Rated matches in the season to be on its board (players and pairs alike).
SEASON_MIN = 3
PODIUM = 3


def season_period(length: str, when: datetime) -> str:
    """The period key of the season of ``length`` that ``when`` falls in."""
    month, week = period_keys(when.astimezone(UTC))
    if length == "week":
        return week
    if length == "month":
        return month
    if length == "quarter":
        return quarter_key(when.astimezone(UTC))
    raise ValueError(f"no such season length: {length}")


def season_start(length: str, when: datetime) -> datetime:
    """The first moment (UTC) of the season of ``length`` that ``when`` falls in."""
    day = when.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if length == "week":
        return day - timedelta(days=day.weekday())
    if length == "month":
        return day.replace(day=1)
    if length == "quarter":
        return day.replace(day=1, month=3 * ((day.month - 1) // 3) + 1)
    raise ValueError(f"no such season length: {length}")


def season_end(length: str, when: datetime) -> datetime:
    """The first moment after the season of ``length`` that ``when`` falls in."""
    start = season_start(length, when)
    if length == "week":
        return start + timedelta(days=7)
    months = 1 if length == "month" else 3
    month = start.month - 1 + months
    return start.replace(year=start.year + month // 12, month=month % 12 + 1)


@dataclass(frozen=True, slots=True)
class SeasonRow:
    guild_id: int
    number: int
    length: str
    period: str
    started_at: str
    ended_at: str | None
    posted: bool


@dataclass(frozen=True, slots=True)
class PodiumRow:
    variant: str
    place: int
    user_id: int
    gain: float
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class PairPodiumRow:
    """One of a variant's three first pairs: ``user_id`` the lower of the two ids."""

    variant: str
    place: int
    user_id: int
    partner_id: int
    gain: float
    matches: int
    wins: int


def _season(r: Any) -> SeasonRow:
    return SeasonRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]))


_COLUMNS = "guild_id, number, length, period, started_at, ended_at, posted"


async def _podium_rows(tx: Transaction, guild_id: int, period: str, kind: int = PLAYER
                       ) -> list[tuple[Any, ...]]:
    """(variant, place, user, gain, matches, wins) of each variant's three first players;
    of ``kind`` PAIR, (variant, place, user, partner, gain, matches, wins) of its pairs."""
    rows = await tx.fetchall(
        "SELECT variant, user_id, partner_id, gain, matches, wins FROM period_skills"
        " WHERE guild_id = ? AND kind = ? AND period = ? AND matches >= ?"
        " ORDER BY variant, gain DESC, user_id, partner_id",
        (guild_id, kind, period, SEASON_MIN))
    out: list[tuple[Any, ...]] = []
    places: dict[str, int] = {}
    for variant, user, partner, gain, matches, wins in rows:
        place = places[variant] = places.get(variant, 0) + 1
        if place <= PODIUM:
            who = (user,) if kind == PLAYER else (user, partner)
            out.append((variant, place, *who, gain, matches, wins))
    return out


async def _write_podium(tx: Transaction, guild_id: int, number: int, period: str) -> None:
    """The season's podiums, the players' and the pairs' (migration 0025)."""
    for table in ("season_podiums", "season_pair_podiums"):
        await tx.execute(f"DELETE FROM {table} WHERE guild_id = ? AND number = ?",
                         (guild_id, number))
    await tx.executemany(
        "INSERT INTO season_podiums (guild_id, number, variant, place, user_id, gain, matches,"
        " wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(guild_id, number, *row) for row in await _podium_rows(tx, guild_id, period)])
    await tx.executemany(
        "INSERT INTO season_pair_podiums (guild_id, number, variant, place, user_id,"
        " partner_id, gain, matches, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(guild_id, number, *row) for row in await _podium_rows(tx, guild_id, period, PAIR)])


async def rebuild_podiums(tx: Transaction) -> None:
    """Every ended season's podium again, from period_skills as the rebuild left them."""
    for guild_id, number, period in await tx.fetchall(
            "SELECT guild_id, number, period FROM seasons WHERE ended_at IS NOT NULL"):
        await _write_podium(tx, guild_id, number, period)


class SeasonRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    # ---- the seasons -----------------------------------------------------------------------
    async def running(self, guild_id: int) -> SeasonRow | None:
        row = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
            (guild_id,))
        return _season(row) if row is not None else None

    async def get(self, guild_id: int, number: int) -> SeasonRow | None:
        row = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND number = ?",
            (guild_id, number))
        return _season(row) if row is not None else None

    async def ended(self, guild_id: int, limit: int = 10) -> list[SeasonRow]:
        """The server's ended seasons, newest first."""
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NOT NULL"
            " ORDER BY number DESC LIMIT ?", (guild_id, limit))
        return [_season(r) for r in rows]

    async def start(self, guild_id: int, length: str, now: datetime) -> SeasonRow:
        """Open the server's next season, the one of ``length`` ``now`` falls in."""
        async with self.db.transaction() as tx:
            return await self._start_in(tx, guild_id, length, now)

    async def _start_in(self, tx: Transaction, guild_id: int, length: str,
                        now: datetime) -> SeasonRow:
        row = await tx.fetchone("SELECT COALESCE(MAX(number), 0) FROM seasons"
                                " WHERE guild_id = ?", (guild_id,))
        number = int(row[0] if row is not None else 0) + 1
        season = SeasonRow(guild_id, number, length, season_period(length, now),
                           iso(season_start(length, now)), None, False)
        await tx.execute(
            # Nothing when another opened it meanwhile (one running season per server).
            f"INSERT INTO seasons ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, NULL, 0)"
            " ON CONFLICT DO NOTHING",
            (guild_id, number, length, season.period, season.started_at))
        return season

    async def end(self, season: SeasonRow, next_length: str | None, now: datetime
                  ) -> SeasonRow | None:
        """End the running ``season`` (at its natural end), keep its podium, and open the next
        one of ``next_length`` (None: seasons are off now), in one transaction. Returns the
        ended season, or None when it was not running any more (ended already)."""
        async with self.db.transaction() as tx:
            still = await tx.fetchone(
                "SELECT 1 FROM seasons WHERE guild_id = ? AND number = ? AND ended_at IS NULL",
                (season.guild_id, season.number))
            if still is None:
                return None
            ended_at = iso(season_end(season.length, datetime.fromisoformat(
                season.started_at.replace("Z", "+00:00"))))
            await tx.execute("UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ?",
                             (ended_at, season.guild_id, season.number))
            await _write_podium(tx, season.guild_id, season.number, season.period)
            if next_length is not None:
                await self._start_in(tx, season.guild_id, next_length, now)
        return SeasonRow(season.guild_id, season.number, season.length, season.period,
                         season.started_at, ended_at, False)

    async def unposted(self, guild_id: int) -> list[SeasonRow]:
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NOT NULL"
            " AND posted = 0 ORDER BY number", (guild_id,))
        return [_season(r) for r in rows]

    async def mark_posted(self, guild_id: int, number: int) -> None:
        await self.db.write("UPDATE seasons SET posted = 1 WHERE guild_id = ? AND number = ?",
                            (guild_id, number))

    async def podiums(self, guild_id: int, numbers: list[int]) -> dict[int, list[PodiumRow]]:
        """Each season's podium rows, by variant then place."""
        out: dict[int, list[PodiumRow]] = {n: [] for n in numbers}
        if not numbers:
            return out
        rows = await self.db.fetchall(
            "SELECT number, variant, place, user_id, gain, matches, wins FROM season_podiums"
            f" WHERE guild_id = ? AND number IN ({','.join('?' * len(numbers))})"
            " ORDER BY number, variant, place", (guild_id, *numbers))
        for r in rows:
            out[r[0]].append(PodiumRow(r[1], r[2], r[3], r[4], r[5], r[6]))
        return out

    async def pair_podiums(self, guild_id: int, numbers: list[int]
                           ) -> dict[int, list[PairPodiumRow]]:
        """Each season's pairs' podium rows, by variant then place."""
        out: dict[int, list[PairPodiumRow]] = {n: [] for n in numbers}
        if not numbers:
            return out
        rows = await self.db.fetchall(
            "SELECT number, variant, place, user_id, partner_id, gain, matches, wins"
            " FROM season_pair_podiums"
            f" WHERE guild_id = ? AND number IN ({','.join('?' * len(numbers))})"
            " ORDER BY number, variant, place", (guild_id, *numbers))
        for r in rows:
            out[r[0]].append(PairPodiumRow(r[1], r[2], r[3], r[4], r[5], r[6], r[7]))
        return out

    # ---- a season's board ------------------------------------------------------------------
    async def board(self, guild_id: int, variant: str, period: str, limit: int = 10,
                    offset: int = 0, pairs: bool = False) -> list[RatingRow]:
        rows = await self.db.fetchall(
            "SELECT user_id, gain, matches, wins, partner_id FROM period_skills"
            " WHERE guild_id = ? AND variant = ? AND kind = ? AND period = ? AND matches >= ?"
            " ORDER BY gain DESC, user_id, partner_id LIMIT ? OFFSET ?",
            (guild_id, variant, PAIR if pairs else PLAYER, period, SEASON_MIN, limit, offset))
        return [RatingRow(r[0], r[1], r[2], r[3], r[4], offset + i + 1)
                for i, r in enumerate(rows)]

    async def board_size(self, guild_id: int, variant: str, period: str,
                         pairs: bool = False) -> int:
        row = await self.db.fetchone(
            "SELECT COUNT(*) FROM period_skills WHERE guild_id = ? AND variant = ?"
            " AND kind = ? AND period = ? AND matches >= ?",
            (guild_id, variant, PAIR if pairs else PLAYER, period, SEASON_MIN))
        return int(row[0]) if row is not None else 0

    async def rank_of(self, guild_id: int, variant: str, period: str, user_id: int,
                      pairs: bool = False) -> RatingRow | None:
        """The user's line on the season's board (their best pair's), with its rank; None
        when they are not ranked (fewer than SEASON_MIN rated matches)."""
        kind = PAIR if pairs else PLAYER
        args = (guild_id, variant, kind, period, SEASON_MIN)
        where = "guild_id = ? AND variant = ? AND kind = ? AND period = ? AND matches >= ?"
        row = await self.db.fetchone(
            "SELECT user_id, gain, matches, wins, partner_id FROM period_skills"
            f" WHERE {where} AND (user_id = ? OR (kind = 1 AND partner_id = ?))"
            " ORDER BY gain DESC, user_id, partner_id LIMIT 1", (*args, user_id, user_id))
        if row is None:
            return None
        above = await self.db.fetchone(
            f"SELECT COUNT(*) FROM period_skills WHERE {where} AND (gain > ? OR (gain = ?"
            " AND (user_id < ? OR (user_id = ? AND partner_id < ?))))",
            (*args, row[1], row[1], row[0], row[0], row[4]))
        assert above is not None
        return RatingRow(row[0], row[1], row[2], row[3], row[4], int(above[0]) + 1)
