"""Small helpers the cogs share: the bot's parts and private answers."""

from __future__ import annotations

from typing import Any

import discord

from bot.bot import BeloteBot
from bot.errors import tell


def bot_of(interaction: discord.Interaction[Any]) -> BeloteBot:
    client: BeloteBot = interaction.client
    return client


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer the user alone: why nothing happened, or what did (a success is private too)."""
    await tell(interaction, text)


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:32]
