"""Answers the clicks no component of ours matches, so nobody sees "This interaction failed"."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.bot import BeloteBot
from bot.controls import is_ours, unknown_control
from bot.errors import tell
from bot.undelivered import answering


class Fallback(commands.Cog):
    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        # Our own custom_ids are answered by the persistent items (bot/controls/); any
        # other click on a message of ours comes from a control we no longer have.
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = data.get("custom_id", "")
        if not is_ours(str(custom_id)):
            with answering(interaction, "that the control is unknown", "an unknown control"):
                await tell(interaction, unknown_control(interaction))


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Fallback(bot))
