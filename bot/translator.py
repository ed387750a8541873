"""Slash-command names, descriptions, options and choices, worded by the one catalogue.

Every command text is written ``text("commands.new.description")``: a ``locale_str`` whose
default message is the catalogue's English (what Discord shows by default, and, for a name, what
routes the command) and whose ``id`` extra names the message. At sync time discord.py asks
:class:`CatalogueTranslator` for each of Discord's locales; a language with its own catalogue
answers, any other keeps the English default.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from i18n import DEFAULT_LANGUAGE, message_ids, words

from .languages import locale_language


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
        language = locale_language(locale)
        if not isinstance(message_id, str) or language in (None, DEFAULT_LANGUAGE):
            return None  # Discord shows the default (English) message
        assert language is not None
        if message_id not in message_ids(language):  # cached: asked once per text and locale
            return None
        params = string.extras.get("params") or {}
        return words(language)(message_id, **params)
