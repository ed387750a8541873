"""A pool of render worker processes (``python -m rendering.worker``), with a watchdog, and
threads while processes cannot run. Generic: it runs any picklable job of rendering/; which
images go to which pool, and the hand-image cache, are bot/images.py's.

Pillow holds the GIL for most of its drawing and quantizing, so render threads in the bot's
process would take turns with the event loop (bench/bench_bot.py measured clicks queueing past
Discord's 3 s at 200 tables that way). Jobs run in worker processes instead, started once (a
plain interpreter that imports rendering/ only, not the bot), each building the shared palette
and its sprites once. The views and results cross as pickles (a view is ~600 bytes, ~0.05 ms).
While a pool cannot start or its workers keep dying, rendering goes on in threads (and says so)
and the pool tries again later.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import subprocess
import sys
import time
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import rendering
from rendering.worker import READY

log = logging.getLogger(__name__)

# A pool whose worker died starts a new one at once the first time; if that one dies too, the
# next start waits BACKOFF seconds, doubling up to BACKOFF_MAX, and meanwhile images are made
# in threads. An answer from a worker shows the pool healthy again and resets the wait.
BACKOFF = 1.0
BACKOFF_MAX = 60.0
# A worker not ready this long after it was started (imports, palette: about a second) is
# hung too. Its jobs are not timed before it is ready: its start is not theirs.
START_TIMEOUT = 60.0


# Told each job's time (the pool's name, seconds from asked to done): the metrics of each bot
# in the process (bot/metrics.py); empty, nothing is timed. POOLS: every pool made, to read
# their queues.
TIMED: list[Callable[[str, float], None]] = []
POOLS: weakref.WeakSet[Pool] = weakref.WeakSet()


class WorkerDied(Exception):
    """A render worker process ended with jobs on its way."""


Job = tuple[int, Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


class _Worker:
    """One render process and our end of its pipe; answers are read by the event loop."""

    # Jobs written to the pipe ahead of the answers: enough to keep the worker busy, few
    # enough that the pipe never fills and a write never blocks the event loop.
    IN_FLIGHT = 4

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        jobs_r, jobs_w = os.pipe()
        answers_r, answers_w = os.pipe()
        # Started in the directory that holds this rendering/ (``-m`` looks there first),
        # wherever the bot was started from.
        root = str(Path(rendering.__file__).resolve().parents[1])
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "rendering.worker", str(jobs_r), str(answers_w),
                 str(pool.niceness), str(int(pool.warm))], pass_fds=(jobs_r, answers_w),
                stdin=subprocess.DEVNULL, cwd=root)
        except BaseException:
            for fd in (jobs_w, answers_r):
                os.close(fd)
            raise
        finally:
            os.close(jobs_r)
            os.close(answers_w)
        self.outbox = Connection(jobs_w, readable=False)
        self.conn = Connection(answers_r, writable=False)
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.dead = False
        self.started = pool.clock()
        self.ready = False
        # When the worker took the job it works on now (the pool's clock), None when idle.
        # Jobs answer in order, so that is when the previous answer came, or when the job
        # was written to an idle worker: time spent waiting in a queue never counts.
        self.busy_since: float | None = None

    def listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read answers on ``loop`` (a bot's loop; tests run one loop after another)."""
        if self.loop is loop:
            return
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(self.conn.fileno())
        self.fail(WorkerDied("the event loop changed"))
        self.loop = loop
        loop.add_reader(self.conn.fileno(), self._readable)

    def send(self, job: Job) -> None:
        number, fn, args, future = job
        try:
            call = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # not a job for a process: the caller gets the error
            future.set_exception(e)
            return
        try:
            self.outbox.send_bytes(pickle.dumps((number, call), pickle.HIGHEST_PROTOCOL))
        except OSError:
            self.dead = True
            future.set_exception(WorkerDied(f"render worker {self.process.pid} ended"))
            return
        if not self.pending and self.ready:
            self.busy_since = self.pool.clock()
        self.pending[number] = future

    def _readable(self) -> None:
        try:
            while self.conn.poll():
                number, ok, result = pickle.loads(self.conn.recv_bytes())
                if number == READY:
                    self.ready = True
                    self.busy_since = self.pool.clock() if self.pending else None
                    continue
                future = self.pending.pop(number, None)
                self.busy_since = self.pool.clock() if self.pending else None
                self.pool.failures = 0  # it answers: the pool is healthy
                if future is not None and not future.done():
                    if ok:
                        future.set_result(result)
                    else:
                        future.set_exception(result)
        except (EOFError, OSError):
            self.dead = True
            self.pool._replace_dead()
        self.pool._dispatch()

    def fail(self, error: Exception) -> None:
        pending, self.pending = self.pending, {}
        self.busy_since = None
        for future in pending.values():
            if not future.done():
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
                    future.set_exception(error)

    def close(self) -> None:
        """End the process and both ends of its pipe (the process is waited for: no zombie)."""
        self.dead = True
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(self.conn.fileno())
        self.loop = None
        self.conn.close()
        self.outbox.close()
        if self.alive:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def hung(self, now: float, timeout: float) -> bool:
        if not self.ready:
            return now - self.started > START_TIMEOUT
        return self.busy_since is not None and now - self.busy_since > timeout

    def deadline(self, timeout: float) -> float | None:
        """When the watchdog should look at this worker next (None: idle, nothing to time)."""
        if not self.ready:
            return self.started + START_TIMEOUT
        return None if self.busy_since is None else self.busy_since + timeout


