"""The append-only action log: a table's game record, one row per step.

A row is either the start of a deal (``kind='deal'``, ``{"dealer": n, "deck": [...]}``) or an
action in the record format (``kind='action'``, ``{"seat": n, "action": ...}``). Sequence
numbers start at 0 and have no gaps; (table_id, seq) is unique, so a second writer of the same
step fails instead of forking the game.

Tables append at once, and each append is a trip to the database that the others queue
behind. While one write is on its way, the appends that come in wait together and go in the
next write, one statement for all of them (group commit): under load a trip carries the
moves of many tables, and a move waits for at most the write ahead of it and its own. Each
append still stands or falls alone: if a shared statement fails, its appends are written
again one by one, so one table's broken step refuses only that table's move.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .queries import Queries, Transaction


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    kind: str  # 'deal' or 'action'
    payload: dict[str, Any]
    user_id: int | None = None


# Rows of one shared INSERT at most (5 values a row: well under SQLite's and PostgreSQL's
# limits on a statement's parameters). An append is never split across statements.
ROWS_PER_STATEMENT = 500

_Append = tuple[int, list[LogEntry], asyncio.Future[None]]  # (table, its steps, their outcome)


class ActionLog:
    def __init__(self, db: Queries) -> None:
        self.db = db
        self._waiting: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None

    async def append(self, table_id: int, entries: list[LogEntry]) -> None:
        """Append steps atomically (all or none), written with the other tables' appends
        that wait at the same time; returns once they are in the database."""
        if not entries:
            return
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((table_id, entries, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write(), name="belote-log")
        # A caller that stops waiting (its future cancelled) does not stop the write: its
        # step is logged anyway, as a statement already sent to the database would be.
        await done

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = _first_rows(self._waiting)
            try:
                await self._write_batch(batch)
            finally:
                for _, _, done in batch:
                    done.cancel()  # only those left unsettled by a stopped writer (shutdown)

    async def _write_batch(self, batch: list[_Append]) -> None:
        try:
            await self.db.write(*_insert_many([(t, e) for t, e, _ in batch]))
        except Exception as e:
            if len(batch) == 1:
                _settle(batch[0][2], e)
                return
            for table_id, entries, done in batch:  # one by one: who broke it fails alone
                try:
                    await self.db.write(*_insert_many([(table_id, entries)]))
                except Exception as alone:
                    _settle(done, alone)
                else:
                    _settle(done, None)
        else:
            for _, _, done in batch:
                _settle(done, None)

    async def entries(self, table_id: int) -> list[LogEntry]:
        rows = await self.db.fetchall(
            "SELECT seq, kind, payload, user_id FROM actions WHERE table_id = ? ORDER BY seq",
            (table_id,))
        return [LogEntry(r[0], r[1], p, r[3]) for r, p in zip(rows, _payloads(rows),
                                                             strict=True)]

    async def actors(self, table_id: int) -> set[int]:
        """The people who acted at this table (a bid, a card) at least once."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT user_id FROM actions WHERE table_id = ? AND user_id IS NOT NULL",
            (table_id,))
        return {int(r[0]) for r in rows}


def _payloads(rows: list[Any]) -> list[Any]:
    """The rows' payloads (their third column) parsed: in one go, as one JSON array (a
    match's record is hundreds of rows, and parsing each alone cost most of the match page's
    read), or one by one when that array does not parse into as many values (a row that is
    not one JSON value then fails as alone)."""
    try:
        payloads = json.loads("[" + ",".join([r[2] for r in rows]) + "]")
    except (ValueError, TypeError):  # TypeError: a payload not text
        payloads = None
    if not isinstance(payloads, list) or len(payloads) != len(rows):
        payloads = [json.loads(r[2]) for r in rows]
    return payloads


def _first_rows(waiting: list[_Append]) -> tuple[list[_Append], list[_Append]]:
    """The appends that go in the next statement (whole appends, up to ROWS_PER_STATEMENT
    rows, at least one) and those left for the statements after it."""
    rows = 0
    for n, (_, entries, _) in enumerate(waiting):
        rows += len(entries)
        if rows > ROWS_PER_STATEMENT and n > 0:
            return waiting[:n], waiting[n:]
    return waiting, []


def _settle(done: asyncio.Future[None], error: Exception | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


async def append_in(tx: Transaction, table_id: int, entries: list[LogEntry]) -> None:
    """Append steps as part of the caller's transaction (e.g. with the match's result)."""
    if entries:
        await tx.execute(*_insert_many([(table_id, entries)]))


def _insert_many(appends: list[tuple[int, list[LogEntry]]]) -> tuple[str, list[object]]:
    """One INSERT statement for the steps of these appends, and its parameters."""
    params: list[object] = []
    for table_id, entries in appends:
        for e in entries:
            params += [table_id, e.seq, e.kind, json.dumps(e.payload, separators=(",", ":")),
                       e.user_id]
    rows = ", ".join(["(?, ?, ?, ?, ?)"] * (len(params) // 5))
    return f"INSERT INTO actions (table_id, seq, kind, payload, user_id) VALUES {rows}", params


def to_record(variant: str, options: dict[str, Any], players: list[str] | None,
              entries: list[LogEntry]) -> dict[str, Any]:
    """The game record (docs/game-record.md) these log entries make."""
    deals: list[dict[str, Any]] = []
    for e in entries:
        if e.kind == "deal":
            deals.append({"dealer": e.payload["dealer"], "deck": list(e.payload["deck"]),
                          "actions": []})
        elif deals:
            deals[-1]["actions"].append(e.payload)
        else:
            raise ValueError(f"action at seq {e.seq} before any deal")
    record: dict[str, Any] = {"format": "belote-record/1", "variant": variant,
                              "options": options, "deals": deals}
    if players is not None:
        record["players"] = players
    return record
