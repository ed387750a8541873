"""The one place the bot turns views into image files: rendering/ runs in worker processes.

Pillow holds the GIL for most of its drawing and quantizing, so render threads in the bot's
process would take turns with the event loop (bench/bench_bot.py measured clicks queueing past
Discord's 3 s at 200 tables that way). Images are made in worker processes instead, started
once (forkserver: a clean process that imported only rendering/), each building the shared
palette and its sprites once. The views and results cross as pickles (a view is ~600 bytes,
~0.05 ms). If the pool cannot start or breaks, rendering goes on in threads and says so.

Hand images answer a click (the player waits for them); table images and sheets do not, so
they have workers of their own and a queue of table images never delays anybody's answer.
File names never say anything about the cards.
"""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import os
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import discord

import rendering
from game.rules import Variant
from game.scoring import DealResult
from game.view import TableView
from rendering import worker
from rendering.keys import hand_key

log = logging.getLogger(__name__)

# At most this many pool restarts before rendering stays in threads for good.
MAX_RESTARTS = 3


class Pool:
    """Worker processes for one kind of job, falling back to threads if processes fail."""

    def __init__(self, name: str, workers: int, *, niceness: int = 0) -> None:
        self.name = name
        self.workers = workers
        self.niceness = niceness
        self.restarts = 0
        self._executor: Executor | None = None
        self._threads: ThreadPoolExecutor | None = None

    def _start(self) -> Executor:
        if self.restarts >= MAX_RESTARTS or os.environ.get("BELOTE_RENDER_THREADS"):
            return self._thread_pool()
        try:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context(
                "forkserver" if "forkserver" in methods else "spawn")
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload(["rendering.worker"])
            executor = ProcessPoolExecutor(self.workers, mp_context=context,
                                           initializer=worker.start,
                                           initargs=(self.niceness,))
            for _ in range(self.workers):  # start and warm them now, not on the first click
                executor.submit(worker.ping)
            return executor
        except (OSError, ImportError, NotImplementedError, BrokenExecutor):
            log.exception("render workers %s could not start: rendering in threads", self.name)
            self.restarts = MAX_RESTARTS
            return self._thread_pool()

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix=self.name)
        return self._threads

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = self._start()
        return self._executor

    @property
    def in_processes(self) -> bool:
        return isinstance(self.executor, ProcessPoolExecutor)

    def pids(self) -> list[int]:
        """The worker processes' ids (for benchmarks: their CPU time)."""
        executor = self._executor
        if isinstance(executor, ProcessPoolExecutor):
            return [p.pid for p in list(executor._processes.values()) if p.pid is not None]
        return []

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        executor = self.executor
        try:
            return await loop.run_in_executor(executor, fn, *args)
        except BrokenExecutor:
            # A worker died (killed, out of memory): start a new pool, and render this
            # image in a thread so that nobody waits on the restart.
            if self._executor is executor:
                self.restarts += 1
                log.error("render workers %s broke (restart %d of %d)", self.name,
                          self.restarts, MAX_RESTARTS)
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._thread_pool(), fn, *args)

    def shutdown(self) -> None:
        for executor in (self._executor, self._threads):
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._threads = None


# Background images (tables, DM edits, sheets) run at a lower priority than the hands that
# answer clicks: on a busy machine the click's answer comes first.
HANDS = Pool("belote-hand", 1)
OTHERS = Pool("belote-render", 2, niceness=5)


class HandImages:
    """The last few hand images of each seat, by what they show (rendering.keys.hand_key).

    During the bidding a hand goes back and forth between two pictures (your turn or not), so
    two per seat are kept: about 25 KB a seat, forgotten with the table."""

    PER_SEAT = 2

    def __init__(self) -> None:
        self._seats: dict[tuple[int, int], dict[Hashable, tuple[bytes, str]]] = {}

    def get(self, slot: tuple[int, int], key: Hashable) -> tuple[bytes, str] | None:
        return self._seats.get(slot, {}).get(key)

    def put(self, slot: tuple[int, int], key: Hashable, data: tuple[bytes, str]) -> None:
        kept = self._seats.setdefault(slot, {})
        kept.pop(key, None)
        kept[key] = data  # newest last
        while len(kept) > self.PER_SEAT:
            del kept[next(iter(kept))]

    def forget(self, table_id: int) -> None:
        for seat in range(4):
            self._seats.pop((table_id, seat), None)

    def nbytes(self) -> int:
        return sum(len(data) for kept in self._seats.values() for data, _ in kept.values())


HAND_IMAGES = HandImages()


def warm() -> None:
    """Start the workers now (each builds the shared palette), not on the first click."""
    HANDS.executor, OTHERS.executor  # noqa: B018 -- starting them is the point


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
    data = HAND_IMAGES.get(slot, key) if slot is not None else None
    if data is None:
        data = await (OTHERS if background else HANDS).run(rendering.render_hand, view)
    if slot is not None:
        HAND_IMAGES.put(slot, key, data)
    return _file(data, "hand")


async def deal_sheet_image(result: DealResult, variant: Variant, players: Sequence[str],
                           deal_number: int) -> discord.File:
    data = await OTHERS.run(rendering.render_deal_sheet, result, variant, players, deal_number)
    return _file(data, "deal")


async def match_image(result: rendering.MatchResult) -> discord.File:
    return _file(await OTHERS.run(rendering.render_match_result, result), "result")


async def leaderboard_image(rows: Sequence[rendering.LeaderboardRow], title: str) -> discord.File:
    return _file(await OTHERS.run(rendering.render_leaderboard, rows, title), "leaderboard")
