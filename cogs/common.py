"""Small helpers the cogs share: the bot's parts and private answers."""

from __future__ import annotations

from typing import Any

import discord

from bot.controls.base import bot_of
from bot.controls.replies import display_name
from bot.errors import tell

__all__ = ["bot_of", "display_name", "reply_privately"]


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer the user alone: why nothing happened, or what did (a success is private too)."""
    await tell(interaction, text)
