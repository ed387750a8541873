"""Typed views of a live table for the service tests: its match, deal and seat to act, which
the service holds as Optional (a table in its lobby has no match yet)."""

from __future__ import annotations

import asyncio
from typing import Literal, Protocol

from db import Database
from game.deal import Deal
from game.match import Match


class HasMatch(Protocol):
    match: Match | None


def match_of(live: HasMatch) -> Match:
    """The match of a started table."""
    assert live.match is not None, "the table has not started"
    return live.match


def deal_of(live: HasMatch) -> Deal:
    """The deal in play (or just over) at a started table."""
    deal = match_of(live).deal
    assert deal is not None, "no deal has been dealt"
    return deal


def to_act(live: HasMatch) -> int:
    """The seat to act at a started table whose match is not over."""
    seat = match_of(live).to_act
    assert seat is not None, "nobody is to act"
    return seat


async def status_of(db: Database, table_id: int) -> str:
    """The stored status of a table."""
    row = await db.tables.get(table_id)
    assert row is not None, f"no table {table_id}"
    return row.status


class WatchedLock(asyncio.Lock):
    """A table lock that counts the requests waiting for it."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = 0

    async def acquire(self) -> Literal[True]:
        self.waiting += 1
        try:
            return await super().acquire()
        finally:
            self.waiting -= 1
