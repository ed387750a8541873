"""The database tests' shared fixture: a new database, on each backend."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from db import Database


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """A new database, once on SQLite and once on PostgreSQL."""
    database = await Database.open(database_target)
    yield database
    await database.close()
