"""Matches in detail and OpenSkill ratings: who moves and which way, computers, leavers,
pairs, pages, periods, stats, history, the rebuild, and the Elo data carried over (0004)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from db import Database, MatchPlayer
from db.migrate import _statements, migration_files
from db.rebuild import rebuild_ratings
from db.results import PAIR_MIN, Ending
from game.tally import Tally
from tests.clocks import DateClock

GUILD = 10
T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)  # a Monday


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    database.results.clock = DateClock(T0)
    yield database
    await database.close()


def people(*users: int | None) -> list[MatchPlayer]:
    return [MatchPlayer(seat, u, "easy" if u is None else None) for seat, u in enumerate(users)]


async def play(db: Database, players: Sequence[MatchPlayer], winner: int | None,
               *, variant: str = "classic", tally: Tally | None = None,
               ending: Ending = Ending.PLAYED, left: Sequence[int] = ()
               ) -> dict[int, tuple[float, float]]:
    t = await db.tables.create(guild_id=GUILD, channel_id=20, host_id=1, variant=variant,
                               options={"target": 1}, private=False, seed=7)
    return await db.results.record_match(
        table_id=t.id, guild_id=GUILD, variant=variant, winner=winner,
        totals=(1010, 420) if winner == 0 else (420, 1010), deals=5, players=list(players),
        tally=tally, ending=ending, left=left)


async def test_winners_go_up_and_losers_down_and_the_board_ranks_them(db: Database) -> None:
    moved = await play(db, people(1, 2, 3, 4), 0)
    assert moved[1][1] > moved[1][0] and moved[3][1] > moved[3][0]
    assert moved[2][1] < moved[2][0] and moved[4][1] < moved[4][0]
    await play(db, people(1, 2, 3, 4), 0)
    board = await db.results.leaderboard(GUILD, "classic")
    assert [r.user_id for r in board] == [1, 3, 2, 4]
    assert [r.rank for r in board] == [1, 2, 3, 4]
    assert (board[0].matches, board[0].wins, board[3].wins) == (2, 2, 0)
    # Pairs join their board after PAIR_MIN rated matches together.
    assert await db.results.leaderboard(GUILD, "classic", pairs=True) == []
    for _ in range(PAIR_MIN - 2):
        await play(db, people(1, 2, 3, 4), 0)
    pairs = await db.results.leaderboard(GUILD, "classic", pairs=True)
    assert [(r.user_id, r.partner_id) for r in pairs] == [(1, 3), (2, 4)]
    assert pairs[0].rating > pairs[1].rating
    mine = await db.results.rank_of(GUILD, "classic", 4, pairs=True)
    assert mine is not None and (mine.rank, mine.user_id, mine.partner_id) == (2, 2, 4)


async def test_one_lucky_newcomer_does_not_top_a_steady_winner(db: Database) -> None:
    for _ in range(8):
        await play(db, people(1, 2, 3, 4), 0)
    await play(db, people(9, 2, 8, 4), 0)  # 9 wins once against the weakest
    board = [r.user_id for r in await db.results.leaderboard(GUILD, "classic")]
    assert board.index(1) < board.index(9)


async def test_computers_are_recorded_and_counted_but_do_not_rate(db: Database) -> None:
    moved = await play(db, people(1, 2, 3, None), 0)
    assert moved == {}
    assert await db.results.leaderboard(GUILD, "classic") == []
    stats = await db.results.stats(GUILD, 1, "classic")
    assert (stats.matches, stats.wins, stats.rating) == (1, 1, None)
    [row] = await db.results.history(GUILD, 1)
    assert row.computers == 1 and not row.rated


async def test_a_leaver_loses_alone_even_when_their_team_wins(db: Database) -> None:
    moved = await play(db, people(1, 2, 3, 4), 0, left=[1])
    assert list(moved) == [1] and moved[1][1] < moved[1][0]
    board = await db.results.leaderboard(GUILD, "classic")
    assert [r.user_id for r in board] == [1]
    assert (board[0].matches, board[0].wins) == (1, 0)
    assert (await db.results.stats(GUILD, 1)).wins == 0
    assert (await db.results.stats(GUILD, 1)).left == 1
    assert (await db.results.stats(GUILD, 3)).wins == 1  # the partner still won the match
    assert await db.results.leaderboard(GUILD, "classic", pairs=True) == []


async def test_a_match_ended_by_a_moderator_is_kept_but_rates_nobody(db: Database) -> None:
    assert await play(db, people(1, 2, 3, 4), None, ending=Ending.ENDED) == {}
    [row] = await db.results.history(GUILD, 2)
    assert (row.ending, row.winner, row.rated) == ("ended", None, False)
    assert await db.results.leaderboard(GUILD, "classic") == []


async def test_pages_and_my_rank_off_the_page(db: Database) -> None:
    for base in (100, 200, 300):  # twelve players, three matches
        await play(db, people(base + 1, base + 2, base + 3, base + 4), 0)
    first = await db.results.leaderboard(GUILD, "classic", 10, 0)
    second = await db.results.leaderboard(GUILD, "classic", 10, 10)
    assert (len(first), len(second)) == (10, 2)
    assert await db.results.board_size(GUILD, "classic") == 12
    assert [r.rank for r in second] == [11, 12]
    assert {r.user_id for r in first} | {r.user_id for r in second} == \
        {b + i for b in (100, 200, 300) for i in (1, 2, 3, 4)}
    last = second[-1]
    mine = await db.results.rank_of(GUILD, "classic", last.user_id)
    assert mine is not None and (mine.rank, mine.rating) == (12, last.rating)
    assert await db.results.rank_of(GUILD, "classic", 999) is None


async def test_periods_count_this_month_or_week_only(db: Database) -> None:
    clock = db.results.clock
    assert isinstance(clock, DateClock)
    await play(db, people(1, 2, 3, 4), 0)  # Monday 23 November
    clock.now = T0 + timedelta(days=7)  # the next week, still November
    await play(db, people(5, 6, 7, 8), 0)
    week = await db.results.leaderboard(GUILD, "classic", period="week")
    month = await db.results.leaderboard(GUILD, "classic", period="month")
    assert {r.user_id for r in week} == {5, 6, 7, 8}
    assert {r.user_id for r in month} == {1, 2, 3, 4, 5, 6, 7, 8}
    assert week[0].rating > 0 > week[-1].rating  # gains this week
    clock.now = T0 + timedelta(days=10)  # December
    assert await db.results.leaderboard(GUILD, "classic", period="month") == []
    assert len(await db.results.leaderboard(GUILD, "classic", period="all")) == 8
    assert await db.results.board_size(GUILD, "classic", period="week") == 4


async def test_stats_count_contracts_sweeps_belotes_and_the_best_partner(db: Database) -> None:
    tally = Tally(taken=(2, 1, 0, 0), made=(1, 0, 0, 0), sweeps=(1, 0), belotes=(1, 0, 0, 0),
                  sheet=[{"score": [162, 0]}])
    await play(db, people(1, 2, 3, 4), 0, tally=tally)
    await play(db, people(1, 2, 3, 4), 0, tally=tally)
    await play(db, people(1, 3, 2, 4), 1)
    s = await db.results.stats(GUILD, 1, "classic")
    assert (s.matches, s.wins, s.taken, s.made, s.sweeps, s.belotes) == (3, 2, 4, 2, 2, 2)
    assert s.win_rate == pytest.approx(2 / 3)
    assert (s.best_partner, s.partner_wins, s.partner_matches) == (3, 2, 2)  # any pair counts
    assert s.rating is not None
    chart = await db.results.rating_history(GUILD, "classic", 1)
    assert chart[0] == 1000.0 and len(chart) == 4 and chart[-1] == s.rating
    assert chart[1] < chart[2]  # the second win raised it again
    assert await db.results.sheet((await db.results.history(GUILD, 1))[-1].seq) == \
        [{"score": [162, 0]}]


async def test_an_abandoned_matchs_leavers_lose_it_alone(db: Database) -> None:
    # Its idle player (marked a leaver by the sweeper) and whoever left before: each rated as
    # a loss of their team; the others, and the pairs, do not move (issue 48).
    moved = await play(db, people(1, 2, 3, 4), None, ending=Ending.ABANDONED, left=[2, 3])
    assert sorted(moved) == [2, 3] and all(after < before for before, after in moved.values())
    [row] = await db.results.history(GUILD, 2)
    assert (row.ending, row.winner, row.rated, row.left) == ("abandoned", None, True, (1, 2))
    assert [r.user_id for r in await db.results.leaderboard(GUILD, "classic")] == [2, 3]
    assert await db.results.skill(GUILD, "classic", 1) is None
    assert await db.results.leaderboard(GUILD, "classic", pairs=True) == []
    # Nobody left (nobody idle: never from the sweeper, but the rule holds) or a computer
    # sat: nobody moves.
    assert await play(db, people(5, 6, 7, 8), None, ending=Ending.ABANDONED) == {}
    assert await play(db, people(5, 6, 7, None), None, ending=Ending.ABANDONED,
                      left=[5]) == {}


async def test_a_rebuild_keeps_the_abandoned_matches_recorded_before_unrated(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    # Recorded under the rules before migration 0025 (an abandoned match moved nobody), then
    # under today's: a rebuild gives each the numbers it had, the old one still moving nobody.
    import db.results as results
    monkeypatch.setattr(results, "RATING_RULES", 1)
    assert await play(db, people(1, 2, 3, 4), None, ending=Ending.ABANDONED, left=[1]) == {}
    monkeypatch.undo()
    await play(db, people(1, 2, 3, 4), 0)
    assert list(await play(db, people(1, 2, 3, 4), None, ending=Ending.ABANDONED,
                           left=[4])) == [4]
    before = await snapshot(db)
    await db.execute("UPDATE skills SET mu = 0")
    assert await rebuild_ratings(db) == 2
    assert await snapshot(db) == before
    assert [r.rated for r in await db.results.history(GUILD, 1)] == [True, True, False]


async def snapshot(db: Database) -> list[list[tuple[Any, ...]]]:
    out = []
    for table in ("skills", "skill_history", "period_skills"):
        rows = await db.fetchall(f"SELECT * FROM {table} ORDER BY 1, 2, 3, 4, 5, 6")
        out.append([tuple(r) for r in rows])
    return out


async def test_a_rebuild_gives_the_same_ratings(db: Database) -> None:
    clock = db.results.clock
    assert isinstance(clock, DateClock)
    for i in range(12):
        clock.now = T0 + timedelta(days=3 * i)
        seats = [(1, 2, 3, 4), (1, 3, 2, 4), (5, 2, 1, 6), (1, 2, 3, None)][i % 4]
        await play(db, people(*seats), i % 2, left=[5] if i == 6 else [],
                   variant="coinche" if i % 3 == 0 else "classic")
    before = await snapshot(db)
    assert all(before)
    await db.execute("UPDATE skills SET mu = 0")  # as a changed model would leave them
    assert await rebuild_ratings(db) == 9
    assert await snapshot(db) == before


async def test_elo_results_are_carried_over_and_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT "
                "NULL, applied_at TEXT NOT NULL DEFAULT 'then')")
    for version, name, sql in migration_files()[:3]:
        for statement in _statements(sql):
            con.execute(statement)
        con.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                    (version, name))
    con.execute("INSERT INTO tables (id, guild_id, channel_id, host_id, variant, options, seed,"
                " status) VALUES (1, 10, 20, 1, 'classic', '{}', 3, 'finished')")
    con.execute("INSERT INTO results (table_id, guild_id, variant, winner_team, score0,"
                " score1, deals) VALUES (1, 10, 'classic', 0, 1001, 500, 6)")
    for seat in range(4):
        con.execute("INSERT INTO result_players (table_id, seat, user_id, team, won)"
                    " VALUES (1, ?, ?, ?, ?)", (seat, seat + 1, seat & 1, int(seat & 1 == 0)))
        con.execute("INSERT INTO ratings (guild_id, variant, user_id, rating, matches, wins)"
                    " VALUES (10, 'classic', ?, ?, 1, ?)",
                    (seat + 1, 1516.0 if seat & 1 == 0 else 1484.0, int(seat & 1 == 0)))
    con.commit()
    con.close()
    db = await Database.open(path)
    try:
        board = await db.results.leaderboard(10, "classic")
        assert [r.user_id for r in board] == [1, 3, 2, 4]  # the Elo order, kept
        old = await db.fetchall("SELECT rating FROM ratings")  # still readable
        assert len(old) == 4
        assert await db.results.winner_of(1) == 0
        assert await rebuild_ratings(db) == 1
        board = await db.results.leaderboard(10, "classic")
        assert [r.user_id for r in board] == [1, 3, 2, 4]
        assert (await db.results.stats(10, 1, "classic")).wins == 1
    finally:
        await db.close()


async def pairs_board(db: Database) -> list[tuple[int, int, int, int]]:
    rows = await db.results.leaderboard(GUILD, "classic", 10, 0, pairs=True)
    return [(r.user_id, r.partner_id, r.matches, r.rank) for r in rows]


async def test_the_pairs_board_reads_the_same_after_the_upgrade_to_its_new_index(
        tmp_path: Path) -> None:
    # A server whose pairs board was filled under migration 0004's index: after the upgrade
    # (0010 replaces the index), the same pairs, the same order, the same ranks.
    path = tmp_path / "pairs.sqlite3"
    db = await Database.open(path)
    db.results.clock = DateClock(T0)
    for n in range(PAIR_MIN):
        await play(db, people(1, 2, 3, 4), n % 2)
        await play(db, people(5, 6, 7, 8), 0)
    before = await pairs_board(db)
    mine = await db.results.rank_of(GUILD, "classic", 7, pairs=True)
    await db.close()
    assert len(before) == 4 and before[0][:2] == (5, 7)  # the pair that always won
    assert mine is not None and mine.rank == 1
    con = sqlite3.connect(path)  # back to the database as it was before 0010
    con.execute("DROP INDEX skills_pairs_page")
    con.execute("CREATE INDEX skills_pairs_board ON skills (guild_id, variant, score DESC,"
                " user_id, partner_id) WHERE kind = 1 AND matches >= 5")
    con.execute("DELETE FROM schema_migrations WHERE version = 10")
    con.commit()
    con.close()
    db = await Database.open(path)
    db.results.clock = DateClock(T0)
    try:
        assert await pairs_board(db) == before
        assert await db.results.board_size(GUILD, "classic", pairs=True) == 4
        assert await db.results.rank_of(GUILD, "classic", 7, pairs=True) == mine
        plan = await db.fetchall(
            "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM skills INDEXED BY skills_pairs_page"
            f" WHERE guild_id = ? AND variant = ? AND kind = 1 AND matches >= {PAIR_MIN}",
            (GUILD, "classic"))
        assert "COVERING INDEX" in " ".join(str(r[3]) for r in plan)  # reads no row
    finally:
        await db.close()
