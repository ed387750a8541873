"""The tournaments' storage (migration 0008, db/tournaments.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from db.connection import Database
from db.tournaments import COMPUTER, LEFT, EntrantRow, TableDrawRow, TournamentRepo


@pytest.fixture
async def repo(database_target: str) -> AsyncIterator[TournamentRepo]:
    database = await Database.open(database_target)  # on SQLite and on PostgreSQL
    yield database.tournaments
    await database.close()


async def test_a_tournament_its_entrants_rounds_and_tables_are_kept(
        repo: TournamentRepo) -> None:
    t = await repo.create(guild_id=1, channel_id=2, host_id=3, format="quick",
                          variant="bulgarian", seed=42, starts_at=None)
    assert (t.stage, t.starts_at, t.entry_fee, t.seed) == ("sign_up", None, 0, 42)
    await repo.set_message(t.id, 99)
    for user in (10, 11, 12):
        await repo.add_entrant(t.id, user)
    await repo.set_entrant_status(t.id, [11], LEFT)
    await repo.set_entrant_status(t.id, [12], COMPUTER)
    assert await repo.entrants(t.id) == [EntrantRow(10, 1, "in"), EntrantRow(11, 2, LEFT),
                                         EntrantRow(12, 3, COMPUTER)]
    await repo.add_round(t.id, 1, [(1, 2, 3, 4), (5, 6, 7, 8)], stage="running")
    await repo.link_table(t.id, 1, 1, table_id=77)
    await repo.set_thread(77, 555)
    assert await repo.of_table(77) == (t.id, 1, 1)
    assert await repo.of_table(78) is None
    assert await repo.record_winner(t.id, 1, 1, 0)
    assert not await repo.record_winner(t.id, 1, 1, 1)  # a repeated event changes nothing
    assert await repo.tables(t.id) == [
        TableDrawRow(1, 0, (1, 2, 3, 4), None, None, None),
        TableDrawRow(1, 1, (5, 6, 7, 8), 77, 555, 0)]
    row = await repo.get(t.id)
    assert row is not None and (row.stage, row.message_id) == ("running", 99)
    assert [r.id for r in await repo.unfinished()] == [t.id]


async def test_the_finals_result_ends_the_tournament_in_the_same_write(
        repo: TournamentRepo) -> None:
    t = await repo.create(guild_id=1, channel_id=2, host_id=3, format="quick",
                          variant="classic", seed=1, starts_at="2026-11-23T20:00:00Z")
    await repo.add_round(t.id, 2, [(1, 2, 3, 4)], stage="running")
    await repo.record_winner(t.id, 2, 0, 1, finished=True)
    row = await repo.get(t.id)
    assert row is not None and row.stage == "finished"
    assert await repo.unfinished() == []


async def test_an_entrant_signs_up_once(repo: TournamentRepo) -> None:
    t = await repo.create(guild_id=1, channel_id=2, host_id=3, format="quick",
                          variant="bulgarian", seed=1, starts_at=None)
    await repo.add_entrant(t.id, 10)
    with pytest.raises(Exception):  # noqa: B017 - the primary key refuses it
        await repo.add_entrant(t.id, 10)
    assert len(await repo.entrants(t.id)) == 1
