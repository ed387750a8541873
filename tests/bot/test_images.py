"""Images are made in worker processes; a dead worker's jobs finish in threads, and it is
replaced; a busy worker is not a hung one; the workers end with the bot."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rendering
from bench.bench_render import mid_deal_view
from bot import images, render_pool
from bot.bot import create_bot
from bot.hand_images import HandImages
from rendering import render_hand, render_table
from tests.rendering.positions import play_until


async def test_images_come_from_worker_processes_and_survive_a_dead_worker() -> None:
    public, seat = mid_deal_view()
    pool = render_pool.Pool("belote-test", 1)
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


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="SCHED_BATCH is Linux's")
async def test_workers_run_as_batch_processes_that_do_not_preempt_the_bot() -> None:
    """A job written to a worker must not hand the bot's core to the worker there and then:
    workers are batch processes (the kernel lets them run at the next turn, not on waking),
    with their niceness as asked; the bot itself is left as it was."""
    public, _ = mid_deal_view()
    hands, others = render_pool.Pool("belote-test", 1), render_pool.Pool("belote-bg", 1,
                                                                             niceness=10)
    try:
        await asyncio.gather(hands.run(render_table, public), others.run(render_table, public))
        for pool, niceness in ((hands, 0), (others, 10)):
            (pid,) = pool.pids()
            assert os.sched_getscheduler(pid) == os.SCHED_BATCH
            # Added to the bot's own niceness, up to the kernel's cap of 19 (a suite started
            # under ``nice -n 19`` asks for more than there is).
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(
                os.PRIO_PROCESS, 0) + niceness)
        assert os.sched_getscheduler(0) == os.SCHED_OTHER
    finally:
        hands.shutdown()
        others.shutdown()


def _hang_in_a_worker(parent_pid: int) -> str:
    """A job that never ends in a worker process (a hung render) but returns in the bot's."""
    if os.getpid() != parent_pid:
        time.sleep(600)
    return "made in a thread"


async def test_a_hung_worker_is_killed_and_its_job_made_in_a_thread() -> None:
    public, seat = mid_deal_view()
    clock = FakeClock()  # the watchdog's seconds are the test's: a loaded machine cannot
    pool = render_pool.Pool("belote-test", 1, timeout=1.0, clock=clock)  # make a render "hang"
    try:
        assert await pool.run(render_table, public) == render_table(public)
        (pid,) = pool.pids()
        hung = asyncio.create_task(pool.run(_hang_in_a_worker, os.getpid()))
        await asyncio.sleep(0)
        clock.now += 2.0
        pool.watch()
        answer = await asyncio.wait_for(hung, 10)
        assert answer == "made in a thread"
        # The hung worker is gone and a new one makes the next images.
        assert await pool.run(render_hand, seat) == render_hand(seat)
        assert pool.pids() and pool.pids() != [pid] and pool.in_processes
    finally:
        pool.shutdown()


async def test_jobs_beyond_what_workers_take_at_once_wait_their_turn() -> None:
    public, seat = mid_deal_view()
    pool = render_pool.Pool("belote-test", 1)
    try:
        views = [public, seat] * 10  # more than a worker takes at once (IN_FLIGHT)
        fns = [render_table, render_hand] * 10
        got = await asyncio.gather(*(pool.run(fn, v) for fn, v in zip(fns, views, strict=True)))
        assert got == [fn(v) for fn, v in zip(fns, views, strict=True)]
    finally:
        pool.shutdown()


async def test_a_job_asked_first_goes_ahead_of_the_jobs_queued_before_it() -> None:
    """A click's answer is drawn before the hands queued without hurry, in the order the
    answers came."""
    pool = render_pool.Pool("belote-test", 1)
    try:
        assert await pool.run(abs, -1) == 1  # started and ready
        done: list[int] = []

        async def job(n: int, first: bool) -> None:
            assert await pool.run(abs, -n, first=first) == n
            done.append(n)

        # 1-4 fill the worker (IN_FLIGHT); 5 and 6 wait; 7 and 8 are asked first.
        jobs = [job(n, first=n > 6) for n in range(1, 9)]
        assert render_pool._Worker.IN_FLIGHT == 4
        await asyncio.gather(*jobs)
        assert done == [1, 2, 3, 4, 7, 8, 5, 6]
    finally:
        pool.shutdown()


async def test_a_seat_keeps_its_recent_hand_images_only() -> None:
    kept = HandImages()
    for n in range(5):
        kept.put((1, 0), n, (b"x" * 10, "png"))
    assert kept.get((1, 0), 4) is not None and kept.get((1, 0), 3) is not None
    assert kept.get((1, 0), 0) is None
    assert kept.nbytes() == 20
    kept.forget(1)
    assert kept.get((1, 0), 4) is None and kept.nbytes() == 0


