"""A PostgreSQL connection that dies (its backend ended by the server, as on a restart or an
administrator's pg_terminate_backend) does not break the bot: a read runs again on a new
connection; a write under way is not applied and says so (DatabaseUnavailable), and the next
one connects again. Real PostgreSQL (the test server), not a mock."""

from __future__ import annotations

import asyncpg
import pytest

from db import Database
from db.postgres import DatabaseUnavailable, PostgresDatabase


async def end_backends(url: str) -> int:
    """What an administrator (or a server restart) does to the bot's connections."""
    admin = await asyncpg.connect(url)
    try:
        rows = await admin.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        return len(rows)
    finally:
        await admin.close()


async def test_reads_and_writes_go_on_after_the_connection_died(postgres_url: str) -> None:
    db = await Database.open(postgres_url)
    assert isinstance(db, PostgresDatabase)
    try:
        await db.write("INSERT INTO member_languages (user_id, language) VALUES (?, ?)",
                       (1, "fr"))
        assert await end_backends(postgres_url) == 1
        # A read: run again on a new connection, the caller sees nothing.
        row = await db.fetchone("SELECT language FROM member_languages WHERE user_id = ?", (1,))
        assert row is not None and row[0] == "fr"
        # Lost before a write: noticed, connected again, the write goes through.
        assert await end_backends(postgres_url) == 1
        await db.write("INSERT INTO member_languages (user_id, language) VALUES (?, ?)",
                       (4, "bg"))
        # Lost in the middle of a transaction: not applied, said so; the next one works.
        with pytest.raises(DatabaseUnavailable):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO member_languages (user_id, language)"
                                 " VALUES (?, ?)", (2, "bg"))
                assert await end_backends(postgres_url) == 1
                await tx.execute("INSERT INTO member_languages (user_id, language)"
                                 " VALUES (?, ?)", (5, "bg"))
        await db.write("INSERT INTO member_languages (user_id, language) VALUES (?, ?)",
                       (3, "en"))
        rows = await db.fetchall("SELECT user_id FROM member_languages ORDER BY user_id")
        assert [r[0] for r in rows] == [1, 3, 4]  # 2 and 5 never applied, nothing twice
    finally:
        await db.close()
