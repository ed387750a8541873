"""The language each server's preferred locale gives, recorded by the process running it: the
newest value wins, many servers are read back at once, and other meta rows are not read as
servers."""

from __future__ import annotations

from db import Database


async def test_recorded_languages_are_replaced_and_read_back_many_at_once(db: Database) -> None:
    repo = db.guilds
    assert await repo.locale_language(1) is None
    await repo.set_locale_language(1, "fr")
    await repo.set_locale_language(2, "bg")
    await repo.set_locale_language(1, "en")  # its locale changed
    await repo.set_meta("command_hash:1:global", "x")  # another fact in the same table
    assert await repo.locale_language(1) == "en"
    assert await repo.locale_languages([1, 2, 3]) == {1: "en", 2: "bg"}
    for guild in range(10, 1210):
        await repo.set_locale_language(guild, "fr")
    read = await repo.locale_languages(range(1, 1300))  # more than one statement takes
    assert len(read) == 1202 and read[1] == "en" and read[1209] == "fr"
    assert await repo.locale_languages([]) == {}
