"""Tables deal from a seed the service draws: a TABLE_SEED makes every table reproducible."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot import Settings
from bot.settings import SettingsError
from db import Database
from service.tables import NewTable, TableService

GUILD, CHANNEL = 100, 200


async def table_draws(path: Path, rng: random.Random | None) -> list[tuple[int, int]]:
    """(seed, first dealer) of three tables opened by a fresh service on a fresh database."""
    db = await Database.open(path)
    try:
        service = TableService(db, rng=rng) if rng is not None else TableService(db)
        out = []
        for host in (1, 2, 3):
            live = await service.create(NewTable(GUILD, CHANNEL, host, f"p{host}", "classic",
                                                 {}))
            out.append((live.row.seed, live.row.first_dealer))
        return out
    finally:
        await db.close()


async def test_a_seeded_service_opens_the_same_tables_every_run(tmp_path: Path) -> None:
    first = await table_draws(tmp_path / "a.sqlite3", random.Random(7))
    again = await table_draws(tmp_path / "b.sqlite3", random.Random(7))
    other = await table_draws(tmp_path / "c.sqlite3", random.Random(8))
    assert first == again
    assert first != other


async def test_in_the_test_suite_a_service_without_a_seed_is_seeded_too(tmp_path: Path) -> None:
    # tests/conftest.py gives every service the tests make a fixed seed, so no test depends
    # on the deck the system's randomness happens to deal.
    assert await table_draws(tmp_path / "a.sqlite3", None) == \
        await table_draws(tmp_path / "b.sqlite3", None)


def test_table_seed_setting() -> None:
    assert Settings.from_env({}, None).table_seed is None  # production: the system's randomness
    assert Settings.from_env({"TABLE_SEED": "12"}, None).table_seed == 12
    with pytest.raises(SettingsError, match="TABLE_SEED"):
        Settings.from_env({"TABLE_SEED": "twelve"}, None)


def test_property_tests_draw_the_same_examples_every_run() -> None:
    from hypothesis import settings

    assert settings().derandomize and settings().database is None
