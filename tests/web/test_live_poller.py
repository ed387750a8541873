"""web/live.py's Poller on its own (a table another process runs, read from storage): its mark
is read once per interval of the injected clock while somebody watches; the table is rebuilt
only when the mark moved, and the viewers get the change through the feed; the last viewer
gone, nothing is read any more; a table that ended, or is gone, ends the streams."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from service.tables.clock import FakeClock
from web.live import Feed, Poller, Viewer

GUILD = 7


@dataclass(frozen=True)
class Table:
    seq: int
    status: str = "playing"


def state(table: Table, language: str) -> dict[str, Any]:
    return {"seq": table.seq, "status": table.status}


def render(s: dict[str, Any], language: str) -> bytes:
    return f"{s.get('seq')}:{s['status']}".encode()


class Storage:
    """What the database holds of the tables (the owning process writes it): the mark is
    (status, last seq); each read is counted."""

    def __init__(self) -> None:
        self.tables: dict[int, Table] = {1: Table(0)}
        self.marks = self.loads = 0
        self.broken = False

    def elsewhere(self, guild_id: int) -> bool:
        return guild_id == GUILD

    async def mark(self, table_id: int) -> tuple[str, int] | None:
        self.marks += 1
        if self.broken:
            raise ConnectionError("the database is away")
        t = self.tables.get(table_id)
        return None if t is None else (t.status, t.seq)

    @staticmethod
    def is_open(mark: tuple[str, int]) -> bool:
        return mark[0] == "playing"

    async def load(self, guild_id: int, table_id: int, mark: tuple[str, int]) -> Table | None:
        self.loads += 1
        return self.tables.get(table_id)


async def ticks(clock: FakeClock, n: int = 1) -> None:
    """``n`` intervals pass; each poll (a task: the database is asked) runs to its end."""
    for _ in range(n):
        clock.advance(1.0)
        for _ in range(5):
            await asyncio.sleep(0)


def setup() -> tuple[Feed[Table], Storage, FakeClock, Poller[Table, tuple[str, int]]]:
    feed: Feed[Table] = Feed(state, render)
    storage, clock = Storage(), FakeClock(start=1000.0)
    return feed, storage, clock, Poller(feed, storage, clock, interval=1.0)


async def watching(feed: Feed[Table], poller: Poller[Table, tuple[str, int]], table_id: int,
                   language: str) -> Viewer:
    """A viewer of a stored table, its polling started and its first state taken."""
    found = await poller.find(GUILD, table_id)
    assert found is not None
    viewer = feed.join(table_id, found.table, language)
    poller.watch(table_id, found)
    viewer.take()
    return viewer


async def test_the_table_is_rebuilt_only_when_its_mark_moved() -> None:
    feed, storage, clock, poller = setup()
    found = await poller.find(GUILD, 1)
    assert found is not None and found.table == Table(0) and storage.loads == 1
    viewer = feed.join(1, found.table, "en")
    poller.watch(1, found)
    assert viewer.take() == b"0:playing"
    await ticks(clock, 3)
    assert storage.marks == 1 + 3 and storage.loads == 1  # read, never rebuilt
    assert viewer.take() is None
    storage.tables[1] = Table(5)  # the owner wrote a move
    await ticks(clock)
    assert storage.loads == 2 and poller.rebuilds == 1
    assert viewer.take() == b"5:playing"
    # A second viewer is given the table polled, not read again.
    again = await poller.find(GUILD, 1)
    assert again is found and storage.loads == 2
    await ticks(clock, 2)
    assert storage.loads == 2 and viewer.take() is None


async def test_polling_stops_when_the_last_viewer_leaves() -> None:
    feed, storage, clock, poller = setup()
    found = await poller.find(GUILD, 1)
    assert found is not None
    viewers = [feed.join(1, found.table, "en") for _ in range(2)]
    for _ in viewers:
        poller.watch(1, found)  # once, however many watch
    assert len(clock.pending()) == 1
    await ticks(clock)
    assert storage.marks == 2
    feed.leave(viewers[0])
    await ticks(clock)
    assert storage.marks == 3 and poller.polled() == [1]
    feed.leave(viewers[1])
    assert poller.polled() == [] and clock.pending() == []  # at once, not at the next tick
    storage.tables[1] = Table(9)
    await ticks(clock, 3)
    assert storage.marks == 3 and storage.loads == 1


async def test_an_ended_or_vanished_table_ends_the_streams_and_the_polling() -> None:
    feed, storage, clock, poller = setup()
    viewer = await watching(feed, poller, 1, "fr")
    storage.tables[1] = Table(40, "over")
    await ticks(clock)
    assert viewer.ended and viewer.take() == b"40:over"
    assert poller.polled() == [] and clock.pending() == [] and feed.watching(1) == 0
    # A table no longer open is not shown from storage (404), as its own process does.
    assert await poller.find(GUILD, 1) is None

    storage.tables[2] = Table(3)
    viewer = await watching(feed, poller, 2, "en")
    del storage.tables[2]
    await ticks(clock)
    assert viewer.ended and viewer.take() == b"None:closed"
    assert poller.polled() == [] and clock.pending() == []


async def test_a_failed_read_is_tried_again_at_the_next_tick() -> None:
    feed, storage, clock, poller = setup()
    viewer = await watching(feed, poller, 1, "en")
    storage.broken = True
    await ticks(clock, 2)
    assert storage.marks == 3 and poller.polled() == [1] and not viewer.ended
    storage.broken = False
    storage.tables[1] = Table(2)
    await ticks(clock)
    assert viewer.take() == b"2:playing"


async def test_only_another_process_s_open_tables_of_this_server_are_read() -> None:
    _, storage, _, poller = setup()
    assert await poller.find(GUILD + 1, 1) is None  # this process runs that server's tables
    assert storage.marks == 0
    assert await poller.find(GUILD, 99) is None  # no such table
    assert storage.loads == 0
