"""Clocks the tests set by hand: the code under test asks them the time, a test moves it."""

from __future__ import annotations

from datetime import datetime


class DateClock:
    """A wall clock standing at ``now`` until a test sets it elsewhere."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now
