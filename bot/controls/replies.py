"""How a control answers: by editing the message it sits on to the table or the hand as it is
now, or with a private reply. Shared by the controls and the ``/belote hand`` command."""

from __future__ import annotations

from typing import Any

import discord

from i18n import words
from service.tables import LiveTable

from ..answers import SlowAnswer
from ..errors import tell
from ..languages import member_language
from .base import bot_of, let_go


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:32]


async def show_table(interaction: discord.Interaction[Any], live: LiveTable) -> None:
    """Answer a click on the table message by editing it to the table as it is now."""
    deliver = bot_of(interaction).delivery
    shown = deliver.screens.table_key(live)
    # This answer is the table message's edit (and its token edits the table from now on).
    async with deliver.table_reply(live, interaction), \
            SlowAnswer.of(interaction, update=True) as answer:
        await answer.send({"allowed_mentions": discord.AllowedMentions.none(),
                           **await deliver.screens.table_payload(live)})
    deliver.answered(live, shown)


async def send_hand(interaction: discord.Interaction[Any], live: LiveTable) -> None:
    """The player's hand and controls as an ephemeral reply (closed DMs, or on request)."""
    seat = live.held_seat(interaction.user.id)
    if seat is None:
        w = words(member_language(interaction, live.language))
        await tell(interaction, w("controls.not_playing"))
        return
    if live.view(seat) is None:
        w = words(member_language(interaction, live.language))
        await tell(interaction, w("controls.not_started"))
        return
    deliver = bot_of(interaction).delivery
    async with deliver.hand_reply(live, seat, interaction, new_reply=True), \
            SlowAnswer.of(interaction, update=False, ephemeral=True) as answer:
        payload = await deliver.screens.hand_payload(live, seat)
        try:
            await answer.send(payload)
        finally:
            let_go(payload.get("view"))


async def show_hand(interaction: discord.Interaction[Any], live: LiveTable) -> None:
    """Answer a click on a hand message (DM or ephemeral) by editing it to the hand now."""
    seat = live.held_seat(interaction.user.id)
    assert seat is not None
    deliver = bot_of(interaction).delivery
    view = live.view(seat)
    assert view is not None
    shown = deliver.screens.hand_key(live, view)
    message_id = interaction.message.id if interaction.message is not None else None
    try:
        async with deliver.hand_reply(live, seat, interaction), \
                SlowAnswer.of(interaction, update=True) as answer:  # this answer is the hand's edit
            await deliver.edit_hand(live, seat, message_id, answer.send)
    except discord.HTTPException as e:
        # Too late (10062), refused, or Discord failed: the action stands (it is logged);
        # show the hand through the ordinary DM edit instead.
        deliver.answer_failed(interaction, live.id, e)
        return
    deliver.answered(live, shown, seat)
