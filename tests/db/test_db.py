"""The database: migrations, repositories, the action log, results and ratings, crash safety."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from db import ChoiceRow, Database, LogEntry, MatchPlayer, SeatRow, TableRow, TableStatus, to_record
from db.migrate import migration_files
from game.record import replay


async def new_table(db: Database, *, private: bool = False,
                    options: dict[str, Any] | None = None) -> TableRow:
    return await db.tables.create(guild_id=10, channel_id=20, host_id=1, variant="classic",
                                  options={"target": 1} if options is None else options,
                                  private=private, seed=7)


async def test_migrations_are_applied_once_in_order_and_recorded(database_target: str) -> None:
    db = await Database.open(database_target)
    await db.close()
    db = await Database.open(database_target)  # a second open applies nothing again
    rows = await db.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
    await db.close()
    assert [(v, n) for v, n, _ in migration_files(db.dialect)] == [(r[0], r[1]) for r in rows]
    assert rows[0][0] == 1


async def pragma(db: Database, name: str) -> Any:
    row = await db.fetchone(f"PRAGMA {name}")
    assert row is not None
    return row[0]


async def test_connection_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "wal.sqlite3")
    try:
        assert await pragma(db, "journal_mode") == "wal"
        assert await pragma(db, "foreign_keys") == 1
        assert await pragma(db, "busy_timeout") >= 1000
        with pytest.raises(sqlite3.IntegrityError):
            await db.tables.put_seat(SeatRow(table_id=999, seat=0, user_id=1, name="ana"))
    finally:
        await db.close()


async def test_foreign_keys_hold_and_a_seat_is_replaced(db: Database) -> None:
    with pytest.raises(db.integrity_errors):
        await db.tables.put_seat(SeatRow(table_id=999, seat=0, user_id=1, name="ana"))
    t = await new_table(db)
    await db.tables.put_seat(SeatRow(t.id, 0, 1, "ana"))
    await db.tables.put_seat(SeatRow(t.id, 0, 1, "ana", dm_channel_id=5, timed_out=True))
    [seat] = await db.tables.seats(t.id)
    assert (seat.name, seat.dm_channel_id, seat.timed_out) == ("ana", 5, True)


async def test_tables_seats_and_invites(db: Database) -> None:
    t = await new_table(db, private=True, options={"target": 501, "announcements": False})
    assert (t.status, t.private, t.options["announcements"]) == ("lobby", True, False)
    await db.tables.set_location(t.id, thread_id=30, message_id=40)
    await db.tables.put_seat(SeatRow(t.id, 0, 1, "ana"))
    await db.tables.put_seat(SeatRow(t.id, 1, None, "Computer (easy)", computer="easy"))
    await db.tables.invite(t.id, 5)
    again = await db.tables.get(t.id)
    assert again is not None and (again.home_id, again.message_id) == (30, 40)
    seats = await db.tables.seats(t.id)
    assert [(s.seat, s.user_id, s.computer) for s in seats] == [(0, 1, None), (1, None, "easy")]
    assert await db.tables.invited(t.id) == {5}
    await db.tables.remove_seat(t.id, 0)
    assert [s.seat for s in await db.tables.seats(t.id)] == [1]
    await db.tables.set_status(t.id, TableStatus.ENDED)
    assert [x.id for x in await db.tables.open_tables()] == []
    ended = await db.tables.get(t.id)
    assert ended is not None and ended.ended_at is not None


async def test_a_restart_reads_every_open_table_whole_at_once(db: Database) -> None:
    tables = [await new_table(db) for _ in range(3)]
    for n, t in enumerate(tables):
        await db.tables.put_seat(SeatRow(t.id, 1, 10 + n, "bo"))
        await db.tables.put_seat(SeatRow(t.id, 0, None, "Computer", computer="easy"))
        await db.log.append(t.id, [LogEntry(0, "deal", {"dealer": n, "deck": ["7C"]}),
                                   LogEntry(1, "action", {"seat": 1, "action": "pass"}, 9)])
    await db.tables.invite(tables[0].id, 5)
    await db.tables.kick(tables[1].id, 6)
    await db.tables.put_choice(ChoiceRow(tables[1].id, 2, 1, [["AS"]], False))
    await db.tables.set_status(tables[2].id, TableStatus.ENDED)  # closed: not brought back
    whole = await db.tables.open_tables_whole()
    assert [r.id for r in whole.rows] == [t.id for t in tables[:2]]
    for t in tables[:2]:  # the same as the reads of one table
        assert whole.seats[t.id] == await db.tables.seats(t.id)
        assert whole.invited[t.id] == await db.tables.invited(t.id)
        assert whole.kicked[t.id] == await db.tables.kicked(t.id)
        assert whole.choices[t.id] == await db.tables.choices(t.id)
        assert whole.logs[t.id] == await db.log.entries(t.id)
    assert (whole.invited[tables[0].id], whole.kicked[tables[1].id]) == ({5}, {6})
    assert len(whole.logs[tables[0].id]) == 2 and whole.choices[tables[1].id]
    assert tables[2].id not in whole.seats and tables[2].id not in whole.logs


async def test_a_process_running_some_shards_reads_only_their_tables(db: Database) -> None:
    """Several processes on one database: each reads the open tables of its own shards' servers
    (Discord's rule, the same as Shards.shard_of), and between them every table once."""
    from bot.sharding import Shards

    guilds = [(1 << 22) * n + 12345 for n in range(6)] + [1187654321098765432]  # real-size id
    made = {}
    for g in guilds:
        t = await db.tables.create(guild_id=g, channel_id=20, host_id=1, variant="classic",
                                   options={"target": 1}, private=False, seed=7)
        await db.tables.put_seat(SeatRow(t.id, 0, 1, "bo"))
        await db.log.append(t.id, [LogEntry(0, "deal", {"dealer": 0, "deck": ["7C"]})])
        made[t.id] = g
    seen: list[int] = []
    for part in ((0,), (1, 2)):
        shards = Shards(3, part)
        whole = await db.tables.open_tables_whole(shards)
        ids = [r.id for r in whole.rows]
        assert ids == sorted(t for t, g in made.items() if shards.owns(g))
        assert set(whole.seats) == set(whole.logs) == set(ids)  # no other table's rows read
        seen += ids
    assert sorted(seen) == sorted(made)  # each table in exactly one process
    assert [r.id for r in (await db.tables.open_tables_whole(Shards(3, ()))).rows] == []


async def test_action_log_is_unique_per_sequence_and_all_or_nothing(db: Database) -> None:
    t = await new_table(db)
    deal = LogEntry(0, "deal", {"dealer": 0, "deck": ["7C"]})
    await db.log.append(t.id, [deal, LogEntry(1, "action", {"seat": 1, "action": "pass"}, 9)])
    with pytest.raises(db.integrity_errors):  # seq 2 fine, seq 1 taken: neither is kept
        await db.log.append(t.id, [LogEntry(2, "action", {"seat": 2, "action": "pass"}),
                                   LogEntry(1, "action", {"seat": 2, "action": "take"})])
    entries = await db.log.entries(t.id)
    assert [(e.seq, e.kind, e.user_id) for e in entries] == [(0, "deal", None), (1, "action", 9)]


async def test_log_makes_a_replayable_record(db: Database) -> None:
    from game.cards import card_str
    from game.match import Match
    from game.players import RandomPlayer
    from game.record import action_to_json
    from game.view import table_view

    t = await new_table(db)
    match = Match("classic", {"target": 1})
    seq = 0
    entries = []
    player = RandomPlayer(3)
    deck = match.new_deck(t.seed)
    match.start_deal(deck)
    entries.append(LogEntry(seq, "deal", {"dealer": 0, "deck": [card_str(c) for c in deck]}))
    for _ in range(12):
        seat = match.to_act
        action = player.choose(table_view(match, seat))
        match.apply(action)
        seq += 1
        entries.append(LogEntry(seq, "action", action_to_json(seat, action)))
    await db.log.append(t.id, entries)
    record = to_record("classic", {"target": 1}, None, await db.log.entries(t.id))
    again = replay(record)
    assert again.deal is not None and match.deal is not None
    assert again.deal.actions == match.deal.actions
    assert again.deal.hands == match.deal.hands


async def test_results_update_ratings_and_close_the_table(db: Database) -> None:
    t = await new_table(db)
    players = [MatchPlayer(0, 1, None), MatchPlayer(1, 2, None), MatchPlayer(2, 3, None),
               MatchPlayer(3, 4, None)]
    changes = await db.results.record_match(table_id=t.id, guild_id=10, variant="classic",
                                            winner=0, totals=(520, 300), deals=4,
                                            players=players)
    assert changes[1][1] > changes[1][0] == 1000.0  # a newcomer shows 1000
    assert changes[2][1] < 1000.0
    board = await db.results.leaderboard(10, "classic")
    assert [r.user_id for r in board] == [1, 3, 2, 4]
    assert (board[0].matches, board[0].wins) == (1, 1)
    finished = await db.tables.get(t.id)
    assert finished is not None and finished.status == "finished"
    assert await db.results.winner_of(t.id) == 0
    assert await db.results.leaderboard(11, "classic") == []
    with pytest.raises(db.integrity_errors):  # a match is recorded once
        await db.results.record_match(table_id=t.id, guild_id=10, variant="classic",
                                      winner=1, totals=(0, 0), deals=1, players=players)
    assert (await db.results.leaderboard(10, "classic"))[0].matches == 1


async def test_guild_settings_and_meta(db: Database) -> None:
    assert await db.guilds.settings(1) == {}
    await db.guilds.update_settings(1, computer_level="hard")
    assert await db.guilds.update_settings(1, x=2) == {"computer_level": "hard", "x": 2}
    assert await db.guilds.meta("k") is None
    await db.guilds.set_meta("k", "v1")
    await db.guilds.set_meta("k", "v2")
    assert await db.guilds.meta("k") == "v2"


CHILD = textwrap.dedent("""
    import asyncio, sys
    from db import Database, LogEntry
    async def main():
        db = await Database.open(sys.argv[1])
        t = await db.tables.create(guild_id=1, channel_id=2, host_id=3, variant="classic",
                                   options={}, private=False, seed=1)
        seq = 0
        while True:
            await db.log.append(t.id, [LogEntry(seq, "action", {"seat": 0, "n": seq})])
            print(seq, flush=True)  # printed only once committed
            seq += 1
    asyncio.run(main())
""")


async def test_committed_actions_survive_a_killed_process(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                            text=True, cwd=Path(__file__).resolve().parents[2])
    acknowledged = -1
    assert proc.stdout is not None
    while acknowledged < 200:
        line = await asyncio.to_thread(proc.stdout.readline)
        assert line, "the writer died"
        acknowledged = int(line)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    db = await Database.open(path)
    entries = await db.log.entries(1)
    await db.close()
    seqs = [e.seq for e in entries]
    assert seqs == list(range(len(seqs)))  # no gap, no torn row
    assert len(seqs) > acknowledged  # everything acknowledged is there


async def test_what_messages_show_is_written_many_rows_at_once_and_replaced(
        db: Database) -> None:
    from db.tables import ShownRow

    open_ids = [(await new_table(db)).id for _ in range(50)]
    rows = [ShownRow(t, slot, f"a{t}.{slot}") for t in open_ids for slot in range(-1, 4)]
    await db.tables.set_shown_many(rows)  # 250 rows: more than one statement
    await db.tables.set_shown_many([ShownRow(open_ids[0], -1, "newer", 12, 99.5),
                                    ShownRow(open_ids[1], 2, "newer")])
    shown = await db.tables.shown()
    assert len(shown) == 250
    assert shown[(open_ids[0], -1)] == shown[(open_ids[1], 2)] == "newer"
    assert shown[(open_ids[2], 3)] == f"a{open_ids[2]}.3"
    assert await db.tables.shown_deadlines() == {open_ids[0]: (12, 99.5)}
