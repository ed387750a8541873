"""Time-out notices: a player whose turn timer ran out is told so in the table's thread.

The table message's buttons themselves are controls: bot/controls/lobby.py.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import commands

from bot.bot import BeloteBot
from bot.tables import LiveTable
from db import SeatRow
from i18n import words

log = logging.getLogger(__name__)


class Lobby(commands.Cog):
    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot
        self.notices: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        self.bot.service.timeout_hooks.append(self.timed_out)

    async def cog_unload(self) -> None:
        self.bot.service.timeout_hooks.remove(self.timed_out)

    def timed_out(self, live: LiveTable, seat: SeatRow) -> None:
        """Tell a player who ran out of time, in the table's thread (a DM edit does not
        notify them): a computer plays for them, and how to take the seat back."""
        if seat.user_id is None or live.lost is not None:
            return
        text = words(live.language)("lobby.timed_out", user=f"<@{seat.user_id}>",
                                    table=live.id)
        task = self.bot.loop.create_task(self._notice(live, text, seat.user_id),
                                         name=f"belote-send-timeout-{live.id}")
        self.notices.add(task)  # a reference, so the task is not collected mid-way
        task.add_done_callback(self.notices.discard)

    async def _notice(self, live: LiveTable, text: str, user_id: int) -> None:
        try:
            await self.bot.delivery.notice(live, text, mention=user_id)
        except discord.HTTPException as e:  # the table and the DM say it too
            log.info("table %s: time-out notice not sent (%s)", live.id, e)


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Lobby(bot))
