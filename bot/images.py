"""The one place the bot turns views into image files: rendering/ runs in worker processes.

Pillow holds the GIL for most of its drawing and quantizing, so render threads in the bot's
process would take turns with the event loop (bench/bench_bot.py measured clicks queueing past
Discord's 3 s at 200 tables that way). Images are made in worker processes instead, started
once (``python -m rendering.worker``: a plain interpreter that imports rendering/ only, not
the bot), each building the shared palette and its sprites once. The views and results
cross as pickles (a view is ~600 bytes, ~0.05 ms). If the pool cannot start or breaks,
rendering goes on in threads and says so.

Hand images answer a click (the player waits for them); table images and sheets do not, so
they have workers of their own and a queue of table images never delays anybody's answer.
File names never say anything about the cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import logging
import os
import pickle
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import discord

import rendering
from game.rules import Variant
from game.scoring import DealResult
from game.view import Stage, TableView
from rendering.keys import hand_key

log = logging.getLogger(__name__)

# At most this many worker restarts before a pool renders in threads for good.
MAX_RESTARTS = 3


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
                 str(pool.niceness)], pass_fds=(jobs_r, answers_w), stdin=subprocess.DEVNULL,
                cwd=root)
        finally:
            os.close(jobs_r)
            os.close(answers_w)
        self.outbox = Connection(jobs_w, readable=False)
        self.conn = Connection(answers_r, writable=False)
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.dead = False

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
        self.pending[number] = future

    def _readable(self) -> None:
        try:
            while self.conn.poll():
                number, ok, result = pickle.loads(self.conn.recv_bytes())
                future = self.pending.pop(number, None)
                if future is not None and not future.done():
                    if ok:
                        future.set_result(result)
                    else:
                        future.set_exception(result)
        except (EOFError, OSError):
            self.close()
            self.fail(WorkerDied(f"render worker {self.process.pid} ended"))
            self.pool._replace_dead()
        self.pool._dispatch()

    def fail(self, error: Exception) -> None:
        pending, self.pending = self.pending, {}
        for future in pending.values():
            if not future.done():
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
                    future.set_exception(error)

    def close(self) -> None:
        self.dead = True
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(self.conn.fileno())
        self.loop = None
        self.conn.close()
        self.outbox.close()
        if self.alive:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(1)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


class Pool:
    """Worker processes for one kind of job, falling back to threads if processes fail.

    No threads on the bot's side: a job is one pickle written to a worker's pipe, its answer
    is read when the event loop sees the pipe readable (a ProcessPoolExecutor's feeder and
    manager threads took the GIL from the event loop several times per image). Jobs wait
    in a queue here, first come first served, while every worker has enough to do."""

    def __init__(self, name: str, workers: int, *, niceness: int = 0,
                 timeout: float = 20.0) -> None:
        self.name = name
        self.size = workers
        self.niceness = niceness
        # A job still unanswered after this long means a hung worker, not a busy one (a
        # worker holds at most IN_FLIGHT jobs of a few milliseconds each): it is killed.
        self.timeout = timeout
        self.restarts = 0
        self._workers: list[_Worker] = []
        self._queue: deque[Job] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._numbers = itertools.count()

    def start(self) -> None:
        """Start the workers now (each builds the shared palette), not on the first click."""
        if self.threads_only:
            return
        try:
            while len(self._workers) < self.size:
                w = _Worker(self)
                self._workers.append(w)
                if self._loop is not None:
                    w.listen(self._loop)
        except (OSError, ValueError):  # no processes here (or no pass_fds: not POSIX)
            log.exception("render workers %s could not start: rendering in threads", self.name)
            self.restarts = MAX_RESTARTS

    @property
    def threads_only(self) -> bool:
        return self.restarts >= MAX_RESTARTS or bool(os.environ.get("BELOTE_RENDER_THREADS"))

    @property
    def in_processes(self) -> bool:
        return bool(self._workers) and not self.threads_only

    def pids(self) -> list[int]:
        """The worker processes' ids (for benchmarks: their CPU time)."""
        return [w.process.pid for w in self._workers]

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.size, thread_name_prefix=self.name)
        return self._threads

    def _replace_dead(self) -> None:
        for w in [w for w in self._workers if w.dead or not w.alive]:
            self._workers.remove(w)
            w.close()
            w.fail(WorkerDied(f"render worker {w.process.pid} ended"))
            self.restarts += 1
            log.error("render worker %s of %s ended (restart %d of %d)", w.process.pid,
                      self.name, self.restarts, MAX_RESTARTS)
        self.start()

    def _kill_holder(self, future: asyncio.Future[Any]) -> None:
        """Kill the worker that holds ``future``'s job: it is replaced at the next job, and
        its other jobs finish in threads (the pipe's end shows it died)."""
        for w in self._workers:
            if any(f is future for f in w.pending.values()):
                log.error("render worker %s of %s did not answer in %.0f s: killed",
                          w.process.pid, self.name, self.timeout)
                w.process.kill()
                return
        with contextlib.suppress(ValueError):  # still queued here: never reached a worker
            self._queue.remove(next(j for j in self._queue if j[3] is future))

    def _dispatch(self) -> None:
        """Hand queued jobs to the least busy workers that can take more."""
        while self._queue:
            ready = [w for w in self._workers if not w.dead and
                     len(w.pending) < _Worker.IN_FLIGHT]
            if not ready:
                return
            job = self._queue.popleft()
            if not job[3].done() and not job[3].get_loop().is_closed():
                min(ready, key=lambda w: len(w.pending)).send(job)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a bot on a new loop (tests run one loop after another)
            self._loop = loop
            for w in self._workers:
                w.listen(loop)
        self._replace_dead()
        if self._workers and not self.threads_only:
            future: asyncio.Future[Any] = loop.create_future()
            self._queue.append((next(self._numbers), fn, args, future))
            self._dispatch()
            try:
                return await asyncio.wait_for(asyncio.shield(future), self.timeout)
            except WorkerDied:
                pass
            except TimeoutError:
                self._kill_holder(future)
            # The worker died (killed, out of memory): it is replaced at the next job, and
            # this image is made in a thread so that nobody waits on the restart.
        return await loop.run_in_executor(self._thread_pool(), fn, *args)

    def shutdown(self) -> None:
        for w in self._workers:
            w.close()
            w.fail(WorkerDied("shut down"))
        self._workers = []
        self._queue.clear()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None


