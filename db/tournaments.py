"""Tournaments as stored (migration 0008): the tournament, entrants, rounds and their tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .credits import Move, move

if TYPE_CHECKING:
    from .queries import Queries

# Entrant status: playing, left at sign-up (no place), or played by a computer once running.
IN, LEFT, COMPUTER = "in", "left", "computer"


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    format: str
    variant: str
    seed: int
    stage: str
    starts_at: str | None  # ISO 8601 UTC; None: when full
    entry_fee: int
    language: str = "en"  # its posts, threads and tables


@dataclass(frozen=True, slots=True)
class EntrantRow:
    user_id: int
    position: int
    status: str
    name: str | None = None  # as the tables show them (None: a computer, or not known)


@dataclass(frozen=True, slots=True)
class TableDrawRow:
    round: int
    position: int
    seats: tuple[int, int, int, int]
    table_id: int | None
    thread_id: int | None
    winner_team: int | None


_COLUMNS = ("id, guild_id, channel_id, message_id, host_id, format, variant, seed, stage,"
            " starts_at, entry_fee, language")


def _row(r: Sequence[object]) -> TournamentRow:
    return TournamentRow(*r)  # type: ignore[arg-type]


class TournamentRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    # ---- the tournament ------------------------------------------------------------------
    async def create(self, *, guild_id: int, channel_id: int, host_id: int, format: str,
                     variant: str, seed: int, starts_at: str | None,
                     entry_fee: int = 0, language: str = "en") -> TournamentRow:
        tid = await self.db.execute(
            "INSERT INTO tournaments (guild_id, channel_id, host_id, format, variant, seed,"
            " starts_at, entry_fee, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, channel_id, host_id, format, variant, seed, starts_at, entry_fee,
             language))
        assert tid is not None
        row = await self.get(tid)
        assert row is not None
        return row

    async def get(self, tournament_id: int) -> TournamentRow | None:
        r = await self.db.fetchone(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?",
                                   (tournament_id,))
        return _row(tuple(r)) if r is not None else None

    async def unfinished(self) -> list[TournamentRow]:
        """Tournaments still signing up or running, oldest first (to resume at start-up)."""
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE stage IN ('sign_up', 'running')"
            " ORDER BY id")
        return [_row(tuple(r)) for r in rows]

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await self.db.write("UPDATE tournaments SET message_id = ? WHERE id = ?",
                            (message_id, tournament_id))

    async def set_stage(self, tournament_id: int, stage: str, *, guild_id: int = 0,
                        credits: Sequence[Move] = ()) -> None:
        """``credits``: what moves with it (entry fees returned to a cancelled tournament)."""
        ended = stage in ("finished", "cancelled")
        async with self.db.transaction() as tx:
            await tx.execute(
                "UPDATE tournaments SET stage = ?, ended_at = CASE WHEN ? = 1 THEN"
                " strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE ended_at END WHERE id = ?",
                (stage, 1 if ended else 0, tournament_id))
            for m in credits:
                await move(tx, guild_id, m)

    # ---- entrants ------------------------------------------------------------------------
    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self.db.fetchall(
            "SELECT user_id, position, status, name FROM tournament_entrants"
            " WHERE tournament_id = ? ORDER BY position", (tournament_id,))
        return [EntrantRow(r[0], r[1], r[2], r[3]) for r in rows]

    async def add_entrant(self, tournament_id: int, user_id: int,
                          name: str | None = None, *, guild_id: int = 0,
                          credits: Sequence[Move] = ()) -> None:
        """``credits``: the entry fee taken (one short raises NotEnoughCredits: no entrant)."""
        async with self.db.transaction() as tx:
            for m in credits:
                await move(tx, guild_id, m)
            row = await tx.fetchone(
                "SELECT COALESCE(MAX(position), 0) + 1 FROM tournament_entrants"
                " WHERE tournament_id = ?", (tournament_id,))
            assert row is not None
            await tx.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, position, name)"
                " VALUES (?, ?, ?, ?)", (tournament_id, user_id, row[0], name))

    async def set_entrant_status(self, tournament_id: int, user_ids: Sequence[int],
                                 status: str, *, guild_id: int = 0,
                                 credits: Sequence[Move] = ()) -> None:
        async with self.db.transaction() as tx:
            for m in credits:
                await move(tx, guild_id, m)
            await tx.executemany(
                "UPDATE tournament_entrants SET status = ? WHERE tournament_id = ? AND user_id = ?",
                [(status, tournament_id, u) for u in user_ids])

    # ---- rounds and tables ---------------------------------------------------------------
    async def add_round(self, tournament_id: int, number: int,
                        draws: Sequence[tuple[int, int, int, int]],
                        stage: str | None = None) -> None:
        """A round and its drawn tables, in one transaction (with the tournament's new stage
        when given: the first round and 'running' are saved together)."""
        async with self.db.transaction() as tx:
            if stage is not None:
                await tx.execute("UPDATE tournaments SET stage = ? WHERE id = ?",
                                 (stage, tournament_id))
            await tx.execute("INSERT INTO tournament_rounds (tournament_id, round) VALUES (?, ?)",
                             (tournament_id, number))
            await tx.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, position, seat0, seat1,"
                " seat2, seat3) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tournament_id, number, i, *seats) for i, seats in enumerate(draws)])

    async def tables(self, tournament_id: int) -> list[TableDrawRow]:
        rows = await self.db.fetchall(
            "SELECT round, position, seat0, seat1, seat2, seat3, table_id, thread_id, winner_team"
            " FROM tournament_tables WHERE tournament_id = ? ORDER BY round, position",
            (tournament_id,))
        return [TableDrawRow(r[0], r[1], (r[2], r[3], r[4], r[5]), r[6], r[7], r[8])
                for r in rows]

    async def link_table(self, tournament_id: int, round_: int, position: int, table_id: int,
                         thread_id: int | None = None) -> None:
        await self.db.write(
            "UPDATE tournament_tables SET table_id = ?, thread_id = ?"
            " WHERE tournament_id = ? AND round = ? AND position = ?",
            (table_id, thread_id, tournament_id, round_, position))

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        await self.db.write("UPDATE tournament_tables SET thread_id = ? WHERE table_id = ?",
                            (thread_id, table_id))

    async def of_table(self, table_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, position) of a bot table, if it is a tournament table."""
        r = await self.db.fetchone(
            "SELECT tournament_id, round, position FROM tournament_tables WHERE table_id = ?",
            (table_id,))
        return (r[0], r[1], r[2]) if r is not None else None

    async def podiums(self, guild_id: int, variant: str, user_id: int) -> tuple[int, int]:
        """(tournaments won, second places) of a member in the server's finished tournaments
        of ``variant``: the pairs of each final's winning and losing team."""
        row = await self.db.fetchone(
            "SELECT COALESCE(SUM(CASE WHEN (t.winner_team = 0 AND ? IN (t.seat0, t.seat2))"
            " OR (t.winner_team = 1 AND ? IN (t.seat1, t.seat3)) THEN 1 ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN (t.winner_team = 1 AND ? IN (t.seat0, t.seat2))"
            " OR (t.winner_team = 0 AND ? IN (t.seat1, t.seat3)) THEN 1 ELSE 0 END), 0)"
            " FROM tournament_tables t JOIN tournaments n ON n.id = t.tournament_id"
            " WHERE n.guild_id = ? AND n.variant = ? AND n.stage = 'finished'"
            " AND t.round = (SELECT MAX(x.round) FROM tournament_tables x"
            " WHERE x.tournament_id = t.tournament_id)",
            (user_id, user_id, user_id, user_id, guild_id, variant))
        assert row is not None
        return int(row[0]), int(row[1])

    async def record_winner(self, tournament_id: int, round_: int, position: int,
                            winner_team: int, *, finished: bool = False, guild_id: int = 0,
                            credits: Sequence[Move] = ()) -> bool:
        """The winning team of a table; False if it was recorded already (a repeated event).
        ``finished``: the final's result, saved with the tournament's end (and ``credits``,
        its prizes)."""
        async with self.db.transaction() as tx:
            row = await tx.fetchone(
                "SELECT winner_team FROM tournament_tables"
                " WHERE tournament_id = ? AND round = ? AND position = ?",
                (tournament_id, round_, position))
            if row is None or row[0] is not None:
                return False
            await tx.execute(
                "UPDATE tournament_tables SET winner_team = ?"
                " WHERE tournament_id = ? AND round = ? AND position = ?",
                (winner_team, tournament_id, round_, position))
            if finished:
                await tx.execute(
                    "UPDATE tournaments SET stage = 'finished',"
                    " ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                    (tournament_id,))
                for m in credits:
                    await move(tx, guild_id, m)
        return True

    async def table_end(self, table_id: int) -> tuple[int, str, int | None] | None:
        """(host, status, winning team of its recorded match or None) of a bot table: what a
        restart needs to settle a tournament table that ended while the bot was away."""
        r = await self.db.fetchone(
            "SELECT t.host_id, t.status, m.winner_team FROM tables t"
            " LEFT JOIN matches m ON m.table_id = t.id WHERE t.id = ?", (table_id,))
        return (r[0], r[1], r[2]) if r is not None else None
