"""db/analyses.py on each backend: a match's analysis asked once, its deals stored once with
the count done, the unfinished ones found after a restart, a failure asked again, and what a
member's cards cost summed over their analysed matches."""

from __future__ import annotations

from db import Database
from db.analyses import DONE, FAILED, QUEUED, RUNNING, AnalysedStats, PlayerCost


async def test_asked_stored_resumed_failed_and_summed(db: Database) -> None:
    repo = db.analyses
    first = await repo.ask(7, 10, "2026-12-01T10:00")
    assert (first.state, first.done, first.starts) == (QUEUED, 0, 0)
    await repo.ask(8, 10, "2026-12-01T10:01")
    again = await repo.ask(7, 10, "2026-12-01T10:02")  # no second row, its turn kept
    assert again.state == QUEUED
    assert [r.table_id for r in await repo.unfinished()] == [7, 8]
    running = await repo.start(7, 2)
    assert (running.state, running.deals, running.starts) == (RUNNING, 2, 1)
    assert await repo.store_deal(7, 0, {"deal": 0, "decisions": []}) == 1
    assert await repo.store_deal(7, 0, {"deal": 0, "other": True}) == 1  # stored once
    assert await repo.stored_deals(7) == {0: {"deal": 0, "decisions": []}}
    assert await repo.store_deal(7, 1, {"deal": 1}) == 2
    costs = [PlayerCost(0, 5, 10, 8, 30, 12), PlayerCost(1, 0, 9, 9, 0, 0)]
    await repo.finish(7, 10, "classic", costs, "2026-12-01T10:05")
    assert (await repo.get(7)).state == DONE  # type: ignore[union-attr]
    assert await repo.players(7) == costs
    assert [r.table_id for r in await repo.unfinished()] == [8]
    await repo.fail(8, "the worker died", "2026-12-01T10:06")
    failed = await repo.get(8)
    assert failed is not None and (failed.state, failed.error) == (FAILED, "the worker died")
    retried = await repo.ask(8, 10, "2026-12-01T10:07")  # asked again: queued anew
    assert (retried.state, retried.error, retried.starts) == (QUEUED, None, 0)
    await repo.start(8, 1)
    await repo.finish(8, 10, "classic", [PlayerCost(2, 5, 6, 3, 10, 4)], "t")
    assert await repo.member_stats(10, 5, "classic") == AnalysedStats(2, 16, 11, 40, 16)
    assert await repo.member_stats(10, 5, "coinche") == AnalysedStats(0, 0, 0, 0, 0)
    assert await repo.member_stats(11, 5, "classic") == AnalysedStats(0, 0, 0, 0, 0)