async def test_a_job_the_worker_cannot_load_is_refused_and_the_worker_lives_on() -> None:
    public, _ = mid_deal_view()
    pool = render_pool.Pool("belote-test", 1)
    only_here = types.ModuleType("belote_only_in_the_bot")  # never importable in a worker

    def job() -> None:
        return None

    job.__module__ = only_here.__name__  # pickled by reference to a module workers lack
    job.__qualname__ = "job"
    vars(only_here)["job"] = job
    sys.modules[only_here.__name__] = only_here
    try:
        assert await pool.run(render_table, public) == render_table(public)
        (pid,) = pool.pids()
        with pytest.raises(ModuleNotFoundError):
            await pool.run(job)
        assert await pool.run(render_table, public) == render_table(public)
        assert pool.pids() == [pid] and pool.restarts == 0
    finally:
        del sys.modules[only_here.__name__]
        pool.shutdown()


class FakeClock:
    """The pool's clock, moved by the test: no real seconds are waited through."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _when_released(gate: str) -> int:
    """A job that works until the test creates ``gate`` (a file), then says where it ran."""
    while not os.path.exists(gate):
        time.sleep(0.002)
    return os.getpid()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_a_burst_of_queued_jobs_longer_than_the_timeout_kills_no_worker(
        tmp_path: Path) -> None:
    clock = FakeClock()
    pool = render_pool.Pool("belote-test", 1, timeout=10.0, clock=clock)
    try:
        gates = [tmp_path / f"job-{n}" for n in range(12)]
        jobs = [asyncio.create_task(pool.run(_when_released, str(g))) for g in gates]
        await asyncio.sleep(0)  # all twelve queued at once (a restart with many tables)
        (pid,) = pool.pids()
        for gate, job in zip(gates, jobs, strict=True):
            # Each job takes 6 s: the last is answered 72 s after it was queued, but no
            # job keeps the worker busy for more than 6 s.
            clock.now += 6.0
            pool.watch()
            gate.touch()
            assert await job == pid  # made by the worker, not in a thread
        assert pool.pids() == [pid] and pool.restarts == 0
    finally:
        pool.shutdown()


async def test_a_hung_worker_is_killed_and_the_pool_heals_after_a_wait() -> None:
    clock = FakeClock()
    pool = render_pool.Pool("belote-test", 1, timeout=10.0, clock=clock)
    here = os.getpid()

    async def hang_and_kill() -> int:
        """A job hangs in the worker; the watchdog kills the worker; the job is made here."""
        while not pool.ready:  # a new worker's start is not timed: wait until it is up
            await asyncio.sleep(0.01)
        (pid,) = pool.pids()
        hung = asyncio.create_task(pool.run(_hang_in_a_worker, here))
        await asyncio.sleep(0)
        clock.now += 9.0
        pool.watch()
        assert pool.pids() == [pid]  # busy for 9 s: not hung yet
        clock.now += 2.0
        pool.watch()
        assert await hung == "made in a thread"
        assert _gone(pid)
        return pid

    try:
        assert await pool.run(os.getpid) != here
        # A hung worker is replaced at once, and the new one makes the next images.
        await hang_and_kill()
        assert await pool.run(os.getpid) not in (here, None)
        assert pool.restarts == 1 and pool.in_processes
        # New workers that keep hanging: after the third restart, which used to leave the
        # pool in threads for the rest of the process's life, it still heals.
        await hang_and_kill()  # replaced at once: the last one had answered
        await hang_and_kill()  # died again before answering: wait before the next one
        assert pool.pids() == [] and pool.restarts == 3
        assert await pool.run(os.getpid) == here  # in a thread meanwhile
        clock.now += render_pool.BACKOFF
        assert await pool.run(os.getpid) not in (here, None)  # healed: in processes again
        assert pool.in_processes
    finally:
        pool.shutdown()


async def test_a_worker_that_keeps_dying_waits_longer_each_time() -> None:
    clock = FakeClock()
    pool = render_pool.Pool("belote-test", 1, clock=clock)
    waits = []
    for _ in range(10):
        pool._failed()
        waits.append(pool._next_start - clock.now)
    assert waits[:4] == [0.0, render_pool.BACKOFF, 2 * render_pool.BACKOFF, 4 * render_pool.BACKOFF]
    assert max(waits) == render_pool.BACKOFF_MAX


async def test_closing_the_bot_ends_every_render_worker(tmp_path: Path) -> None:
    bot = create_bot(str(tmp_path / "belote.db"))  # its delivery starts the render workers
    pids = images.worker_pids()
    assert len(pids) == 2
    await bot.close()
    assert images.worker_pids() == []
    assert all(_gone(pid) for pid in pids)


async def test_every_kind_of_image_is_made_in_a_worker_process() -> None:
    """The end-to-end bots render in threads (tests/e2e/conftest.py): every job they send
    crosses to a worker here, arguments and answer pickled both ways."""
    m = play_until("bulgarian", 2, lambda m: m.is_over, max_deals=200)
    assert m.players is not None
    result = rendering.MatchResult.from_results(m.variant, m.players, m.options.target,
                                                m.results, m.winner)
    rows = [rendering.LeaderboardRow(1, "Ana", 1612.4, 40, 28)]
    public, seat = mid_deal_view()
    jobs: list[tuple[Callable[..., tuple[bytes, str]], tuple[Any, ...]]] = [
            (rendering.render_table, (public,)), (rendering.render_hand, (seat,)),
            (rendering.render_deal_sheet, (m.results[-1], m.variant, m.players, 1)),
            (rendering.render_match_result, (result,)),
            (rendering.render_leaderboard, (rows, "Leaderboard"))]
    pool = render_pool.Pool("belote-test", 1)
    try:
        for fn, args in jobs:
            assert await pool.run(fn, *args) == fn(*args)
        assert pool.in_processes and pool.restarts == 0
    finally:
        pool.shutdown()


async def test_the_bot_asks_for_images_in_a_language_and_keeps_each_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A French hand and an English hand of the same seat and state are two pictures: the
    French one has French words and ranks, and the kept English one is not shown instead."""
    monkeypatch.setenv("BELOTE_RENDER_THREADS", "1")
    monkeypatch.setattr(images, "HAND_IMAGES", HandImages())
    public, seat = mid_deal_view()
    french = await images.hand_image(seat, slot=(7, 0), language="fr")
    english = await images.hand_image(seat, slot=(7, 0))
    assert french.fp.read() == render_hand(seat, language="fr")[0]
    assert english.fp.read() == render_hand(seat)[0] != render_hand(seat, language="fr")[0]
    table = await images.table_image(public, language="bg")
    assert table.fp.read() == render_table(public, language="bg")[0] != render_table(public)[0]


