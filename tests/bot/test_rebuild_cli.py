"""`belote-bot rebuild-ratings`: the ratings computed again from the stored matches are the
ones the bot had computed match by match."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import __main__ as cli
from db import Database, MatchPlayer


async def ratings(db: Database) -> list[tuple[Any, ...]]:
    rows = await db.fetchall("SELECT * FROM skills ORDER BY kind, user_id, partner_id")
    return [tuple(r) for r in rows]


async def test_rebuild_ratings_gives_the_same_ratings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "belote.sqlite3"
    db = await Database.open(path)
    try:
        for i, seats in enumerate([(1, 2, 3, 4), (1, 3, 2, 4), (4, 1, 3, 2)]):
            t = await db.tables.create(guild_id=10, channel_id=20, host_id=1,
                                       variant="classic", options={}, private=False, seed=i)
            await db.results.record_match(
                table_id=t.id, guild_id=10, variant="classic", winner=i % 2,
                totals=(1001, 0), deals=3,
                players=[MatchPlayer(s, u, None) for s, u in enumerate(seats)])
        before = await ratings(db)
        await db.execute("DELETE FROM skills")
    finally:
        await db.close()
    env = tmp_path / ".env"
    env.write_text(f"DATABASE_PATH={path}\n")
    assert await asyncio.to_thread(cli.main, ["--env-file", str(env), "rebuild-ratings"]) == 0
    assert "from 3 rated match(es)" in capsys.readouterr().out
    db = await Database.open(path)
    try:
        assert await ratings(db) == before and len(before) == 4 + 4  # players, pairs
    finally:
        await db.close()


def test_rebuild_ratings_wants_an_existing_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = tmp_path / ".env"
    env.write_text(f"DATABASE_PATH={tmp_path / 'missing.sqlite3'}\n")
    assert cli.main(["--env-file", str(env), "rebuild-ratings"]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "missing.sqlite3").exists()
