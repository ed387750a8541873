"""web/live.py's Feed on its own: what the table service tells costs nothing when nobody
watches; changes told together make one state; a viewer who has not written the last state yet
gets only the newest; the caps; the end of a table ends its streams."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from web.live import Feed, Full


class Table:
    def __init__(self) -> None:
        self.seq, self.status = 0, "playing"


def state(table: Table, language: str) -> dict[str, Any]:
    return {"seq": table.seq, "status": table.status, "language": language}


def render(s: dict[str, Any], language: str) -> bytes:
    return f"{s['seq']}:{s['status']}:{language}".encode()


async def turn() -> None:
    await asyncio.sleep(0)  # the loop runs what was scheduled: the feed's publishing


async def test_nobody_watching_costs_nothing_and_changes_told_together_make_one_state() -> None:
    feed: Feed[Table] = Feed(state, render)
    table = Table()
    feed.changed(1, table)
    await turn()
    assert feed.published == 0
    viewer = feed.join(1, table, "en")
    assert viewer.take() == b"0:playing:en" and feed.published == 1
    table.seq = 1
    feed.changed(1, table)
    table.seq = 2
    feed.changed(1, table)
    assert viewer.take() is None  # nothing made under the caller (the table's lock)
    await turn()
    assert feed.published == 2 and viewer.take() == b"2:playing:en"


async def test_a_slow_viewer_gets_the_newest_state_only_and_languages_are_made_once() -> None:
    feed: Feed[Table] = Feed(state, render)
    table = Table()
    slow, quick, other = (feed.join(1, table, "en"), feed.join(1, table, "en"),
                          feed.join(1, table, "fr"))
    for v in (slow, quick, other):
        v.take()
    for seq in (1, 2, 3):
        table.seq = seq
        feed.changed(1, table)
        await turn()
        assert quick.take() == f"{seq}:playing:en".encode()
    assert slow.wake.is_set() and slow.take() == b"3:playing:en"  # 1 and 2 dropped
    assert other.take() == b"3:playing:fr"
    assert feed.published == 2 + 3 * 2  # en and fr once each at the start, then per change


async def test_the_caps_and_a_place_freed() -> None:
    feed: Feed[Table] = Feed(state, render, per_table=2, per_process=3)
    a, b = Table(), Table()
    first = feed.join(1, a, "en")
    feed.join(1, a, "en")
    with pytest.raises(Full) as full:
        feed.join(1, a, "en")
    assert full.value.where == "table"
    feed.join(2, b, "en")
    with pytest.raises(Full) as full:
        feed.join(3, b, "en")
    assert full.value.where == "process"
    feed.leave(first)
    feed.leave(first)  # twice: counted once
    assert feed.viewers == 2 and feed.watching(1) == 1
    feed.join(1, a, "en")


async def test_the_end_of_a_table_ends_its_streams_and_forgets_it() -> None:
    feed: Feed[Table] = Feed(state, render)
    table = Table()
    viewer = feed.join(1, table, "en")
    viewer.take()
    table.status = "over"
    feed.changed(1, table)
    await turn()
    assert viewer.take() == b"0:over:en" and viewer.ended
    assert feed.viewers == 0 and feed.watching(1) == 0
    feed.leave(viewer)
    assert feed.viewers == 0
    feed.changed(1, table)  # told again: nobody watches any more
    await turn()
    assert feed.published == 2