def count_hands_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Images in threads (the test can watch the drawing); each hand drawn, by language."""
    monkeypatch.setenv("BELOTE_RENDER_THREADS", "1")
    monkeypatch.setattr(images, "HAND_IMAGES", HandImages())
    monkeypatch.setattr(images, "_EARLY", type(images._EARLY)())
    drawn: list[str] = []
    draw = rendering.render_hand

    def counted(view: Any, style: rendering.Style) -> tuple[bytes, str]:
        drawn.append(style.language)
        return draw(view, style)

    monkeypatch.setattr(rendering, "render_hand", counted)
    return drawn


async def test_a_hand_drawn_early_is_the_one_the_answer_shows_drawn_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = count_hands_drawn(monkeypatch)
    _, seat = mid_deal_view()
    images.draw_hand_early(seat, slot=(7, 0), language="fr")
    images.draw_hand_early(seat, slot=(7, 0), language="fr")  # already on its way
    assert drawn == []  # started, not waited for
    answer = await images.hand_image(seat, slot=(7, 0), language="fr")
    assert answer.fp.read() == render_hand(seat, language="fr")[0]
    assert drawn == ["fr"]
    # Taken: the same picture asked for again (a DM edit later) is drawn again.
    await images.hand_image(seat, slot=(7, 0), language="fr")
    assert drawn == ["fr", "fr"]
    # Another language is another picture: the early French one is not shown instead.
    images.draw_hand_early(seat, slot=(7, 0), language="fr")
    english = await images.hand_image(seat, slot=(7, 0))
    assert english.fp.read() == render_hand(seat)[0]
    assert drawn[-2:] == ["fr", "en"] or drawn[-2:] == ["en", "fr"]


async def test_early_images_nobody_takes_are_not_kept_for_ever(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = count_hands_drawn(monkeypatch)
    monkeypatch.setattr(images, "EARLY_KEPT", 3)
    views = [mid_deal_view(seed)[1] for seed in range(1, 6)]
    for n, view in enumerate(views):
        images.draw_hand_early(view, slot=(n, 0))
    assert len(images._EARLY) == 3  # the two oldest dropped before they were drawn
    first = await images.hand_image(views[0], slot=(0, 0))  # dropped: drawn when asked
    last = await images.hand_image(views[4], slot=(4, 0))  # kept: taken
    assert first.fp.read() == render_hand(views[0])[0]
    assert last.fp.read() == render_hand(views[4])[0]
    await asyncio.gather(*images._EARLY.values())
    assert len(drawn) == 4 and len(images._EARLY) == 2  # the 3rd and 4th, still not taken
