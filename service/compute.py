"""The computers' decisions, off the event loop (a search may take tens of milliseconds): in
the loop's default thread pool, timed for the metrics (bot/metrics.py) when anyone listens."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from game.actions import Action
from game.players import Player
from game.view import TableView

# Told each decision's time (name, seconds): the metrics of each bot in the process.
TIMED: list[Callable[[str, float], None]] = []
_in_flight = 0


def in_flight() -> int:
    """Decisions asked and not made yet (waiting for a thread, or thinking)."""
    return _in_flight


async def decide(player: Player, view: TableView) -> Action:
    global _in_flight
    start = time.perf_counter()
    _in_flight += 1
    try:
        return await asyncio.to_thread(player.choose, view)
    finally:
        _in_flight -= 1
        for timed in TIMED:
            timed("compute", time.perf_counter() - start)
