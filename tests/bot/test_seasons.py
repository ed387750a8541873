"""The seasons' minute check (service/seasons.py): a server with nothing due costs no query, and
what is due (a season's end, a season to open, an unposted podium) is never missed for it."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from db import Database
from service.guild_settings import GuildSettingsStore
from service.seasons import SeasonKeeper
from tests.clocks import DateClock

GUILD = 10
NOVEMBER = datetime(2026, 11, 20, 12, tzinfo=UTC)


def counted(keeper: SeasonKeeper) -> Counter[str]:
    """Count the calls the keeper makes to its repository."""
    calls: Counter[str] = Counter()
    repo = keeper.repo
    for name in ("running", "start", "end", "unposted"):
        real = getattr(repo, name)

        async def call(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] += 1
            return await _real(*args)

        setattr(repo, name, call)
    return calls


async def test_a_quiet_minute_asks_nothing_and_a_season_s_end_is_still_caught(
        db: Database) -> None:
    settings = GuildSettingsStore(db)
    clock = DateClock(NOVEMBER)
    keeper = SeasonKeeper(db, settings, clock)
    calls = counted(keeper)
    assert await keeper.roll(GUILD) == []  # the first season opens (month, the default)
    assert calls["start"] == 1
    await keeper.roll(GUILD)  # nothing due: found out with queries, once
    calls.clear()
    for minute in range(1, 60):
        clock.now = NOVEMBER + timedelta(minutes=minute)
        assert await keeper.roll(GUILD) == []
    assert sum(calls.values()) == 0, calls
    # December: November's season ends at the first minute past it, and its post is due
    # until it is marked posted.
    clock.now = datetime(2026, 12, 1, 0, 1, tzinfo=UTC)
    ended = await keeper.roll(GUILD)
    assert [(s.number, s.period) for s in ended] == [(1, "2026-11")]
    assert [s.number for s in await keeper.roll(GUILD)] == [1]
    await keeper.repo.mark_posted(GUILD, 1)
    assert await keeper.roll(GUILD) == []
    running = await keeper.repo.running(GUILD)
    assert running is not None and (running.number, running.period) == (2, "2026-12")


async def test_a_change_of_length_is_noticed_at_the_next_check(db: Database) -> None:
    settings = GuildSettingsStore(db)
    clock = DateClock(NOVEMBER)
    keeper = SeasonKeeper(db, settings, clock)
    await settings.change(GUILD, {"season_length": "off"})
    assert await keeper.roll(GUILD) == [] and await keeper.repo.running(GUILD) is None
    await keeper.roll(GUILD)
    await settings.change(GUILD, {"season_length": "week"})
    await keeper.roll(GUILD)
    running = await keeper.repo.running(GUILD)
    assert running is not None and running.length == "week"
