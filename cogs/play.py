"""Playing: bidding and card controls (in a DM or an ephemeral reply) and "My hand"."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.bot import BeloteBot
from bot.components import Address, BadControl, decode_action
from bot.delivery import hand_key
from bot.tables import LiveTable
from game.cards import Card
from game.choices import declare_from_code

from .answers import SlowAnswer
from .common import bot_of, reply_privately


def choice_of(code: str) -> tuple[tuple[Card, ...], ...] | None:
    """The announcements a select value names; BadControl if it names none."""
    try:
        return declare_from_code(code)
    except ValueError as e:
        raise BadControl(f"bad announcement choice {code!r}") from e


async def send_hand(interaction: discord.Interaction[Any], live: LiveTable) -> None:
    """The player's hand and controls as an ephemeral reply (closed DMs, or on request)."""
    seat = live.held_seat(interaction.user.id)
    if seat is None:
        await reply_privately(interaction,
                              "You are not playing at this table; anyone can watch it.")
        return
    if live.view(seat) is None:
        await reply_privately(interaction, "The game has not started yet.")
        return
    delivery = bot_of(interaction).delivery
    async with delivery.hand_reply(live, seat, interaction, new_reply=True), \
            SlowAnswer(interaction, update=False, ephemeral=True) as answer:
        await answer.send(await delivery.hand_payload(live, seat))


async def show_hand(interaction: discord.Interaction[Any], live: LiveTable) -> None:
    """Answer a click on a hand message (DM or ephemeral) by editing it to the hand now."""
    seat = live.held_seat(interaction.user.id)
    assert seat is not None
    delivery = bot_of(interaction).delivery
    view = live.view(seat)
    assert view is not None
    shown = hand_key(live, view)
    message_id = interaction.message.id if interaction.message is not None else None
    try:
        async with delivery.hand_reply(live, seat, interaction), \
                SlowAnswer(interaction, update=True) as answer:  # this answer is the hand's edit
            await delivery.edit_hand(live, seat, message_id, answer.send)
    except discord.HTTPException as e:
        # Too late (10062), refused, or Discord failed: the action stands (it is logged);
        # show the hand through the ordinary DM edit instead.
        delivery.answer_failed(interaction, live.id, e)
        return
    now = live.view(seat)
    if now is not None and hand_key(live, now) != shown:
        # Computers moved while this reply was on its way, and a DM edit showing their
        # moves may have landed before it: edit once more with the newest state.
        delivery.invalidate(live.id, seat)
        delivery.hands_changed(live, [seat])


class Play(commands.Cog):
    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.router.add("act", self.on_act)
        self.bot.router.add("bid", self.on_act)
        self.bot.router.add("hand", self.on_hand)
        self.bot.router.add("ann", self.on_choice)
        self.bot.router.add("blt", self.on_choice)

    async def cog_unload(self) -> None:
        for kind in ("act", "bid", "hand", "ann", "blt"):
            self.bot.router.remove(kind)

    async def on_choice(self, interaction: discord.Interaction[Any], address: Address) -> None:
        """The announcements to make with the first card (a select), or belote on/off."""
        deal = address.number(0)
        declare = choice_of(address.value()) if address.kind == "ann" else False
        belote = address.arg(1) == "1" if address.kind == "blt" else None
        live = await self.bot.service.choose(address.table_id, interaction.user.id, deal,
                                             declare=declare, belote=belote)
        await show_hand(interaction, live)

    async def on_hand(self, interaction: discord.Interaction[Any], address: Address) -> None:
        live = self.bot.service.get(address.table_id)
        await send_hand(interaction, live)

    async def on_act(self, interaction: discord.Interaction[Any], address: Address) -> None:
        service = self.bot.service
        live = service.get(address.table_id)
        seq = address.number(0)
        code = address.value() if address.kind == "bid" else address.arg(1)
        action = decode_action(live.variant, code)
        live = await service.act(address.table_id, interaction.user.id, seq, action)
        await show_hand(interaction, live)


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Play(bot))
