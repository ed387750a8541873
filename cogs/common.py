"""Small helpers the cogs share: the bot's parts and private answers."""

from __future__ import annotations

from typing import Any

import discord

from bot.controls.base import bot_of
from bot.controls.replies import display_name
from bot.errors import language, tell
from i18n import DEFAULT_LANGUAGE, Words, words

# What the bot posts for everybody in a channel: in the server's language (English until
# servers choose one). What one member alone reads is in their client's language.
PUBLIC = words(DEFAULT_LANGUAGE)


def member_words(interaction: discord.Interaction[Any]) -> Words:
    """The words of the member who used the command or control, in their language."""
    return words(language(interaction))


__all__ = ["PUBLIC", "bot_of", "display_name", "member_words", "reply_privately"]


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer the user alone: why nothing happened, or what did (a success is private too)."""
    await tell(interaction, text)
