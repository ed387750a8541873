"""What each table and hand message was confirmed to show, kept for the next start.

Once Discord confirms an edit, the message's digest (bot/digests.py) is recorded, so that a
restart edits and renders nothing that is already right (Delivery.load_shown). The records are
written in the background by one writer: the newest digest of a message wins, and everything
noted while a write is on its way, or in the PAUSE after it, goes in the next one, as one
statement. Under load many confirmations then cost one trip to the database, not one each, and
the database's one connection is free for the moves being logged: at 200 busy tables, writing
again as soon as the last write ended kept a write of these records on its way nearly all the
time, and each move's own write waited behind one (31 ms at p50, bench/bench_bot.py). A record
still on its way when the process dies costs that message one edit at the next start; a clean
stop (``flush``) writes them all at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from db.tables import ShownRow, TableRepo

log = logging.getLogger(__name__)

TABLE_SLOT = -1  # the table message's slot (0-3: the seats' hands)

Key = tuple[int, int]  # (table id, slot)

# Seconds between the end of one write and the next: the records matter only at the next start.
PAUSE = 1.0


class ShownRecords:
    """The digests recorded (or on their way) for the open tables' messages."""

    def __init__(self, repo: Callable[[], TableRepo], *, pause: float | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._repo = repo
        self._pause = PAUSE if pause is None else pause
        self._sleep = sleep
        self._hurry = asyncio.Event()  # flush: no more pauses
        self._stored: dict[Key, str] = {}
        self._unsaved: dict[Key, ShownRow] = {}
        self._writer: asyncio.Task[None] | None = None

    async def load(self) -> None:
        """Read back what was recorded for the open tables (at start; anything noted before
        is newer, and kept)."""
        self._stored = {**await self._repo().shown(), **self._stored}

    def get(self, key: Key) -> str | None:
        return self._stored.get(key)

    def note(self, table_id: int, slot: int, digest: str,
             turn: tuple[int, float] | None = None) -> None:
        """Discord confirmed that this message shows ``digest`` (and ``turn``, the step and
        deadline a table message shows): record it in the background."""
        key = (table_id, slot)
        if self._stored.get(key) == digest:
            return
        self._stored[key] = digest
        seq, deadline = turn if turn is not None else (None, None)
        self._unsaved[key] = ShownRow(table_id, slot, digest, seq, deadline)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write(), name="belote-shown")

    def forget(self, table_id: int) -> None:
        """A table that closed: its messages need no record any more."""
        for slot in range(TABLE_SLOT, 4):
            self._stored.pop((table_id, slot), None)
            self._unsaved.pop((table_id, slot), None)

    async def _write(self) -> None:
        while self._unsaved:
            batch, self._unsaved = self._unsaved, {}
            try:
                await self._repo().set_shown_many(list(batch.values()))
            except Exception as e:  # the messages are shown all the same: a restart re-sends
                log.warning("could not record what %d message(s) show (%s)", len(batch), e)
                for key, row in batch.items():
                    # Not recorded: the same digest noted again later is written then.
                    if self._stored.get(key) == row.digest and key not in self._unsaved:
                        del self._stored[key]
            await self._rest()

    async def _rest(self) -> None:
        """The pause after a write, cut short by ``flush``."""
        if self._pause <= 0 or self._hurry.is_set():
            return
        resting = asyncio.ensure_future(self._sleep(self._pause))
        hurried = asyncio.ensure_future(self._hurry.wait())
        try:
            await asyncio.wait((resting, hurried), return_when=asyncio.FIRST_COMPLETED)
        finally:
            resting.cancel()
            hurried.cancel()

    async def flush(self) -> None:
        """Write every record now, without pauses, and wait until they are written (a clean
        stop, before the database closes)."""
        self._hurry.set()
        while self._writer is not None and not self._writer.done():
            await self._writer
