"""Each server's seasons: the running one opened when due, ended when its time is over.

A server's season length is its ``season_length`` setting (off, week, month, quarter; UTC).
A change of length applies from the next season: the running one keeps its own to its end.
Turned off, the running season still ends (with its podium) and no new one opens. The end of
a season and its podium are one transaction (db/seasons.py); what Discord is told (the podium
post, the champions' role) is cogs/seasons.py's, from the ended seasons not posted yet, so a
restart across a season's end posts it once, late.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from db.seasons import OFF, SeasonRow, season_period

from .guild_settings import GuildSettingsStore

if TYPE_CHECKING:
    from db import Database

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
CURRENT, LAST = "current", "last"


def utc_now() -> datetime:
    return datetime.now(UTC)


class SeasonKeeper:
    def __init__(self, db: Database, settings: GuildSettingsStore,
                 clock: Clock | None = None) -> None:
        self.repo = db.seasons
        self.settings = settings
        # Tests inject theirs (or replace utc_now before the bot starts: the first check
        # runs as soon as the bot is ready).
        self.clock: Clock = clock or (lambda: utc_now())
        # Each server found with nothing to do at its last roll: (its season_length then, the
        # running season's length and period, or None). While the setting is the same and
        # now falls in that period, nothing can be due (only a roll ends or opens a season),
        # so the minute's check asks the database nothing.
        self._quiet: dict[int, tuple[str, SeasonRow | None]] = {}

    async def roll(self, guild_id: int) -> list[SeasonRow]:
        """The server's seasons brought up to now: the running one ended if its time is over
        (the next one opened, unless seasons are off), one opened if due. Returns the ended
        seasons whose post has not gone out yet, oldest first."""
        now = self.clock()
        length = (await self.settings.get(guild_id)).season_length
        quiet = self._quiet.get(guild_id)
        if quiet is not None and quiet[0] == length and (
                quiet[1] is None or season_period(quiet[1].length, now) == quiet[1].period):
            return []
        self._quiet.pop(guild_id, None)
        running = await self.repo.running(guild_id)
        due = False
        if running is None:
            if length != OFF:
                await self.repo.start(guild_id, length, now)
                due = True
        elif season_period(running.length, now) != running.period:
            due = True
            ended = await self.repo.end(running, None if length == OFF else length, now)
            if ended is not None:
                log.info("server %s: season %s (%s) ended", guild_id, ended.number,
                         ended.period)
        unposted = await self.repo.unposted(guild_id)
        if not due and not unposted:
            self._quiet[guild_id] = (length, running)
        return unposted

    async def find(self, guild_id: int, which: str | None) -> SeasonRow | None:
        """The season ``which`` names: this one (``current`` or None), the last one ended
        (``last``), or a number; None if there is no such season."""
        await self.roll(guild_id)
        if which is None or which == CURRENT:
            return await self.repo.running(guild_id)
        if which == LAST:
            ended = await self.repo.ended(guild_id, 1)
            return ended[0] if ended else None
        if which.isdigit():
            return await self.repo.get(guild_id, int(which))
        return None
