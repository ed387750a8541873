"""Each member's client language, stored: the newest value wins, a language we no longer see
is forgotten, and many members are read back at once."""

from __future__ import annotations

from db import Database


async def test_languages_are_kept_replaced_and_forgotten(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        repo = db.languages
        await repo.save(1, "fr")
        await repo.save(2, "bg")
        await repo.save(1, "en")  # their client changed language
        await repo.save(2, None)  # now a language the bot does not speak
        assert await repo.load([1, 2, 3]) == {1: "en"}
        for user in range(10, 1210):
            await repo.save(user, "fr")
        loaded = await repo.load(range(1, 1300))  # more members than one statement takes
        assert len(loaded) == 1201 and loaded[1] == "en" and loaded[1209] == "fr"
    finally:
        await db.close()
