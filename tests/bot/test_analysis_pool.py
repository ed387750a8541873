"""The analysis's worker pool (bot/analysis.py): a Pool that never falls back to threads. Its
jobs run in a worker process even where images are made in threads (BELOTE_RENDER_THREADS),
at the niceness asked; with no worker to run them, they fail instead of running in the bot."""

from __future__ import annotations

import os

import pytest

from bot.analysis_pool import DEAL_TIMEOUT
from bot.render_pool import Pool, WorkerDied


def _pid_and_niceness() -> tuple[int, int]:
    return os.getpid(), os.nice(0)


async def test_jobs_run_in_a_low_priority_process_never_in_a_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELOTE_RENDER_THREADS", "1")
    # The analysis pool's own watchdog: a worker at niceness 19 on a machine busy with other
    # work (the rest of the suite, say) may wait many seconds for its first slice of CPU, and
    # the render pools' 20 s would kill it for that, which is not what this test is about.
    pool = Pool("test-analysis", 1, niceness=19, threads=False, warm=False,
                timeout=DEAL_TIMEOUT)
    try:
        pid, niceness = await pool.run(_pid_and_niceness)
        assert pid != os.getpid() and pid in pool.pids()
        assert niceness == min(19, os.nice(0) + 19)
    finally:
        pool.shutdown()
    monkeypatch.setattr(Pool, "start", lambda self: None)  # no worker can start
    with pytest.raises(WorkerDied):
        await pool.run(_pid_and_niceness)
