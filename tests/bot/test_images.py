"""Images are made in worker processes; a broken pool falls back to threads and recovers."""

from __future__ import annotations

import os
import signal
import time

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
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while pool.pids() == [pid] and time.monotonic() < deadline:
            time.sleep(0.05)  # the executor notices the death and marks itself broken
        # The image still comes (from a thread), and the next ones from a new worker.
        assert await pool.run(render_hand, seat) == render_hand(seat)
        assert pool.restarts == 1
        assert await pool.run(render_hand, seat) == render_hand(seat)
        assert pool.in_processes and pool.pids() and pool.pids() != [pid]
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
