"""Which language a reader gets (bot/languages.py): a member answered, a seat's hand, a
server's posts."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.languages import Readers, ServerLocales, member_language, seat_language, server_language
from service.guild_settings import GuildSettings


def _guild(locale: discord.Locale) -> discord.Guild:
    return cast(discord.Guild, SimpleNamespace(preferred_locale=locale))


def test_a_server_speaks_its_chosen_language_else_its_locale_else_english() -> None:
    auto = GuildSettings()
    assert auto.language == "auto"
    assert server_language(auto, _guild(discord.Locale.french)) == "fr"
    assert server_language(auto, _guild(discord.Locale.bulgarian)) == "bg"
    assert server_language(auto, _guild(discord.Locale.japanese)) == "en"
    assert server_language(auto, None) == "en"
    chosen = replace(auto, language="bg")
    assert server_language(chosen, _guild(discord.Locale.french)) == "bg"


def test_a_member_reads_their_client_language_else_what_the_answer_is_about() -> None:
    french = cast(Any, SimpleNamespace(locale=discord.Locale.french))
    japanese = cast(Any, SimpleNamespace(locale=discord.Locale.japanese))
    assert member_language(french, "bg") == "fr"
    assert member_language(japanese, "bg") == "bg"
    assert member_language(japanese) == "en"


def test_a_hand_speaks_its_player_language_else_the_table_one() -> None:
    readers = Readers()
    readers.note(7, discord.Locale.french)
    readers.note(8, discord.Locale.japanese)
    live = cast(Any, SimpleNamespace(language="bg", seats={
        0: SimpleNamespace(user_id=7), 1: SimpleNamespace(user_id=8)}))
    assert seat_language(readers, live, 0) == "fr"
    assert seat_language(readers, live, 1) == "bg"  # a client we don't speak: the table's
    assert seat_language(readers, live, 2) == "bg"  # an empty seat


def test_a_server_without_its_guild_speaks_what_its_owner_recorded_else_english() -> None:
    auto = GuildSettings()
    # Another process runs the server: what it recorded of the locale, when we speak it.
    assert server_language(auto, None, "fr") == "fr"
    assert server_language(auto, None, "bg") == "bg"
    assert server_language(auto, None, None) == "en"  # nothing recorded yet
    for bad in ("de", "", "FR", "fr-FR", "auto"):  # not a language of the catalogue
        assert server_language(auto, None, bad) == "en", bad
    # The guild at hand wins over what was recorded, even when its locale is not ours...
    assert server_language(auto, _guild(discord.Locale.bulgarian), "fr") == "bg"
    assert server_language(auto, _guild(discord.Locale.japanese), "fr") == "en"
    # ... and a moderator's choice over both.
    chosen = replace(auto, language="en")
    assert server_language(chosen, None, "fr") == "en"
    assert server_language(chosen, _guild(discord.Locale.french), "bg") == "en"


class _Repo:
    """GuildRepo's recorded languages, in memory, counting the reads and writes."""

    def __init__(self, stored: dict[int, str]) -> None:
        self.stored = dict(stored)
        self.reads: list[list[int]] = []
        self.writes: list[tuple[int, str]] = []

    async def locale_languages(self, guild_ids: Any) -> dict[int, str]:
        ids = list(guild_ids)
        self.reads.append(ids)
        return {g: self.stored[g] for g in ids if g in self.stored}

    async def set_locale_language(self, guild_id: int, language: str) -> None:
        self.writes.append((guild_id, language))
        self.stored[guild_id] = language

    async def locale_language(self, guild_id: int) -> str | None:
        return self.stored.get(guild_id)


def _server(guild_id: int, locale: discord.Locale) -> discord.Guild:
    return cast(discord.Guild, SimpleNamespace(id=guild_id, preferred_locale=locale))


async def test_the_owner_records_a_server_language_only_when_it_changed() -> None:
    repo = _Repo({1: "fr", 2: "fr"})
    locales = ServerLocales()
    locales.attach(cast(Any, repo))
    await locales.learn([_server(1, discord.Locale.french), _server(2, discord.Locale.bulgarian),
                         _server(3, discord.Locale.japanese)])
    await locales.flush()
    assert repo.reads == [[1, 2, 3]]  # one read for all the servers at ready
    # The unchanged one is not written; a locale we do not speak is recorded as English.
    assert sorted(repo.writes) == [(2, "bg"), (3, "en")]
    repo.writes.clear()
    await locales.learn([_server(1, discord.Locale.french)])  # available again: known
    locales.note(_server(2, discord.Locale.bulgarian))  # a guild update, its name say
    await locales.flush()
    assert repo.reads == [[1, 2, 3]] and repo.writes == []
    locales.note(_server(1, discord.Locale.bulgarian))
    locales.note(_server(1, discord.Locale.american_english))
    await locales.flush()
    assert repo.stored[1] == "en" and await locales.recorded(1) == "en"
    assert await locales.recorded(9) is None
