"""Fixtures shared by the bot's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A new SQLite database in the test's own directory, closed after the test."""
    database = await Database.open(tmp_path / "belote.sqlite3")
    yield database
    await database.close()
