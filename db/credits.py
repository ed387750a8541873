"""Virtual credits: the append-only ledger and each member's balance (migration 0014).

Every movement is one ledger row and one balance update, in the caller's transaction, so a
movement lands with what it pays for (a match result, a tournament's end) or not at all. Each
movement has a key, unique in its server: a payout retried after a crash finds its key and
moves nothing, so credits are neither lost nor paid twice. A balance never goes below zero:
it is moved in the database (``balance = balance + ?``) only when the result is not negative,
so two processes moving one member's credits at once cannot overdraw it (each sees the other's
committed balance), and the schema's CHECK stands behind it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .queries import Queries, Transaction


class NotEnoughCredits(Exception):
    """The movement would take a balance below zero; nothing was written."""

    def __init__(self, balance: int, needed: int) -> None:
        super().__init__(f"balance {balance}, needed {needed}")
        self.balance, self.needed = balance, needed


@dataclass(frozen=True, slots=True)
class Movement:
    amount: int
    balance: int  # after it
    reason: str
    table_id: int | None
    tournament_id: int | None
    created_at: str


@dataclass(frozen=True, slots=True)
class Move:
    """One movement to make: ``amount`` (negative: taken) for ``reason``, once per ``key``."""

    user_id: int
    amount: int
    reason: str
    key: str
    table_id: int | None = None
    tournament_id: int | None = None


async def balance_in(tx: Transaction, guild_id: int, user_id: int) -> int | None:
    row = await tx.fetchone("SELECT balance FROM credit_balances WHERE guild_id = ? AND"
                            " user_id = ?", (guild_id, user_id))
    return None if row is None else int(row[0])


async def done(tx: Transaction, guild_id: int, key: str) -> bool:
    return await tx.fetchone("SELECT 1 FROM credit_ledger WHERE guild_id = ? AND key = ?",
                             (guild_id, key)) is not None


async def move(tx: Transaction, guild_id: int, m: Move) -> int | None:
    """Make ``m`` inside the caller's transaction; the balance after it, or None when its key
    was moved before (nothing is written). Raises NotEnoughCredits, writing nothing."""
    if await done(tx, guild_id, m.key):
        return None
    if m.amount > 0:  # a new member's first credits make their balance
        row = await tx.fetchone(
            "INSERT INTO credit_balances (guild_id, user_id, balance) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE"
            " SET balance = credit_balances.balance + excluded.balance RETURNING balance",
            (guild_id, m.user_id, m.amount))
    else:  # taken only from a balance that covers it, as it is when the statement runs
        row = await tx.fetchone(
            "UPDATE credit_balances SET balance = balance + ? WHERE guild_id = ? AND"
            " user_id = ? AND balance + ? >= 0 RETURNING balance",
            (m.amount, guild_id, m.user_id, m.amount))
    if row is None:
        raise NotEnoughCredits(await balance_in(tx, guild_id, m.user_id) or 0, -m.amount)
    after = int(row[0])
    await tx.execute(
        "INSERT INTO credit_ledger (guild_id, user_id, amount, balance, reason, table_id,"
        " tournament_id, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, m.user_id, m.amount, after, m.reason, m.table_id, m.tournament_id, m.key))
    return after


class CreditsRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def apply(self, guild_id: int, moves: list[Move]) -> list[int | None]:
        """Several movements in one transaction: all of them, or (one short of credits)
        none."""
        async with self.db.transaction() as tx:
            return [await move(tx, guild_id, m) for m in moves]

    async def balance(self, guild_id: int, user_id: int) -> int | None:
        """None: this member never had credits here (their starting grant is still due)."""
        row = await self.db.fetchone("SELECT balance FROM credit_balances WHERE guild_id = ?"
                                     " AND user_id = ?", (guild_id, user_id))
        return None if row is None else int(row[0])

    async def history(self, guild_id: int, user_id: int, limit: int = 10) -> list[Movement]:
        rows = await self.db.fetchall(
            "SELECT amount, balance, reason, table_id, tournament_id, created_at"
            " FROM credit_ledger WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, user_id, limit))
        return [Movement(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def paid(self, guild_id: int, tournament_id: int, reason: str) -> dict[int, int]:
        """What each member got (or paid) for ``reason`` in a tournament (its prizes)."""
        rows = await self.db.fetchall(
            "SELECT user_id, SUM(amount) FROM credit_ledger WHERE guild_id = ? AND"
            " tournament_id = ? AND reason = ? GROUP BY user_id ORDER BY MIN(id)",
            (guild_id, tournament_id, reason))
        return {r[0]: int(r[1]) for r in rows}

    async def richest(self, guild_id: int, limit: int = 10) -> list[tuple[int, int]]:
        """(member, balance), the richest first."""
        rows = await self.db.fetchall(
            "SELECT user_id, balance FROM credit_balances WHERE guild_id = ?"
            " ORDER BY balance DESC, user_id LIMIT ?", (guild_id, limit))
        return [(r[0], r[1]) for r in rows]

    async def rank(self, guild_id: int, user_id: int) -> int | None:
        mine = await self.balance(guild_id, user_id)
        if mine is None:
            return None
        row = await self.db.fetchone(
            "SELECT COUNT(*) FROM credit_balances WHERE guild_id = ? AND (balance > ? OR"
            " (balance = ? AND user_id < ?))", (guild_id, mine, mine, user_id))
        assert row is not None
        return int(row[0]) + 1

    async def sums(self, guild_id: int) -> tuple[int, int, dict[str, int]]:
        """(the balances' sum, the ledger's sum, the ledger's sum per reason): the first two
        are always equal, and credits only enter by grants and daily bonuses."""
        balances = await self.db.fetchone(
            "SELECT COALESCE(SUM(balance), 0) FROM credit_balances WHERE guild_id = ?",
            (guild_id,))
        per_reason = await self.db.fetchall(
            "SELECT reason, SUM(amount) FROM credit_ledger WHERE guild_id = ? GROUP BY reason",
            (guild_id,))
        assert balances is not None
        reasons = {r[0]: int(r[1]) for r in per_reason}
        return int(balances[0]), sum(reasons.values()), reasons
