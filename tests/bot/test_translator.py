"""Command texts come from the catalogue and are translated per Discord locale."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.languages import locale_language
from bot.translator import CatalogueTranslator, text


async def test_english_and_unknown_locales_keep_the_default_text() -> None:
    translator = CatalogueTranslator()
    string = text("image.deal")
    assert string.message == "Deal {n}" and string.extras["id"] == "image.deal"
    for locale in (discord.Locale.american_english, discord.Locale.japanese):
        got = await translator.translate(string, locale,
                                         app_commands.TranslationContext(
                                             app_commands.TranslationContextLocation.other, None))
        assert got is None


def test_only_languages_with_a_catalogue_are_spoken() -> None:
    assert locale_language(discord.Locale.british_english) == "en"
    assert locale_language(discord.Locale.japanese) is None
    assert locale_language(None) is None


def test_a_member_is_answered_in_their_language_else_english() -> None:
    from types import SimpleNamespace
    from typing import Any, cast

    from bot.errors import APOLOGY, apology
    from bot.languages import member_language

    for locale in (discord.Locale.british_english, discord.Locale.japanese):
        member = cast(Any, SimpleNamespace(locale=locale))
        assert member_language(member) == "en"
        assert apology(member) == APOLOGY
    assert APOLOGY.startswith("Sorry, something went wrong on my side")


async def test_a_command_text_with_parameters_fills_them_in() -> None:
    string = text("commands.choice.timer.minutes", n=2)
    assert string.message == "2 min" and string.extras["params"] == {"n": 2}
