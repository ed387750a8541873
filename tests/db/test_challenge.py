"""db/challenge.py on each backend: one try a day per member, board and variant; a try scored
once; the board best first; streaks of days in a row; a day's board posted once."""

from __future__ import annotations

from db import Database
from db.challenge import WORLD


async def test_tries_boards_streaks_and_posts(db: Database) -> None:
    repo = db.challenge
    assert await repo.claim(10, "2026-12-01", "classic", 1, 10, "t")
    assert not await repo.claim(10, "2026-12-01", "classic", 1, 10, "t")  # one a day
    assert await repo.claim(WORLD, "2026-12-01", "classic", 1, 10, "t")  # the world's: apart
    assert await repo.claim(10, "2026-12-01", "classic", 2, 10, "t")
    await repo.give_back(10, "2026-12-01", "classic", 2)  # its table did not open
    assert await repo.claim(10, "2026-12-01", "classic", 2, 10, "t")
    await repo.link(10, "2026-12-01", "classic", 1, 501)
    await repo.link(10, "2026-12-01", "classic", 2, 502)
    assert await repo.score(502, 300, 120, "t2")
    assert not await repo.score(502, 10, 10, "t3")  # scored once
    board = await repo.board(10, "2026-12-01", "classic")
    assert [(r.user_id, r.score) for r in board] == [(2, 300), (1, None)]
    for day in ("2026-11-29", "2026-11-30"):
        assert await repo.claim(10, day, "classic", 2, 10, "t")
    assert await repo.claim(10, "2026-11-28", "classic", 1, 10, "t")
    assert await repo.streaks(10, [1, 2], "2026-12-01") == {1: 1, 2: 3}
    assert await repo.days_to_post(10, "2026-12-01") == ["2026-11-28", "2026-11-29",
                                                         "2026-11-30"]
    await repo.mark_posted(10, "2026-11-28")
    await repo.mark_posted(10, "2026-11-28")
    assert await repo.days_to_post(10, "2026-12-02") == ["2026-11-29", "2026-11-30",
                                                         "2026-12-01"]
