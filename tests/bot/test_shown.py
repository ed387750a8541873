"""What the messages show is recorded in the background: what is noted while a write is on its
way goes in the next one statement, the newest digest of a message wins, a failed write is
tried again when the same digest is noted again, and a clean stop writes everything."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import pytest

from bot.shown import TABLE_SLOT, ShownRecords
from db import Database
from db.tables import ShownRow, TableRepo


async def open_table(db: Database) -> int:
    row = await db.tables.create(guild_id=1, channel_id=2, host_id=3, variant="classic",
                                 options={}, private=False, seed=4)
    return row.id


class Gate:
    """Wraps a repository's set_shown_many: counts the statements, holds the first one until
    ``open`` (so that notes pile up behind it), and can fail."""

    def __init__(self, repo: TableRepo) -> None:
        self.repo = repo
        self.written: list[list[ShownRow]] = []
        self.opened = asyncio.Event()
        self.failing = False
        real = repo.set_shown_many

        async def set_shown_many(rows: Sequence[ShownRow]) -> None:
            await self.opened.wait()
            if self.failing:
                raise OSError("disk full")
            self.written.append(list(rows))
            await real(rows)

        repo.set_shown_many = set_shown_many  # type: ignore[method-assign]


async def test_notes_made_during_a_write_go_in_the_next_statement_newest_wins(
        db: Database) -> None:
    a, b = await open_table(db), await open_table(db)
    gate = Gate(db.tables)
    shown = ShownRecords(lambda: db.tables)
    shown.note(a, TABLE_SLOT, "t1", (5, 100.0))
    await asyncio.sleep(0)  # the writer takes the first note and waits at the gate
    shown.note(a, TABLE_SLOT, "t2", (6, 130.0))
    shown.note(a, 0, "h1")
    shown.note(a, 0, "h2")
    shown.note(b, 2, "h3")
    assert shown.get((a, TABLE_SLOT)) == "t2"  # known at once, before it is written
    gate.opened.set()
    await shown.flush()
    assert [[(r.table_id, r.slot, r.digest) for r in rows] for rows in gate.written] == [
        [(a, TABLE_SLOT, "t1")], [(a, TABLE_SLOT, "t2"), (a, 0, "h2"), (b, 2, "h3")]]
    assert await db.tables.shown() == {(a, TABLE_SLOT): "t2", (a, 0): "h2", (b, 2): "h3"}
    assert await db.tables.shown_deadlines() == {a: (6, 130.0)}


async def test_a_digest_already_recorded_is_not_written_again(db: Database) -> None:
    a = await open_table(db)
    gate = Gate(db.tables)
    gate.opened.set()
    shown = ShownRecords(lambda: db.tables)
    shown.note(a, 1, "h1")
    await shown.flush()
    shown.note(a, 1, "h1")
    await shown.flush()
    assert len(gate.written) == 1


async def test_a_failed_write_is_tried_again_when_the_digest_is_noted_again(
        db: Database, caplog: pytest.LogCaptureFixture) -> None:
    a = await open_table(db)
    gate = Gate(db.tables)
    gate.opened.set()
    gate.failing = True
    shown = ShownRecords(lambda: db.tables)
    shown.note(a, 1, "h1")
    await shown.flush()
    assert "could not record what 1 message(s) show (disk full)" in caplog.text
    assert shown.get((a, 1)) is None and await db.tables.shown() == {}
    gate.failing = False
    shown.note(a, 1, "h1")
    await shown.flush()
    assert await db.tables.shown() == {(a, 1): "h1"}


async def test_a_closed_table_is_forgotten_with_what_was_on_its_way(db: Database) -> None:
    a, b = await open_table(db), await open_table(db)
    gate = Gate(db.tables)
    shown = ShownRecords(lambda: db.tables)
    shown.note(b, 0, "first")
    await asyncio.sleep(0)
    shown.note(a, 0, "h1")
    shown.note(b, 0, "h2")
    shown.forget(a)
    gate.opened.set()
    await shown.flush()
    assert shown.get((a, 0)) is None
    assert await db.tables.shown() == {(b, 0): "h2"}


async def test_what_was_recorded_is_read_back_at_the_next_start(db: Database) -> None:
    a = await open_table(db)
    shown = ShownRecords(lambda: db.tables)
    for seat in range(4):
        shown.note(a, seat, f"h{seat}")
    await shown.flush()
    again = ShownRecords(lambda: db.tables)
    again.note(a, 3, "newer")  # confirmed before the records were read back: kept
    await again.load()
    assert [again.get((a, seat)) for seat in range(4)] == ["h0", "h1", "h2", "newer"]
    await again.flush()



async def until(condition: Callable[[], bool]) -> None:
    """Wait for the writer (whose writes go through the database's thread) to get there."""
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.001)


class Sleeps:
    """An injected sleep that ends only when the test says so."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.wake = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await self.wake.wait()


async def test_the_writer_rests_between_writes_and_a_flush_cuts_the_rest_short(
        db: Database) -> None:
    a = await open_table(db)
    gate = Gate(db.tables)
    gate.opened.set()
    sleeps = Sleeps()
    shown = ShownRecords(lambda: db.tables, pause=1.0, sleep=sleeps)
    shown.note(a, TABLE_SLOT, "t1")
    await until(lambda: sleeps.asked == [1.0])  # written, then resting
    shown.note(a, 0, "h1")
    shown.note(a, 1, "h2")
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(gate.written) == 1  # the database is left to the moves meanwhile
    sleeps.wake.set()  # the pause is over: what piled up goes in one statement
    await until(lambda: len(sleeps.asked) == 2)
    assert [[r.digest for r in rows] for rows in gate.written] == [["t1"], ["h1", "h2"]]
    sleeps.wake.clear()
    await until(lambda: shown._writer is not None and shown._writer.done())
    shown.note(a, 2, "h3")
    await until(lambda: len(sleeps.asked) == 3)
    shown.note(a, 3, "h4")  # noted while the writer rests
    await asyncio.wait_for(shown.flush(), 5)  # a clean stop does not wait out the pause
    assert [[r.digest for r in rows] for rows in gate.written][-1] == ["h4"]
    assert await db.tables.shown() == {(a, TABLE_SLOT): "t1", (a, 0): "h1", (a, 1): "h2",
                                       (a, 2): "h3", (a, 3): "h4"}
