"""`belote-bot migrate-db`: a server's SQLite file, with a match played through the table
service, moved to PostgreSQL: every table, row for row; a non-empty target refused unless told."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import __main__ as cli
from db import Database
from db.transfer import _foreign_keys, _in_order, copy_database
from service.tables import TableService
from tests.bot.test_service import GUILD, four_players, play_random


async def a_played_server(path: Path) -> None:
    """A match played to its end, an open lobby with an invitation, settings, an audit entry."""
    db = await Database.open(path)
    try:
        service = TableService(db)
        table_id = await four_players(service)
        await play_random(service, table_id, 2000)
        assert await db.results.winner_of(table_id) in (0, 1)
        lobby = await db.tables.create(guild_id=GUILD, channel_id=7, host_id=1,
                                       variant="coinche", options={"target": 1000},
                                       private=True, seed=3)
        await db.tables.invite(lobby.id, 9)
        await db.guilds.update_settings(GUILD, computer_level="hard")
        await db.guilds.set_meta("commands", "abc")
        await db.audit.add(GUILD, "config", actor_id=1, details={"x": 1})
    finally:
        await db.close()


async def every_row(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    for table in _in_order(await _foreign_keys(db)):
        rows = await db.fetchall(f"SELECT * FROM {table}")
        out[table] = sorted((tuple(r) for r in rows), key=repr)
    return out


async def test_a_played_server_moves_to_postgresql_whole(
        tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "server.sqlite3"
    await a_played_server(path)
    argv = ["migrate-db", "--from", f"sqlite:///{path}", "--to", postgres_url]
    assert await asyncio.to_thread(cli.main, argv) == 0
    assert "the counts match" in capsys.readouterr().out

    source = await Database.open(path)
    target = await Database.open(postgres_url)
    try:
        mine, theirs = await every_row(source), await every_row(target)
        assert sorted(theirs) == sorted(mine)
        assert mine["actions"] and mine["matches"] and mine["skills"] and mine["audit_log"]
        assert theirs == mine  # every table, row for row, value for value
        # The bot goes on on PostgreSQL: the board, the match, and new ids after the old ones.
        assert await target.results.leaderboard(GUILD, "classic") == \
            await source.results.leaderboard(GUILD, "classic")
        table_id = mine["matches"][0][1]
        assert await target.results.match(GUILD, table_id) == \
            await source.results.match(GUILD, table_id)
        new = await target.tables.create(guild_id=GUILD, channel_id=7, host_id=1,
                                         variant="classic", options={}, private=False, seed=1)
        assert new.id == max(r[0] for r in mine["tables"]) + 1
        entry = await target.audit.add(GUILD, "end", actor_id=2)
        assert entry.id == max(r[0] for r in mine["audit_log"]) + 1
        before = await every_row(target)
    finally:
        await source.close()
        await target.close()

    # Again into the same, now non-empty, database: refused, and nothing changes.
    assert await asyncio.to_thread(cli.main, argv) == 1
    assert "already holds rows" in capsys.readouterr().err
    target = await Database.open(postgres_url)
    try:
        assert await every_row(target) == before
    finally:
        await target.close()
    # Told to overwrite: the target is the source again.
    assert await asyncio.to_thread(cli.main, [*argv, "--overwrite"]) == 0
    target = await Database.open(postgres_url)
    try:
        assert await every_row(target) == mine
    finally:
        await target.close()

    # The admin's commands on the PostgreSQL database: ratings rebuilt alike; no SQLite backup.
    env = tmp_path / ".env"
    env.write_text(f"DATABASE_URL={postgres_url}\n")
    capsys.readouterr()
    assert await asyncio.to_thread(cli.main, ["--env-file", str(env), "rebuild-ratings"]) == 0
    assert "from 1 rated match(es)" in capsys.readouterr().out
    target = await Database.open(postgres_url)
    try:
        assert (await every_row(target))["skills"] == mine["skills"]
    finally:
        await target.close()
    assert cli.main(["--env-file", str(env), "backup", str(tmp_path / "b.sqlite3")]) == 2
    assert "pg_dump" in capsys.readouterr().err


def test_a_missing_source_is_refused_and_creates_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.sqlite3"
    other = tmp_path / "other.sqlite3"
    assert cli.main(["migrate-db", "--from", str(missing), "--to", f"sqlite:///{other}"]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not missing.exists() and not other.exists()


def test_an_unknown_url_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["migrate-db", "--from", "mysql://x/y", "--to",
                     f"sqlite:///{tmp_path / 'o.sqlite3'}"]) == 2
    assert "not a database URL" in capsys.readouterr().err


async def test_the_copy_reads_a_page_at_a_time_and_misses_no_row(tmp_path: Path,
                                                                 postgres_url: str) -> None:
    # Pages of 3 rows (the default is 1000): tables far longer than a page, keys of one
    # column (actions) and of several (skills), every row copied once.
    path = tmp_path / "server.sqlite3"
    await a_played_server(path)
    source = await Database.open(path)
    target = await Database.open(postgres_url)
    try:
        read: list[str] = []
        real = source.fetchall

        async def fetchall(sql: str, params: Any = ()) -> list[Any]:
            rows = await real(sql, params)
            if sql.startswith("SELECT * FROM"):
                assert len(rows) <= 3, sql
                read.append(sql)
            return rows

        source.fetchall = fetchall  # type: ignore[method-assign]
        counts = await copy_database(source, target, batch=3)
        source.fetchall = real  # type: ignore[method-assign]
        assert counts["actions"] > 3 * 7 and counts["skills"] > 3
        assert sum("WHERE (" in sql for sql in read) >= 3  # it went on page after page
        assert await every_row(target) == await every_row(source)
    finally:
        await source.close()
        await target.close()
