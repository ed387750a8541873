"""Images are made in worker processes; a dead worker's jobs finish in threads, and it is
replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
import types

import pytest

from bench.bench_render import mid_deal_view
from bot import images
from rendering import render_hand, render_table


async def test_images_come_from_worker_processes_and_survive_a_dead_worker() -> None:
    public, seat = mid_deal_view()
    pool = images.Pool("belote-test", 1)
    try:
        assert await pool.run(render_table, public) == render_table(public)
        assert pool.in_processes
        (pid,) = pool.pids()
        assert pid != os.getpid()
        # Killed with a job on its way: that job finishes in a thread instead.
        slow = asyncio.create_task(pool.run(time.sleep, 1.0))
        await asyncio.sleep(0.3)
        os.kill(pid, signal.SIGKILL)
        assert await slow is None
        # A new worker makes the next images.
        assert await pool.run(render_hand, seat) == render_hand(seat)
        assert pool.restarts == 1 and pool.in_processes
        assert pool.pids() and pool.pids() != [pid]
    finally:
        pool.shutdown()


def _hang_in_a_worker(parent_pid: int) -> str:
    """A job that never ends in a worker process (a hung render) but returns in the bot's."""
    if os.getpid() != parent_pid:
        time.sleep(600)
    return "made in a thread"


async def test_a_hung_worker_is_killed_and_its_job_made_in_a_thread() -> None:
    public, seat = mid_deal_view()
    pool = images.Pool("belote-test", 1, timeout=1.0)
    try:
        assert await pool.run(render_table, public) == render_table(public)
        (pid,) = pool.pids()
        started = time.monotonic()
        answer = await asyncio.wait_for(pool.run(_hang_in_a_worker, os.getpid()), 10)
        assert answer == "made in a thread"
        assert time.monotonic() - started < 5
        # The hung worker is gone and a new one makes the next images.
        assert await pool.run(render_hand, seat) == render_hand(seat)
        assert pool.pids() and pool.pids() != [pid] and pool.in_processes
    finally:
        pool.shutdown()


async def test_jobs_beyond_what_workers_take_at_once_wait_their_turn() -> None:
    public, seat = mid_deal_view()
    pool = images.Pool("belote-test", 1)
    try:
        views = [public, seat] * 10  # more than a worker takes at once (IN_FLIGHT)
        fns = [render_table, render_hand] * 10
        got = await asyncio.gather(*(pool.run(fn, v) for fn, v in zip(fns, views, strict=True)))
        assert got == [fn(v) for fn, v in zip(fns, views, strict=True)]
    finally:
        pool.shutdown()


async def test_a_seat_keeps_its_recent_hand_images_only() -> None:
    kept = images.HandImages()
    for n in range(5):
        kept.put((1, 0), n, (b"x" * 10, "png"))
    assert kept.get((1, 0), 4) is not None and kept.get((1, 0), 3) is not None
    assert kept.get((1, 0), 0) is None
    assert kept.nbytes() == 20
    kept.forget(1)
    assert kept.get((1, 0), 4) is None and kept.nbytes() == 0


async def test_a_job_the_worker_cannot_load_is_refused_and_the_worker_lives_on() -> None:
    public, _ = mid_deal_view()
    pool = images.Pool("belote-test", 1)
    only_here = types.ModuleType("belote_only_in_the_bot")  # never importable in a worker
    only_here.job = lambda: None  # type: ignore[attr-defined]
    only_here.job.__module__ = only_here.__name__  # type: ignore[attr-defined]
    only_here.job.__qualname__ = "job"  # type: ignore[attr-defined]
    sys.modules[only_here.__name__] = only_here
    try:
        assert await pool.run(render_table, public) == render_table(public)
        (pid,) = pool.pids()
        with pytest.raises(ModuleNotFoundError):
            await pool.run(only_here.job)  # type: ignore[attr-defined]
        assert await pool.run(render_table, public) == render_table(public)
        assert pool.pids() == [pid] and pool.restarts == 0
    finally:
        del sys.modules[only_here.__name__]
        pool.shutdown()