# Background images (tables, DM edits, sheets) run at a lower priority than the hands that
# answer clicks: on a busy machine the click's answer comes first. One background worker
# keeps up with 200 tables (about half a core, bench/bench_bot.py) and, busy all the time,
# keeps its caches warm: two used more processor time per image for no gain in latency.
HANDS = Pool("belote-hand", 1, timeout=5.0)
OTHERS = Pool("belote-render", 1, niceness=10)


class HandImages:
    """The last few hand images of each seat, by what they show (rendering.keys.hand_key).

    During the bidding a hand goes back and forth between two pictures (your turn or not), so
    two per seat are kept (about 25 KB a seat). Once the cards are played a hand's picture
    never comes back (a card is gone each time), so nothing is kept then."""

    PER_SEAT = 2

    def __init__(self) -> None:
        self._seats: dict[tuple[int, int], dict[Hashable, tuple[bytes, str]]] = {}
        self.hits = self.misses = 0

    def get(self, slot: tuple[int, int], key: Hashable) -> tuple[bytes, str] | None:
        data = self._seats.get(slot, {}).get(key)
        if data is None:
            self.misses += 1
        else:
            self.hits += 1
        return data

    def put(self, slot: tuple[int, int], key: Hashable, data: tuple[bytes, str]) -> None:
        kept = self._seats.setdefault(slot, {})
        kept.pop(key, None)
        kept[key] = data  # newest last
        while len(kept) > self.PER_SEAT:
            del kept[next(iter(kept))]

    def drop(self, slot: tuple[int, int]) -> None:
        self._seats.pop(slot, None)

    def forget(self, table_id: int) -> None:
        for seat in range(4):
            self.drop((table_id, seat))

    def nbytes(self) -> int:
        return sum(len(data) for kept in self._seats.values() for data, _ in kept.values())


HAND_IMAGES = HandImages()


def warm() -> None:
    """Start the workers now (each builds the shared palette), not on the first click."""
    HANDS.start()
    OTHERS.start()


def worker_pids() -> list[int]:
    return HANDS.pids() + OTHERS.pids()


def _file(data: tuple[bytes, str], stem: str) -> discord.File:
    payload, ext = data
    return discord.File(io.BytesIO(payload), filename=f"{stem}.{ext.lstrip('.')}")


async def table_image(view: TableView) -> discord.File:
    assert view.viewer is None, "the table image is public: never a seat's view"
    return _file(await OTHERS.run(rendering.render_table, view), "table")


async def hand_image(view: TableView, *, background: bool = False,
                     slot: tuple[int, int] | None = None) -> discord.File:
    """``background`` for a DM edit nobody waits on: it queues with the table images, so the
    hand worker stays free for the hands that answer a click. ``slot`` (table, seat) keeps
    the seat's recent images, and a picture it already has is not drawn again."""
    key = hand_key(view)
    kept = slot is not None and view.stage is Stage.BIDDING
    data = HAND_IMAGES.get(slot, key) if slot is not None and kept else None
    if data is None:
        data = await (OTHERS if background else HANDS).run(rendering.render_hand, view)
    if slot is not None:
        if kept:
            HAND_IMAGES.put(slot, key, data)
        else:
            HAND_IMAGES.drop(slot)
    return _file(data, "hand")


async def deal_sheet_image(result: DealResult, variant: Variant, players: Sequence[str],
                           deal_number: int) -> discord.File:
    data = await OTHERS.run(rendering.render_deal_sheet, result, variant, players, deal_number)
    return _file(data, "deal")


async def match_image(result: rendering.MatchResult) -> discord.File:
    return _file(await OTHERS.run(rendering.render_match_result, result), "result")


async def leaderboard_image(rows: Sequence[rendering.LeaderboardRow], title: str) -> discord.File:
    return _file(await OTHERS.run(rendering.render_leaderboard, rows, title), "leaderboard")
