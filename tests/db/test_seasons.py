"""db/seasons.py on each backend: a season opened once, ended once with its podium (three
places a variant, from the minimum of rated matches), the next one opened, the boards."""

from __future__ import annotations

from datetime import UTC, datetime

from db import Database
from db.results import MatchPlayer
from db.seasons import season_end, season_period, season_start

NOV = datetime(2026, 11, 10, 12, tzinfo=UTC)


def test_season_periods_and_bounds() -> None:
    sunday = datetime(2026, 11, 22, 23, 59, tzinfo=UTC)
    assert season_period("week", sunday) == "2026-W47"
    assert season_start("week", sunday) == datetime(2026, 11, 16, tzinfo=UTC)
    assert season_end("week", sunday) == datetime(2026, 11, 23, tzinfo=UTC)
    assert season_period("month", NOV) == "2026-11"
    assert season_end("month", datetime(2026, 12, 31, tzinfo=UTC)) == \
        datetime(2027, 1, 1, tzinfo=UTC)
    assert season_period("quarter", NOV) == "2026-Q4"
    assert season_start("quarter", NOV) == datetime(2026, 10, 1, tzinfo=UTC)
    assert season_end("quarter", NOV) == datetime(2027, 1, 1, tzinfo=UTC)


async def test_a_season_ends_once_with_its_podium(db: Database) -> None:
    repo = db.seasons
    await repo.start(10, "month", NOV)
    await repo.start(10, "month", NOV)  # a second opening changes nothing
    running = await repo.running(10)
    assert running is not None and running.number == 1 and running.period == "2026-11"
    db.results.clock = lambda: NOV
    for n in range(3):
        await db.results.record_match(
            table_id=100 + n, guild_id=10, variant="classic", winner=0, totals=(1001, 400),
            deals=6, players=[MatchPlayer(s, 1 + s, None) for s in range(4)])
    await db.results.record_match(
        table_id=200, guild_id=10, variant="classic", winner=0, totals=(1001, 400), deals=6,
        players=[MatchPlayer(s, 5 + s, None) for s in range(4)])  # one match: not ranked
    board = await repo.board(10, "classic", "2026-11")
    assert [r.user_id for r in board][:2] in ([1, 3], [3, 1]) and len(board) == 4
    assert await repo.board_size(10, "classic", "2026-11", pairs=True) == 2
    assert await repo.rank_of(10, "classic", "2026-11", 5) is None
    mine = await repo.rank_of(10, "classic", "2026-11", 2)
    assert mine is not None and mine.rank in (3, 4) and mine.rating < 0
    december = datetime(2026, 12, 1, 0, 1, tzinfo=UTC)
    ended = await repo.end(running, "week", december)
    assert ended is not None and ended.ended_at == "2026-12-01T00:00:00.000Z"
    assert await repo.end(running, "week", december) is None  # ended already: not twice
    podium = (await repo.podiums(10, [1]))[1]
    assert [p.place for p in podium] == [1, 2, 3] and {podium[0].user_id, podium[1].user_id} == {
        1, 3}
    # The pairs' podium: 1 & 3 won their three together, 2 & 4 lost theirs; 5 & 7 and
    # 6 & 8 played one match: not ranked.
    pair_podium = (await repo.pair_podiums(10, [1]))[1]
    assert [(p.place, p.user_id, p.partner_id, p.matches, p.wins) for p in pair_podium] == [
        (1, 1, 3, 3, 3), (2, 2, 4, 3, 0)]
    assert pair_podium[0].gain > 0 > pair_podium[1].gain
    nxt = await repo.running(10)
    assert nxt is not None and (nxt.number, nxt.length, nxt.period) == (2, "week", "2026-W49")
    assert [s.number for s in await repo.unposted(10)] == [1]
    await repo.mark_posted(10, 1)
    assert await repo.unposted(10) == []
    assert [s.number for s in await repo.ended(10)] == [1]
