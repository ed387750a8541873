"""Sharded processes on one PostgreSQL: which process runs a shard, and clicks carried to it.

A process runs a shard while it holds the session advisory lock ``(SHARD_LOCKS, shard)`` on a
connection of its own. PostgreSQL releases the lock when that connection ends, so a killed
process frees its shards at once and its restart (or another process) takes them over: no
lease to expire, nothing to clean up.

Discord sends every direct-message interaction to shard 0. A click on a hand whose table lives
in another process is put in ``routed_clicks`` and its owner told by ``NOTIFY belote_click``;
the owner, which ``LISTEN``s, takes the row (deletes it, so a click is taken once) and says so
with ``NOTIFY belote_taken``. The sender waits for that, and when no owner takes the click in
time it takes the row back itself and the click is answered as undeliverable. The reasons for
this design are in docs/deploy.md.

A row is a click only if it is signed (migration 0018): an HMAC-SHA256 of its shard, table and
payload under the bot's click key, which every process derives from the bot's token (or a
configured secret) and which the database never holds. A row anyone else wrote in the table
(without the key) is ignored and logged, left for its "sender" to take back; so are rows a
process of the previous version queued during an upgrade (unsigned): their sender takes them
back after its wait and tells the member the click could not be carried, as when no process
takes one.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncpg

    from .postgres import PostgresDatabase

log = logging.getLogger(__name__)

# The key space of the shard locks (the table ids' space, 4242001, is the migrations' lock).
SHARD_LOCKS = 4242002
CLICK = "belote_click"
TAKEN = "belote_taken"


class ShardTaken(RuntimeError):
    """Another process runs this shard (it holds the shard's lock)."""


def signature(key: bytes, shard: int, table_id: int, payload: str) -> str:
    """The signature of a routed click: what it is for (shard, table) and what it says."""
    message = f"{shard}:{table_id}:".encode() + payload.encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


class ClickRoutes:
    """One process's end of the routes: the shards it runs, clicks sent and taken."""

    def __init__(self, db: PostgresDatabase, on_click: Callable[[dict[str, Any]], None],
                 on_lost: Callable[[], None], *, key: bytes) -> None:
        self.db = db
        self.key = key  # signs the clicks this process sends, checks those it takes
        self.on_click = on_click  # a click taken for one of our tables (its INTERACTION_CREATE)
        self.on_lost = on_lost  # the shards could not be held again: stop running them
        self.shards: tuple[int, ...] = ()
        self._wait, self._every = 30.0, 0.5
        self._conn: asyncpg.Connection | None = None
        self._waiting: dict[int, asyncio.Future[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, shards: Sequence[int], *, wait: float = 30.0,
                    every: float = 0.5) -> None:
        """Take the lock of each shard (waiting up to ``wait`` seconds for a process that
        just died to let go of it), then listen. ShardTaken if one stays held."""
        self._conn = await self._locked(shards, wait, every)
        self.shards, self._wait, self._every = tuple(shards), wait, every
        # Clicks left by a process that died before taking them: their answer time is long gone.
        for shard in shards:
            await self.db.write("DELETE FROM routed_clicks WHERE shard = ?", (shard,))

    async def _locked(self, shards: Sequence[int], wait: float,
                      every: float) -> asyncpg.Connection:
        from .postgres import _asyncpg
        conn: asyncpg.Connection = await _asyncpg().connect(self.db.url)
        try:
            for shard in shards:
                loop = asyncio.get_running_loop()
                deadline = loop.time() + wait
                while not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)",
                                              SHARD_LOCKS, shard):
                    if loop.time() >= deadline:
                        raise ShardTaken(f"shard {shard} is run by another process (it holds "
                                         f"the shard's lock in {self.db.path})")
                    await asyncio.sleep(every)
            await conn.add_listener(CLICK, self._heard_click)
            await conn.add_listener(TAKEN, self._heard_taken)
        except BaseException:
            await conn.close()
            raise
        conn.add_termination_listener(self._lost)
        return conn

    def _lost(self, conn: object) -> None:
        """The lock connection ended (PostgreSQL restarted, the network cut): our shards are
        free for any process. Take them again; if another process was quicker, this one
        must stop running them (``on_lost``)."""
        if conn is not self._conn:
            return
        log.warning("the connection that holds the locks of shards %s ended; taking them "
                    "again", list(self.shards))
        task = asyncio.get_running_loop().create_task(self._retake(), name="belote-shard-locks")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _retake(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._wait
        while True:
            try:
                self._conn = await self._locked(self.shards, self._wait, self._every)
                log.info("the locks of shards %s are held again", list(self.shards))
                return
            except ShardTaken as e:
                log.error("%s: this process stops running them", e)
                break
            except (OSError, ConnectionError) as e:  # PostgreSQL still down
                if loop.time() >= deadline:
                    log.error("cannot take the locks of shards %s again (%s): this process "
                              "stops running them", list(self.shards), e)
                    break
                await asyncio.sleep(self._every)
        self._conn = None
        self.on_lost()

    async def running(self, shard: int) -> bool:
        """Whether some process runs ``shard`` now (holds its lock)."""
        row = await self.db.fetchone(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid = ? AND objid = ? AND objsubid = 2", (SHARD_LOCKS, shard))
        return row is not None and row[0] > 0

    async def send(self, shard: int, table_id: int, payload: dict[str, Any], *,
                   timeout: float = 2.0) -> bool:
        """Carry an interaction to the process of ``shard``. True once its owner took it;
        False when no process runs that shard or none took it within ``timeout`` seconds
        (then it is taken back here, so it is never answered twice)."""
        if not await self.running(shard):
            return False
        taken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        text = json.dumps(payload)
        async with self.db.transaction() as tx:
            click_id = await tx.execute(
                "INSERT INTO routed_clicks (shard, table_id, payload, signature)"
                " VALUES (?, ?, ?, ?)",
                (shard, table_id, text, signature(self.key, shard, table_id, text)))
            assert click_id is not None
            # Before the commit sends the NOTIFY: the owner's answer cannot come first.
            self._waiting[click_id] = taken
            await tx.execute("SELECT pg_notify(?, ?)", (CLICK, f"{shard}:{click_id}"))
        try:
            await asyncio.wait_for(asyncio.shield(taken), timeout)
            return True
        except TimeoutError:
            async with self.db.transaction() as tx:
                back = await tx.fetchone("DELETE FROM routed_clicks WHERE id = ? AND shard = ?"
                                         " RETURNING id", (click_id, shard))
            return back is None  # gone: the owner took it after all
        finally:
            self._waiting.pop(click_id, None)

    def _heard_click(self, _conn: object, _pid: int, _channel: str, message: object) -> None:
        shard, _, click_id = str(message).partition(":")
        if not (shard.isdigit() and click_id.isdigit()):
            log.warning("a click notice that names no click: %.80r", str(message))
            return
        if int(shard) in self.shards:
            task = asyncio.get_running_loop().create_task(
                self._take(int(shard), int(click_id)), name=f"belote-routed-{click_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _take(self, shard: int, click_id: int) -> None:
        """Take the click ``click_id`` queued for our ``shard``, if it is signed with the
        bot's key; a row without a valid signature is logged and left where it is."""
        async with self.db.transaction() as tx:
            row = await tx.fetchone("SELECT table_id, payload, signature FROM routed_clicks"
                                    " WHERE id = ? AND shard = ?", (click_id, shard))
            if row is None:  # taken back by its sender, or queued for another shard
                log.info("routed click %s is not queued for shard %s", click_id, shard)
                return
            table_id, text, signed = int(row[0]), str(row[1]), row[2]
            if signed is None or not hmac.compare_digest(
                    str(signed), signature(self.key, shard, table_id, text)):
                log.warning("routed click %s for table %s on shard %s is not signed with the "
                            "bot's key: ignored", click_id, table_id, shard)
                return
            taken = await tx.fetchone("DELETE FROM routed_clicks WHERE id = ? AND shard = ?"
                                      " RETURNING id", (click_id, shard))
            if taken is not None:
                await tx.execute("SELECT pg_notify(?, ?)", (TAKEN, str(click_id)))
        if taken is not None:
            self.on_click(json.loads(text))

    def _heard_taken(self, _conn: object, _pid: int, _channel: str, message: object) -> None:
        waiting = self._waiting.get(int(str(message)))
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    async def close(self) -> None:
        """Let go of the shards (ends the lock connection)."""
        conn, self._conn = self._conn, None  # its end is not a loss
        for task in list(self._tasks):
            await asyncio.gather(task, return_exceptions=True)
        if conn is not None and not conn.is_closed():
            await conn.close()

    def abandon(self) -> None:
        """As a killed process: the connection is cut, nothing is finished (tests)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()
