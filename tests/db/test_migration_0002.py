"""Migration 0002: turn timers, table computer levels, timed-out seats and saved choices; a
database made by the first version upgrades in place and keeps its tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from db import ChoiceRow, Database, SeatRow
from db.migrate import migration_files

from .old_databases import database_at


def first_version_database(path: Path) -> None:
    """A database as the bot left it before migration 0002, with one table and a seat."""
    assert migration_files()[0][0] == 1
    database_at(path, 1)


async def test_an_old_database_upgrades_and_keeps_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    first_version_database(path)
    db = await Database.open(path)
    try:
        versions = [r[0] for r in await db.fetchall("SELECT version FROM schema_migrations")]
        assert versions == [v for v, _, _ in migration_files()] and 2 in versions
        table = await db.tables.get(1)
        assert table is not None and table.options == {"target": 501}
        assert (table.turn_timer, table.computer_level) == (None, None)  # no timer, default
        [seat] = await db.tables.seats(1)
        assert (seat.name, seat.timed_out) == ("ana", False)
        assert await db.tables.choices(1) == []
    finally:
        await db.close()


async def test_timer_level_timed_out_seats_and_choices_are_stored(
        database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        t = await db.tables.create(guild_id=10, channel_id=20, host_id=1, variant="coinche",
                                   options={"target": 1000}, private=False, seed=1,
                                   turn_timer=60, computer_level="hard")
        assert (t.turn_timer, t.computer_level) == (60, "hard")
        await db.tables.put_seat(SeatRow(t.id, 2, 5, "cy", computer="hard", timed_out=True))
        [seat] = await db.tables.seats(t.id)
        assert (seat.computer, seat.timed_out) == ("hard", True)
        await db.tables.put_choice(ChoiceRow(t.id, 1, 3, [["7H", "8H", "9H"]], belote=False))
        await db.tables.put_choice(ChoiceRow(t.id, 2, 3, None))
        await db.tables.put_choice(ChoiceRow(t.id, 1, 4, [], belote=True))  # replaces seat 1's
        assert await db.tables.choices(t.id) == [ChoiceRow(t.id, 1, 4, [], True),
                                                  ChoiceRow(t.id, 2, 3, None, True)]
        with pytest.raises(db.integrity_errors):  # a timer is a positive number of seconds
            await db.execute("UPDATE tables SET turn_timer = 0 WHERE id = ?", (t.id,))
    finally:
        await db.close()
