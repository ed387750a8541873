"""Tables, their seats and their invitations."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .credits import Move, move
from .log import LogEntry, append_in

if TYPE_CHECKING:
    import aiosqlite

    from .queries import Queries, Transaction



class TableStatus(StrEnum):
    """Where a table is in its life. The values are what the database holds (live servers'
    rows too): never change one."""

    LOBBY = "lobby"  # seats being taken
    PLAYING = "playing"
    FINISHED = "finished"  # the match was won (its result is stored)
    ENDED = "ended"  # closed before a winner: by its host, a moderator, or everybody leaving


OPEN_STATUSES = (TableStatus.LOBBY, TableStatus.PLAYING)
# The SQL list of the open statuses, for ``status IN (...)``.
_OPEN_SQL = ", ".join(f"'{s.value}'" for s in OPEN_STATUSES)


@dataclass(slots=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    host_id: int
    variant: str
    options: dict[str, Any]
    private: bool
    status: TableStatus
    seed: int
    first_dealer: int
    created_at: str
    ended_at: str | None
    turn_timer: int | None = None  # seconds a person has to act; None: no timer
    computer_level: str | None = None  # computers that fill or take over; None: the default
    # When the sweeper closes the table if nothing happens first (Unix seconds); None: unset.
    sweep_at: float | None = None
    # The server's settings when it opened; None: the defaults (a table from before them).
    lobby_minutes: int | None = None
    idle_minutes: int | None = None
    away_turns: int | None = None
    language: str = "en"  # what the table's public messages and images are written in
    stake: int = 0  # virtual credits each player stakes (0: none)
    # Whether a person's only legal card is played for them (migration 0022; NULL: on).
    autoplay: bool = True

    @property
    def home_id(self) -> int:
        """The channel the table's messages go to: its thread, or the channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @staticmethod
    def from_row(row: aiosqlite.Row) -> TableRow:
        return TableRow(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            thread_id=row["thread_id"], message_id=row["message_id"], host_id=row["host_id"],
            variant=row["variant"], options=json.loads(row["options"]),
            private=bool(row["private"]), status=TableStatus(row["status"]), seed=row["seed"],
            first_dealer=row["first_dealer"], created_at=row["created_at"],
            ended_at=row["ended_at"], turn_timer=row["turn_timer"],
            computer_level=row["computer_level"], sweep_at=row["sweep_at"],
            lobby_minutes=row["lobby_minutes"], idle_minutes=row["idle_minutes"],
            away_turns=row["away_turns"], language=row["language"], stake=row["stake"],
            autoplay=row["autoplay"] is None or bool(row["autoplay"]))


# Why a seat's person no longer plays it (seats.departed).
LEFT, KICKED = "left", "kicked"


@dataclass(slots=True)
class SeatRow:
    table_id: int
    seat: int
    user_id: int | None
    name: str
    computer: str | None = None  # the level of the computer playing this seat
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    dm_closed: bool = False
    timed_out: bool = False  # the computer standing in took over when time ran out
    departed: str | None = None  # LEFT or KICKED: why its person no longer plays it
    missed: int = 0  # turns in a row its person let the timer run out

    @property
    def is_human(self) -> bool:
        """A person plays it now (no computer standing in)."""
        return self.computer is None and self.user_id is not None

    @staticmethod
    def from_row(row: aiosqlite.Row) -> SeatRow:
        return SeatRow(
            table_id=row["table_id"], seat=row["seat"], user_id=row["user_id"],
            name=row["name"], computer=row["computer"], dm_channel_id=row["dm_channel_id"],
            dm_message_id=row["dm_message_id"], dm_closed=bool(row["dm_closed"]),
            timed_out=bool(row["timed_out"]), departed=row["departed"], missed=row["missed"])


@dataclass(frozen=True, slots=True)
class ChoiceRow:
    """A player's choices for their coming cards in one deal (1-based)."""

    table_id: int
    seat: int
    deal: int
    declare: list[list[str]] | None  # the announced cards by name; None: the best
    belote: bool = True
    # The action chosen ahead of the seat's turn (an action code: "play.JH", "pass"; None:
    # none), and the seat's count of actions in the deal when it was chosen (migration 0023).
    ahead: str | None = None
    ahead_at: int = 0


