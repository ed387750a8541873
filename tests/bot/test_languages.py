"""Which language a reader gets (bot/languages.py): a member answered, a seat's hand, a
server's posts."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.languages import Readers, member_language, seat_language, server_language
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
