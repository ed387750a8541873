"""What the stats commands read about finished matches: boards, stats, history and replays.

The cogs ask here and never reach into the database; nothing here writes (a match is recorded
by the table service when it ends, in the same transaction as its closing).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from db import Database
from db.log import to_record
from db.results import MatchRow, Period, PlayerStats, RatingRow
from game.match import Match
from game.record import ReplayError, replay

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished match as its game record, replayed, with the names its players sat under."""

    row: MatchRow
    record: dict[str, Any]
    match: Match
    players: list[str]


class Records:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._seasons = db.seasons

    async def board(self, guild_id: int, variant: str, limit: int, offset: int,
                    period: Period | str = Period.ALL, pairs: bool = False) -> list[RatingRow]:
        """A page of a board, best first."""
        return await self._db.results.leaderboard(guild_id, variant, limit, offset, period,
                                                  pairs)

    async def board_size(self, guild_id: int, variant: str, period: Period | str = Period.ALL,
                         pairs: bool = False) -> int:
        return await self._db.results.board_size(guild_id, variant, period, pairs)

    async def rank_of(self, guild_id: int, variant: str, user_id: int,
                      period: Period | str = Period.ALL, pairs: bool = False) -> RatingRow | None:
        return await self._db.results.rank_of(guild_id, variant, user_id, period, pairs)

    async def stats(self, guild_id: int, user_id: int, variant: str | None = None
                    ) -> PlayerStats:
        return await self._db.results.stats(guild_id, user_id, variant)

    async def rating_history(self, guild_id: int, variant: str, user_id: int) -> list[float]:
        return await self._db.results.rating_history(guild_id, variant, user_id)

    async def history(self, guild_id: int, user_id: int, limit: int) -> list[MatchRow]:
        return await self._db.results.history(guild_id, user_id, limit)

    async def season_period(self, guild_id: int, number: int) -> str | None:
        """The period key of this server's season ``number``, or None (no such season)."""
        season = await self._seasons.get(guild_id, number)
        return season.period if season is not None else None

    async def seasons(self, guild_id: int) -> list[int]:
        """The numbers of this server's running season and of the last ten ended, newest
        first."""
        running = await self._seasons.running(guild_id)
        ended = [s.number for s in await self._seasons.ended(guild_id)]
        return ([running.number] if running is not None else []) + \
            [n for n in ended if running is None or n != running.number]

    async def season_board(self, guild_id: int, variant: str, period: str, limit: int,
                           offset: int, pairs: bool = False) -> list[RatingRow]:
        """A page of a season's board (its gains, from SEASON_MIN rated matches), best first."""
        return await self._seasons.board(guild_id, variant, period, limit, offset, pairs)

    async def season_board_size(self, guild_id: int, variant: str, period: str,
                                pairs: bool = False) -> int:
        return await self._seasons.board_size(guild_id, variant, period, pairs)

    async def names(self, user_ids: list[int]) -> dict[int, str]:
        """The name each user last sat under."""
        return await self._db.tables.names(user_ids)

    async def replay(self, guild_id: int, table_id: int) -> Replay | None:
        """A finished match of this server, or None (not one, or its record does not replay)."""
        row = await self._db.results.match(guild_id, table_id)
        if row is None:
            return None
        # The rest asked at once (a match of this server only): the database answers them one
        # after the other without waiting for each to be read back here.
        table, seat_rows, entries = await asyncio.gather(
            self._db.tables.get(table_id), self._db.tables.seats(table_id),
            self._db.log.entries(table_id))
        if table is None:
            return None
        seats = {s.seat: s for s in seat_rows}
        players = [seats[i].name if i in seats else str(i) for i in range(4)]
        record = to_record(row.variant, table.options, players, entries)
        try:
            match = replay(record)
        except ReplayError:
            log.exception("match #%s: its record does not replay", table_id)
            return None
        return Replay(row, record, match, players)
