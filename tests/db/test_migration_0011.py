"""Migration 0011: the language setting's "auto". A stored "en" meant automatic until now (English
was taken for "not set"), so it is dropped: those servers keep what they had. Any other stored
language, and the other settings, stay."""

from __future__ import annotations

import json

from db import Database
from service.guild_settings import AUTO_LANGUAGE, GuildSettingsStore


async def test_a_stored_english_becomes_automatic_and_the_rest_stays(
        database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        for guild, stored in ((1, {"language": "en", "away_turns": 5}), (2, {"language": "fr"}),
                              (3, {"idle_minutes": 20})):
            await db.write("INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)",
                           (guild, json.dumps(stored)))
        # As a database of the version before 0011 holds them: applied again at the next open.
        await db.write("DELETE FROM schema_migrations WHERE version = 11")
    finally:
        await db.close()
    db = await Database.open(database_target)
    try:
        store = GuildSettingsStore(db)
        first, second, third = [await store.get(g) for g in (1, 2, 3)]
        assert (first.language, first.away_turns) == (AUTO_LANGUAGE, 5)
        assert second.language == "fr"
        assert (third.language, third.idle_minutes) == (AUTO_LANGUAGE, 20)
        assert await store.repo.load(1) == {"away_turns": 5}
    finally:
        await db.close()
