"""Slash-command names, descriptions, options and choices, worded by the one catalogue.

Every command text is written ``text("commands.new.description")``: a ``locale_str`` whose
default message is the catalogue's English (what Discord shows by default, and, for a name, what
routes the command) and whose ``id`` extra names the message. At sync time discord.py asks
:class:`CatalogueTranslator` for each of Discord's locales; a language with its own catalogue
answers, any other keeps the English default.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from i18n import DEFAULT_LANGUAGE, languages, message_ids, words

if TYPE_CHECKING:
    from db.readers import MemberLanguagesRepo

log = logging.getLogger(__name__)

# Discord's locales that have a catalogue of ours. English is the default text itself.
LANGUAGE_OF_LOCALE: Final[dict[discord.Locale, str]] = {
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
    discord.Locale.french: "fr",
    discord.Locale.bulgarian: "bg",
}


def language_of(locale: discord.Locale | None) -> str | None:
    """The catalogue language for a Discord locale, or None when we do not speak it."""
    if locale is None:
        return None
    language = LANGUAGE_OF_LOCALE.get(locale)
    return language if language in languages() else None


class Readers:
    """The language each member's Discord client speaks, as their last interaction said. What
    the bot sends one member unasked (their DM hand) is written in it. Each change is written
    to the database in the background (one writer, newest value wins), and the players of the
    restored tables are read back at start: a restart keeps a French player's hand French."""

    def __init__(self) -> None:
        # None: their client speaks none of our languages (they read the table's).
        self._seen: dict[int, str | None] = {}
        self._repo: MemberLanguagesRepo | None = None
        self._unsaved: dict[int, str | None] = {}
        self._writer: asyncio.Task[None] | None = None

    def attach(self, repo: MemberLanguagesRepo) -> None:
        self._repo = repo

    async def load(self, user_ids: Iterable[int]) -> None:
        """Read back what was stored for these members (those seen since are newer: kept)."""
        if self._repo is None:
            return
        wanted = [u for u in set(user_ids) if u not in self._seen]
        stored = await self._repo.load(wanted)
        for user_id in wanted:
            self._seen.setdefault(user_id, stored.get(user_id))

    def note(self, user_id: int, locale: discord.Locale | None) -> None:
        language = language_of(locale)
        if user_id in self._seen and self._seen[user_id] == language:
            return
        self._seen[user_id] = language
        if self._repo is not None:
            self._unsaved[user_id] = language
            if self._writer is None or self._writer.done():
                self._writer = asyncio.create_task(self._write(self._repo),
                                                   name="belote-member-languages")

    def language(self, user_id: int | None, otherwise: str) -> str:
        """``user_id``'s language when we speak it, else ``otherwise`` (the table's)."""
        known = self._seen.get(user_id) if user_id is not None else None
        return known or otherwise

    async def _write(self, repo: MemberLanguagesRepo) -> None:
        while self._unsaved:
            user_id, language = self._unsaved.popitem()
            try:
                await repo.save(user_id, language)
            except Exception as e:  # a language is a comfort: never worth a failed action
                log.warning("member %s's language not saved (%s): kept in memory", user_id,
                            e)

    async def flush(self) -> None:
        """Wait until every change is written (before the database closes)."""
        while self._writer is not None and not self._writer.done():
            await self._writer


def text(message_id: str, **params: object) -> app_commands.locale_str:
    """A command text: English by default, translated per client locale at sync. ``params``
    fill the message's named parameters in every language."""
    return app_commands.locale_str(words(DEFAULT_LANGUAGE)(message_id, **params), id=message_id,
                                   params=params)


def in_language(string: app_commands.locale_str, language: str) -> str:
    """A command text as a client in ``language`` shows it (the English default when the
    language has no catalogue of ours or the text no id)."""
    message_id = string.extras.get("id")
    if not isinstance(message_id, str) or message_id not in message_ids(language):
        return string.message
    return words(language)(message_id, **(string.extras.get("params") or {}))


def command_name(command: app_commands.Command[Any, ..., Any] | app_commands.Group,
                 language: str) -> str:
    """A command's full name as a client in ``language`` shows it: ``belote nouvelle``."""
    parts: list[str] = []
    node: app_commands.Command[Any, ..., Any] | app_commands.Group | None = command
    while node is not None:
        # discord.py keeps the locale_str a command was named with (its extras hold our id).
        name: app_commands.locale_str | None = getattr(node, "_locale_name", None)
        parts.append(in_language(name, language) if name is not None else node.name)
        node = node.parent
    return " ".join(reversed(parts))


def command_description(command: app_commands.Command[Any, ..., Any] | app_commands.Group,
                        language: str) -> str:
    described: app_commands.locale_str | None = getattr(command, "_locale_description", None)
    return in_language(described, language) if described is not None else command.description


class CatalogueTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        message_id = string.extras.get("id")
        language = language_of(locale)
        if not isinstance(message_id, str) or language in (None, DEFAULT_LANGUAGE):
            return None  # Discord shows the default (English) message
        assert language is not None
        if message_id not in message_ids(language):  # cached: asked once per text and locale
            return None
        params = string.extras.get("params") or {}
        return words(language)(message_id, **params)
