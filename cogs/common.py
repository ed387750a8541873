"""Small helpers the cogs share: the bot's parts and private answers."""

from __future__ import annotations

from typing import Any

import discord

from bot.bot import BeloteBot
from bot.errors import tell


def bot_of(interaction: discord.Interaction[Any]) -> BeloteBot:
    client: BeloteBot = interaction.client
    return client


async def refuse(interaction: discord.Interaction[Any], text: str) -> None:
    """Say privately why nothing happened (or anything else for the user alone)."""
    await tell(interaction, text)


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:32]
