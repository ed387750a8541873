"""The table service's clock: what time it is (Unix seconds, for Discord's timestamps) and a call
at a given time (turn timers, the sweeper's deadlines).

The service asks only this, never ``time`` or the loop's timers directly, so tests run a
:class:`FakeClock` they move forward on demand: a timer of 30 seconds runs out when the test
says 30 seconds have passed, not after 30 real seconds.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class Handle(Protocol):
    """A call waiting for its time; ``cancel`` stops it."""

    def cancel(self) -> None: ...
    def cancelled(self) -> bool: ...


class Clock(Protocol):
    def now(self) -> float:
        """Unix seconds."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        """Call ``callback`` (in the running loop) once ``now()`` reaches ``when``; at once
        (soon) if it has already."""
        ...


class SystemClock:
    """Real time: the wall clock, and the running loop's timers."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)


class _FakeHandle:
    __slots__ = ("_cancelled",)

    def __init__(self) -> None:
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    def cancelled(self) -> bool:
        return self._cancelled


class FakeClock:
    """Time that moves only when told (``advance``), firing every call that falls due, in
    order. It starts at the real time of its making, so the deadlines it gives look like real
    ones in Discord's timestamps and next to the database's own."""

    def __init__(self, start: float | None = None) -> None:
        self._now = float(int(time.time())) if start is None else start
        self._calls: list[tuple[float, int, _FakeHandle, Callable[[], None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        handle = _FakeHandle()
        if when <= self._now:  # due already: at once, as the real loop would
            asyncio.get_running_loop().call_soon(self._fire, handle, callback)
        else:
            heapq.heappush(self._calls, (when, next(self._order), handle, callback))
        return handle

    @staticmethod
    def _fire(handle: _FakeHandle, callback: Callable[[], None]) -> None:
        if not handle.cancelled():
            handle.cancel()  # fired: as a TimerHandle, it cannot fire twice
            callback()

    def pending(self) -> list[float]:
        """When the calls still waiting fall due."""
        return sorted(w for w, _, h, _ in self._calls if not h.cancelled())

    def advance(self, seconds: float) -> None:
        """Move time forward, firing each call due by then at its own time, in order."""
        end = self._now + seconds
        while self._calls and self._calls[0][0] <= end:
            when, _, handle, callback = heapq.heappop(self._calls)
            self._now = max(self._now, when)
            self._fire(handle, callback)
        self._now = end


def system_clock() -> Clock:
    """The clock of a service made without one: real time. (Tests that move time themselves
    replace this with one returning their FakeClock, so a restarted bot keeps it too.)"""
    return SystemClock()