class ShownRow(NamedTuple):
    """What one message shows, as recorded once Discord confirmed it (slot -1: the table
    message; 0-3: a seat's hand), with the step and turn deadline a table message shows."""

    table_id: int
    slot: int
    digest: str
    turn_seq: int | None = None
    deadline: float | None = None


# Rows of ``shown`` written by one statement: 5 parameters each, far below SQLite's limit.
SHOWN_PER_STATEMENT = 200


class ShardPart(Protocol):
    """The shards in all and the ones a process runs (the bot's sharding.Shards)."""

    @property
    def count(self) -> int: ...

    @property
    def ids(self) -> tuple[int, ...]: ...


def _of_shards(where: str, shards: ShardPart | None) -> tuple[str, tuple[int, ...]]:
    """``where`` narrowed to the rows (with a ``guild_id``) of ``shards`` if given."""
    if shards is None:
        return where, ()
    if not shards.ids:
        return where + " AND 1 = 0", ()  # no shard, no table
    # Discord's rule for a server's shard, as bot/sharding.py's Shards.shard_of.
    return (f"{where} AND (guild_id >> 22) % {int(shards.count)}"
            f" IN ({', '.join('?' * len(shards.ids))})", tuple(int(i) for i in shards.ids))


def _open_where(shards: ShardPart | None) -> tuple[str, tuple[int, ...]]:
    """The WHERE clause (and its parameters) of the open tables, of ``shards`` if given."""
    return _of_shards(f"status IN ({_OPEN_SQL})", shards)


class LiveMark(NamedTuple):
    """What a table's live page shows moves only when one of these does (web/live.py's
    ``Poller``, on a process that does not run the table): its status, the sequence number of
    its last log entry (each deal and action), and what its table message was last confirmed
    to show (a lobby's seats, a computer taking over, a turn timer: none of them in the log),
    with that message's step and turn deadline."""

    status: TableStatus
    last_seq: int | None  # None: nothing logged yet (a lobby)
    shown: str | None  # the table message's digest; None: never recorded
    turn_seq: int | None
    deadline: float | None


class OwedThread(NamedTuple):
    """A table over whose thread is still to be archived and locked (migration 0025)."""

    table_id: int
    thread_id: int


async def owe_thread_in(tx: Transaction, table_id: int) -> None:
    """The table is over: its thread, if it has one, is owed an archive and lock, recorded
    with the end itself, so that no stop or crash between the two leaves it open for good."""
    await tx.execute(
        "INSERT OR IGNORE INTO threads_owed (table_id, guild_id, thread_id)"
        " SELECT id, guild_id, thread_id FROM tables WHERE id = ? AND thread_id IS NOT NULL",
        (table_id,))


@dataclass(slots=True)
class OpenTables:
    """Every open table with what a restart brings back of it, read in a few queries for all of
    them rather than a few per table (each query is a trip to the database thread)."""

    rows: list[TableRow]
    seats: dict[int, list[SeatRow]]
    invited: dict[int, set[int]]
    kicked: dict[int, set[int]]
    choices: dict[int, list[ChoiceRow]]
    logs: dict[int, list[LogEntry]]  # each table's action log, in order


class TableRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db

    async def create(self, *, guild_id: int, channel_id: int, host_id: int, variant: str,
                     options: dict[str, Any], private: bool, seed: int,
                     first_dealer: int = 0, turn_timer: int | None = None,
                     computer_level: str | None = None, sweep_at: float | None = None,
                     lobby_minutes: int | None = None, idle_minutes: int | None = None,
                     away_turns: int | None = None, language: str = "en",
                     stake: int = 0, autoplay: bool = True) -> TableRow:
        async with self.db.transaction() as tx:
            table_id = await tx.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, variant, options, private,"
                " seed, first_dealer, turn_timer, computer_level, sweep_at, lobby_minutes,"
                " idle_minutes, away_turns, language, stake, autoplay)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, host_id, variant, json.dumps(options, sort_keys=True),
                 int(private), seed, first_dealer, turn_timer, computer_level, sweep_at,
                 lobby_minutes, idle_minutes, away_turns, language, stake, int(autoplay)))
            row = await tx.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
        assert row is not None
        return TableRow.from_row(row)

    async def get(self, table_id: int) -> TableRow | None:
        row = await self.db.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
        return TableRow.from_row(row) if row is not None else None

    async def live_mark(self, table_id: int) -> LiveMark | None:
        """The table's :class:`LiveMark` (None: no such table), in one query read off the
        primary keys: it runs about once a second for each table watched from another
        process."""
        row = await self.db.fetchone(
            "SELECT t.status,"
            " (SELECT MAX(a.seq) FROM actions a WHERE a.table_id = t.id),"
            " s.digest, s.turn_seq, s.deadline"
            " FROM tables t LEFT JOIN shown s ON s.table_id = t.id AND s.slot = -1"
            " WHERE t.id = ?", (table_id,))
        if row is None:
            return None
        return LiveMark(TableStatus(row[0]), None if row[1] is None else int(row[1]), row[2],
                        None if row[3] is None else int(row[3]),
                        None if row[4] is None else float(row[4]))

    async def open_ids(self, guild_id: int) -> set[int]:
        """The ids of a server's open tables (its tournament's page links those in play)."""
        rows = await self.db.fetchall(
            f"SELECT id FROM tables WHERE guild_id = ? AND status IN ({_OPEN_SQL})",
            (guild_id,))
        return {int(r[0]) for r in rows}

    async def open_tables(self, shards: ShardPart | None = None) -> list[TableRow]:
        """The open tables; with ``shards``, only those of the servers those shards hold."""
        where, params = _open_where(shards)
        rows = await self.db.fetchall(f"SELECT * FROM tables WHERE {where} ORDER BY id", params)
        return [TableRow.from_row(r) for r in rows]

    async def open_tables_whole(self, shards: ShardPart | None = None) -> OpenTables:
        """Every open table, its seats, invites, kicks, saved choices and action log; with
        ``shards``, only the tables of the servers those shards hold: several processes on one
        database each read their own tables, not everyone's to skip most of them."""
        where, params = _open_where(shards)
        of_open = f"table_id IN (SELECT id FROM tables WHERE {where})"
        rows = await self.open_tables(shards)
        out = OpenTables(rows, {r.id: [] for r in rows}, {r.id: set() for r in rows},
                         {r.id: set() for r in rows}, {r.id: [] for r in rows},
                         {r.id: [] for r in rows})
        for r in await self.db.fetchall(f"SELECT * FROM seats WHERE {of_open}"
                                        " ORDER BY table_id, seat", params):
            out.seats.setdefault(r["table_id"], []).append(SeatRow.from_row(r))
        for name, into in (("invites", out.invited), ("kicked", out.kicked)):
            for r in await self.db.fetchall(f"SELECT table_id, user_id FROM {name}"
                                            f" WHERE {of_open}", params):
                into.setdefault(r[0], set()).add(r[1])
        for r in await self.db.fetchall(f"SELECT * FROM seat_choices WHERE {of_open}"
                                        " ORDER BY table_id, seat", params):
            out.choices.setdefault(r["table_id"], []).append(_choice(r))
        for r in await self.db.fetchall(
                f"SELECT table_id, seq, kind, payload, user_id FROM actions WHERE {of_open}"
                " ORDER BY table_id, seq", params):
            out.logs.setdefault(r[0], []).append(LogEntry(r[1], r[2], json.loads(r[3]), r[4]))
        return out

    async def set_location(self, table_id: int, *, thread_id: int | None,
                           message_id: int | None, channel_id: int | None = None) -> None:
        """Where the table message is; ``channel_id`` when the table moved to another channel."""
        await self.db.write(
            "UPDATE tables SET thread_id = ?, message_id = ?,"
            " channel_id = COALESCE(?, channel_id) WHERE id = ?",
            (thread_id, message_id, channel_id, table_id))

    async def set_status(self, table_id: int, status: TableStatus, *, guild_id: int = 0,
                         credits: Sequence[Move] = ()) -> None:
        """``credits``: movements that go with it (stakes returned to a table ended early),
        in the same transaction."""
        status = TableStatus(status)  # a string that is no status raises ValueError here
        ended = status not in OPEN_STATUSES
        async with self.db.transaction() as tx:
            await tx.execute(
                "UPDATE tables SET status = ?, ended_at = CASE WHEN ? = 1 THEN"
                " strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NULL END WHERE id = ?",
                (status.value, int(ended), table_id))
            if ended:
                await owe_thread_in(tx, table_id)
            for m in credits:
                await move(tx, guild_id, m)

    async def start(self, table_id: int, entries: list[LogEntry],
                    sweep_at: float | None = None, *, guild_id: int = 0,
                    credits: Sequence[Move] = ()) -> None:
        """The game starts: the table is playing and its log begins (``entries``: the first
        deal), in one transaction, so no crash leaves a playing table without its deal.
        ``sweep_at``: its first idle deadline; ``credits``: the stakes taken (one short of
        credits raises NotEnoughCredits and nothing is written)."""
        async with self.db.transaction() as tx:
            for m in credits:
                await move(tx, guild_id, m)
            await tx.execute("UPDATE tables SET status = ?, ended_at = NULL, sweep_at = ?"
                             " WHERE id = ?", (TableStatus.PLAYING.value, sweep_at, table_id))
            await append_in(tx, table_id, entries)

    async def owed_threads(self, shards: ShardPart | None = None) -> list[OwedThread]:
        """The threads of tables over still to be archived and locked (of ``shards`` if
        given), oldest table first."""
        where, params = _of_shards("1 = 1", shards)
        rows = await self.db.fetchall(
            f"SELECT table_id, thread_id FROM threads_owed WHERE {where} ORDER BY table_id",
            params)
        return [OwedThread(r[0], r[1]) for r in rows]

    async def thread_closed(self, table_id: int) -> None:
        """The table's thread is archived (or gone, or cannot be): nothing is owed for it."""
        await self.db.write("DELETE FROM threads_owed WHERE table_id = ?", (table_id,))

    async def set_sweep_at(self, table_id: int, sweep_at: float | None) -> None:
        await self.db.write("UPDATE tables SET sweep_at = ? WHERE id = ?",
                              (sweep_at, table_id))

    # ---- when the bot was up (meta rows ``up:<shard count>:<shard>``) ---------------------
    async def up_until(self, count: int) -> dict[int, float]:
        """Per shard (of ``count``), when the process running it was last up with Discord
        reachable (Unix seconds): what a start reads to know how long its tables were down."""
        rows = await self.db.fetchall("SELECT key, value FROM meta WHERE key LIKE ?",
                                      (f"up:{int(count)}:%",))
        out = {}
        for key, value in rows:
            try:
                out[int(str(key).rsplit(":", 1)[1])] = float(value)
            except ValueError:
                continue  # not one of ours
        return out

    async def set_up_until(self, count: int, shards: Sequence[int], at: float) -> None:
        async with self.db.transaction() as tx:
            await tx.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [(f"up:{int(count)}:{int(s)}", repr(float(at))) for s in shards])

    async def set_host(self, table_id: int, host_id: int) -> None:
        await self.db.write("UPDATE tables SET host_id = ? WHERE id = ?", (host_id, table_id))

    # ---- seats ---------------------------------------------------------------------------
    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self.db.fetchall(
            "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [SeatRow.from_row(r) for r in rows]

    async def put_seat(self, seat: SeatRow) -> None:
        await self.db.write(
            "INSERT OR REPLACE INTO seats (table_id, seat, user_id, name, computer,"
            " dm_channel_id, dm_message_id, dm_closed, timed_out, departed, missed)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (seat.table_id, seat.seat, seat.user_id, seat.name, seat.computer,
             seat.dm_channel_id, seat.dm_message_id, int(seat.dm_closed), int(seat.timed_out),
             seat.departed, seat.missed))

    async def dm_channel_of(self, user_id: int) -> int | None:
        """The DM channel a hand of this player's was last sent to, at any table (a user's DM
        channel with the bot keeps its id): None if none ever was."""
        row = await self.db.fetchone(
            "SELECT dm_channel_id FROM seats WHERE user_id = ? AND dm_channel_id IS NOT NULL"
            " ORDER BY table_id DESC LIMIT 1", (user_id,))
        return None if row is None else int(row[0])

    async def remove_seat(self, table_id: int, seat: int) -> None:
        await self.db.write("DELETE FROM seats WHERE table_id = ? AND seat = ?",
                              (table_id, seat))

    async def names(self, user_ids: list[int]) -> dict[int, str]:
        """The name each user last sat under."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self.db.fetchall(
            f"SELECT user_id, name FROM seats WHERE user_id IN ({marks})"
            " ORDER BY table_id", user_ids)
        return {r[0]: r[1] for r in rows}  # later tables overwrite earlier names

    # ---- choices ahead of the cards --------------------------------------------------------
    async def put_choice(self, choice: ChoiceRow) -> None:
        await self.db.write(
            "INSERT OR REPLACE INTO seat_choices (table_id, seat, deal, declare, belote, ahead,"
            " ahead_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (choice.table_id, choice.seat, choice.deal,
             None if choice.declare is None else json.dumps(choice.declare),
             int(choice.belote), choice.ahead, choice.ahead_at))

    async def choices(self, table_id: int) -> list[ChoiceRow]:
        rows = await self.db.fetchall(
            "SELECT * FROM seat_choices WHERE table_id = ? ORDER BY seat", (table_id,))
        return [_choice(r) for r in rows]

    # ---- what the messages show ---------------------------------------------------------
    async def shown(self) -> dict[tuple[int, int], str]:
        """(table id, slot) -> the digest of what that message last showed, for open tables
        (slot -1: the table message; 0-3: a seat's hand)."""
        rows = await self.db.fetchall(
            "SELECT s.table_id, s.slot, s.digest FROM shown s JOIN tables t ON t.id = s.table_id"
            " WHERE t.status IN ('lobby', 'playing')")
        return {(r[0], r[1]): r[2] for r in rows}

    async def shown_deadlines(self) -> dict[int, tuple[int, float]]:
        """Table id -> (step of the game, turn deadline) its table message was confirmed to
        show, for open tables whose message shows a deadline."""
        rows = await self.db.fetchall(
            "SELECT s.table_id, s.turn_seq, s.deadline FROM shown s"
            " JOIN tables t ON t.id = s.table_id WHERE s.slot = -1"
            " AND s.deadline IS NOT NULL AND t.status IN ('lobby', 'playing')")
        return {r[0]: (r[1], r[2]) for r in rows}

    async def set_shown_many(self, rows: Sequence[ShownRow]) -> None:
        """Record what several messages show now that Discord confirmed it, in one statement
        (all or none). One row per message: a statement may not write a row twice."""
        for start in range(0, len(rows), SHOWN_PER_STATEMENT):
            part = rows[start:start + SHOWN_PER_STATEMENT]
            marks = ", ".join(["(?, ?, ?, ?, ?)"] * len(part))
            await self.db.write(
                "INSERT OR REPLACE INTO shown (table_id, slot, digest, turn_seq, deadline)"
                f" VALUES {marks}", [value for row in part for value in row])

    # ---- invites -------------------------------------------------------------------------
    async def invite(self, table_id: int, user_id: int) -> None:
        await self.db.write(
            "INSERT OR IGNORE INTO invites (table_id, user_id) VALUES (?, ?)",
            (table_id, user_id))

    # ---- kicked ----------------------------------------------------------------------------
    async def kick(self, table_id: int, user_id: int) -> None:
        await self.db.write(
            "INSERT INTO kicked (table_id, user_id) VALUES (?, ?)"
            " ON CONFLICT (table_id, user_id) DO NOTHING",
            (table_id, user_id))

    async def kicked(self, table_id: int) -> set[int]:
        rows = await self.db.fetchall("SELECT user_id FROM kicked WHERE table_id = ?",
                                      (table_id,))
        return {r[0] for r in rows}

    async def invited(self, table_id: int) -> set[int]:
        rows = await self.db.fetchall("SELECT user_id FROM invites WHERE table_id = ?",
                                      (table_id,))
        return {r[0] for r in rows}


def _choice(r: aiosqlite.Row) -> ChoiceRow:
    return ChoiceRow(r["table_id"], r["seat"], r["deal"],
                     None if r["declare"] is None else json.loads(r["declare"]), bool(r["belote"]),
                     r["ahead"], r["ahead_at"])