class Pool:
    """Worker processes for one kind of job, making images in threads while they cannot.

    No threads on the bot's side: a job is one pickle written to a worker's pipe, its answer
    is read when the event loop sees the pipe readable (a ProcessPoolExecutor's feeder and
    manager threads took the GIL from the event loop several times per image). Jobs wait
    in a queue here, first come first served (the jobs someone waits on right now ahead of
    the others), while every worker has enough to do.

    A watchdog kills a worker that works on one job longer than ``timeout`` (hung): its jobs
    are made in threads and a new worker is started, at once the first time, then after a
    growing wait (BACKOFF) while new workers keep dying; the pool never gives up on processes
    for good. ``clock`` is injectable so tests need not wait through real seconds.

    A pool made with ``threads=False`` (the analysis of finished matches, bot/analysis.py:
    minutes of pure-Python CPU that would hold the GIL against the event loop) never runs a
    job in a thread: while no worker can run, its jobs fail with WorkerDied. ``warm=False``:
    its workers skip the palette (they draw nothing)."""

    def __init__(self, name: str, workers: int, *, niceness: int = 0,
                 timeout: float = 20.0, clock: Callable[[], float] = time.monotonic,
                 threads: bool = True, warm: bool = True) -> None:
        self.name = name
        self.size = workers
        self.niceness = niceness
        self.threads = threads
        self.warm = warm
        # A worker still on one job after this long is hung, not busy (a job takes a few
        # milliseconds): it is killed. Counted from when the worker took the job, not from
        # when it was queued, so a burst of jobs (a restart with many tables) kills nobody.
        self.timeout = timeout
        self.clock = clock
        self.restarts = 0  # workers that died or were killed, over the pool's life
        self.failures = 0  # ... since a worker last answered
        self._next_start = 0.0  # no worker is started before this (clock)
        self._workers: list[_Worker] = []
        self._queue: deque[Job] = deque()
        self._first: deque[Job] = deque()  # jobs asked ``first``: given out before the others
        self._loop: asyncio.AbstractEventLoop | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._numbers = itertools.count()
        self._watchdog: asyncio.TimerHandle | None = None
        POOLS.add(self)

    def queued(self) -> int:
        """Jobs asked of the workers and not answered yet (queued here or in a pipe)."""
        return len(self._first) + len(self._queue) + sum(len(w.pending) for w in self._workers)

    def start(self) -> None:
        """Start the workers now (each builds the shared palette), not on the first click;
        not before the wait that follows a worker's death is over."""
        if self.threads_only or self.clock() < self._next_start:
            return
        try:
            while len(self._workers) < self.size:
                w = _Worker(self)
                self._workers.append(w)
                if self._loop is not None and not self._loop.is_closed():
                    w.listen(self._loop)
        except (OSError, ValueError):  # no processes here (or no pass_fds: not POSIX)
            log.exception("render workers %s could not start: rendering in threads", self.name)
            self._failed()

    @property
    def threads_only(self) -> bool:
        return self.threads and bool(os.environ.get("BELOTE_RENDER_THREADS"))

    @property
    def in_processes(self) -> bool:
        return bool(self._workers) and not self.threads_only

    @property
    def ready(self) -> bool:
        """Every worker has started and said so (tests wait for it)."""
        return bool(self._workers) and all(w.ready for w in self._workers)

    def pids(self) -> list[int]:
        """The worker processes' ids (for benchmarks: their CPU time)."""
        return [w.process.pid for w in self._workers]

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.size, thread_name_prefix=self.name)
        return self._threads

    def _failed(self) -> None:
        self.failures += 1
        wait = 0.0 if self.failures == 1 else min(BACKOFF * 2 ** (self.failures - 2),
                                                  BACKOFF_MAX)
        self._next_start = self.clock() + wait

    def _replace_dead(self) -> None:
        for w in [w for w in self._workers if w.dead or not w.alive]:
            self._workers.remove(w)
            w.close()
            w.fail(WorkerDied(f"render worker {w.process.pid} ended"))
            self.restarts += 1
            self._failed()
            log.error("render worker %s of %s ended (%d in a row): %s", w.process.pid,
                      self.name, self.failures,
                      "restarting it" if self.clock() >= self._next_start else
                      f"images in threads for {self._next_start - self.clock():.0f} s")
        self.start()
        if not self._workers:  # nobody to take the queued jobs: they are made in threads
            for *_, future in self._take_all():
                if not future.done():
                    future.set_exception(WorkerDied("no render worker"))

    def watch(self) -> None:
        """The watchdog: kill the workers stuck on one job for longer than ``timeout``; their
        jobs are made in threads, and they are replaced. Runs on a timer while any worker
        has work; tests call it after moving their clock."""
        self._watchdog = None
        now = self.clock()
        hung = [w for w in self._workers if w.hung(now, self.timeout)]
        for w in hung:
            log.error("render worker %s of %s spent over %.0f s on one job: killed",
                      w.process.pid, self.name, self.timeout)
            w.dead = True
        if hung:
            self._replace_dead()
            self._dispatch()
        self._arm()

    def _arm(self) -> None:
        """Run the watchdog when the oldest job a worker works on reaches ``timeout``."""
        if self._watchdog is not None:  # set again: the first deadline may have moved
            self._watchdog.cancel()
            self._watchdog = None
        if self._loop is None or self._loop.is_closed():
            return
        due = [d for w in self._workers if (d := w.deadline(self.timeout)) is not None]
        if due:
            wait = max(min(due) - self.clock(), 0.0) + 0.01
            self._watchdog = self._loop.call_later(wait, self.watch)

    def _take_all(self) -> list[Job]:
        """Empty the queues; what they held, first jobs first."""
        queued = [*self._first, *self._queue]
        self._first.clear()
        self._queue.clear()
        return queued

    def _dispatch(self) -> None:
        """Hand queued jobs to the least busy workers that can take more."""
        while self._first or self._queue:
            ready = [w for w in self._workers if not w.dead and
                     len(w.pending) < _Worker.IN_FLIGHT]
            if not ready:
                break
            job = (self._first or self._queue).popleft()
            if not job[3].done() and not job[3].get_loop().is_closed():
                min(ready, key=lambda w: len(w.pending)).send(job)
        self._arm()

    async def run(self, fn: Callable[..., Any], *args: Any, first: bool = False) -> Any:
        """``fn(*args)`` in a worker (in a thread while none can run). ``first``: someone
        is waiting on it right now (a click's answer); it goes ahead of the jobs queued
        without it, in the order such jobs came."""
        if not TIMED:
            return await self._run(fn, args, first)
        start = time.perf_counter()
        try:
            return await self._run(fn, args, first)
        finally:
            for timed in TIMED:
                timed(self.name, time.perf_counter() - start)

    async def _run(self, fn: Callable[..., Any], args: tuple[Any, ...], first: bool) -> Any:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a bot on a new loop (tests run one loop after another)
            self._loop = loop
            if self._watchdog is not None:  # the old loop's timer
                self._watchdog.cancel()
                self._watchdog = None
            for w in self._workers:
                w.listen(loop)
        self._replace_dead()
        if self._workers and not self.threads_only:
            future: asyncio.Future[Any] = loop.create_future()
            (self._first if first else self._queue).append(
                (next(self._numbers), fn, args, future))
            self._dispatch()
            try:
                return await future
            except WorkerDied:
                if not self.threads:
                    raise
            # The worker died (killed as hung, out of memory): it is replaced, and this
            # image is made in a thread so that nobody waits on the restart.
        if not self.threads:
            raise WorkerDied(f"no {self.name} worker can run")
        return await loop.run_in_executor(self._thread_pool(), fn, *args)

    def shutdown(self) -> None:
        """End the workers and their pipes (the bot closes); a later job starts new ones."""
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        for w in self._workers:
            w.close()
            w.fail(WorkerDied("shut down"))
        self._workers = []
        self._loop = None
        for *_, future in self._take_all():
            if not future.done():
                with contextlib.suppress(RuntimeError):
                    future.set_exception(WorkerDied("shut down"))
        self.failures, self._next_start = 0, 0.0
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None
