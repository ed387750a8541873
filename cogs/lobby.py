"""The lobby and table-message buttons: sit, add a computer, leave, start, rules, take back."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord.ext import commands

from bot.bot import BeloteBot
from bot.components import Address
from bot.messages import NO_MENTIONS, rules_card
from bot.tables import LiveTable
from db import SeatRow

from .answers import SlowAnswer
from .common import bot_of, display_name, reply_privately
from .play import show_hand

log = logging.getLogger(__name__)


async def show_table(interaction: discord.Interaction[Any], live: LiveTable) -> None:
    """Answer a click on the table message by editing it to the table as it is now."""
    delivery = bot_of(interaction).delivery
    shown = delivery.table_key(live)
    delivery.table_answered(live)  # this answer is the table message's edit
    async with SlowAnswer(interaction, update=True) as answer:
        await answer.send({"allowed_mentions": NO_MENTIONS, **await delivery.table_payload(live)})
    if delivery.table_key(live) != shown:
        # The game moved on (computers) while this answer was made, and an edit showing
        # that may have landed before it: edit once more with the newest state.
        delivery.table_shown.pop(live.id, None)
        delivery.table_changed(live)


class Lobby(commands.Cog):
    KINDS = ("sit", "cpu", "leave", "start", "rules", "back")

    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot
        self.notices: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        for kind in self.KINDS:
            self.bot.router.add(kind, getattr(self, f"on_{kind}"))
        self.bot.service.timeout_hooks.append(self.timed_out)

    async def cog_unload(self) -> None:
        for kind in self.KINDS:
            self.bot.router.remove(kind)
        self.bot.service.timeout_hooks.remove(self.timed_out)

    def timed_out(self, live: LiveTable, seat: SeatRow) -> None:
        """Tell a player who ran out of time, in the table's thread (a DM edit does not
        notify them): a computer plays for them, and how to take the seat back."""
        if seat.user_id is None or live.lost is not None:
            return
        text = (f"⏱ <@{seat.user_id}>, your time ran out at table #{live.id}: a computer "
                "plays your seat. **Take my seat back** on the table message or in your hand "
                "(`/belote hand`) to play again.")
        task = self.bot.loop.create_task(self._notice(live, text, seat.user_id),
                                         name=f"belote-send-timeout-{live.id}")
        self.notices.add(task)  # a reference, so the task is not collected mid-way
        task.add_done_callback(self.notices.discard)

    async def _notice(self, live: LiveTable, text: str, user_id: int) -> None:
        try:
            await self.bot.delivery.notice(live, text, mention=user_id)
        except discord.HTTPException as e:  # the table and the DM say it too
            log.info("table %s: time-out notice not sent (%s)", live.id, e)

    async def on_sit(self, interaction: discord.Interaction[Any], address: Address) -> None:
        live = await self.bot.service.sit(address.table_id, interaction.user.id,
                                          display_name(interaction.user),
                                          address.number(0) & 3)
        await show_table(interaction, live)

    async def on_cpu(self, interaction: discord.Interaction[Any], address: Address) -> None:
        level = address.arg(1) if len(address.args) > 1 else None
        live = await self.bot.service.add_computer(address.table_id, interaction.user.id,
                                                   address.number(0) & 3, level)
        await show_table(interaction, live)

    async def on_leave(self, interaction: discord.Interaction[Any], address: Address) -> None:
        text = await self.bot.service.leave(address.table_id, interaction.user.id)
        await reply_privately(interaction, text)

    async def on_start(self, interaction: discord.Interaction[Any], address: Address) -> None:
        live = await self.bot.service.start(address.table_id, interaction.user.id)
        await show_table(interaction, live)

    async def on_back(self, interaction: discord.Interaction[Any], address: Address) -> None:
        live = await self.bot.service.reclaim(address.table_id, interaction.user.id)
        if interaction.message is not None and interaction.message.id == live.row.message_id:
            await show_table(interaction, live)
        else:  # clicked on the player's own hand (DM or "My hand"): show the controls there
            await show_hand(interaction, live)

    async def on_rules(self, interaction: discord.Interaction[Any], address: Address) -> None:
        live = self.bot.service.get(address.table_id)
        await reply_privately(interaction, rules_card(live))


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Lobby(bot))
