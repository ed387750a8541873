"""The table message's controls: sit, add a computer, start, leave, rules, take my seat back.

Each is answered by editing the table message (or privately); who may press a control is
checked by the table service, which refuses in the user's words.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from i18n import DEFAULT_LANGUAGE, Seat, Words, words

from ..errors import tell
from ..languages import member_language
from ..messages import rules_card
from .base import (
    PART,
    PLAIN,
    TABLE,
    ButtonControl,
    Look,
    TableButton,
    bot_of,
    number,
    table_number,
)
from .replies import display_name, show_hand, show_table


class SitButton(ButtonControl, template=rf"bt:sit:{TABLE}:(?P<seat>{PART})"):
    """``bt:sit:<table>:<seat>``. Anyone may press it; a taken seat or a player seated at
    another table is refused."""

    kind = "sit"
    answers_by = "edit"

    def __init__(self, table_id: int, seat: int, look: Look = PLAIN) -> None:
        self.seat = seat
        super().__init__(table_id, seat, look=look)

    @classmethod
    def shown(cls, table_id: int, seat: int, w: Words, taken_by: str | None = None, *,
              row: int | None = None) -> Self:
        """The seat's button: "Sit North" while it is free (primary), else who sits there."""
        if taken_by is None:
            return cls(table_id, seat, Look(w("controls.sit", seat=Seat(seat)),
                                            discord.ButtonStyle.primary, row=row))
        return cls(table_id, seat, Look(taken_by[:80], discord.ButtonStyle.secondary, row=row))

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["seat"], "seat") & 3)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        live = await bot_of(interaction).service.sit(
            self.table_id, interaction.user.id, display_name(interaction.user), self.seat)
        await show_table(interaction, live)


class ComputerButton(ButtonControl,
                     template=rf"bt:cpu:{TABLE}:(?P<seat>{PART})(?::(?P<level>{PART}))?"):
    """``bt:cpu:<table>:<seat>[:<level>]``: seat a computer (no level: the table's own).
    Only the host may press it."""

    kind = "cpu"
    answers_by = "edit"

    def __init__(self, table_id: int, seat: int, level: str | None = None,
                 look: Look = PLAIN) -> None:
        self.seat, self.level = seat, level
        super().__init__(table_id, *((seat,) if level is None else (seat, level)), look=look)

    @classmethod
    def shown(cls, table_id: int, seat: int, level: str, table_level: str, w: Words, *,
              row: int | None = None) -> Self:
        """"🤖 <level> North": a computer of ``level`` (the table's own names no level)."""
        label = w("controls.computer", level=w(f"controls.level.{level}"), seat=Seat(seat))
        return cls(table_id, seat, None if level == table_level else level,
                   Look(label, emoji="🤖", row=row))

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["seat"], "seat") & 3, match["level"])

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        live = await bot_of(interaction).service.add_computer(
            self.table_id, interaction.user.id, self.seat, self.level)
        await show_table(interaction, live)


class StartButton(TableButton, template=rf"bt:start:{TABLE}"):
    """``bt:start:<table>``. Only the host may press it, once all four seats are taken."""

    kind = "start"
    answers_by = "edit"

    @classmethod
    def shown(cls, table_id: int, w: Words, *, row: int | None = None) -> Self:
        return cls(table_id, Look(w("controls.start"), discord.ButtonStyle.success, row=row))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        live = await bot_of(interaction).service.start(self.table_id, interaction.user.id)
        await show_table(interaction, live)


class LeaveButton(TableButton, template=rf"bt:leave:{TABLE}"):
    """``bt:leave:<table>``. A seated player leaves (a computer takes over a game under way);
    anyone else is told they do not sit there. Answered privately."""

    kind = "leave"
    answers_by = "reply"

    @classmethod
    def shown(cls, table_id: int, w: Words, *, row: int | None = None) -> Self:
        return cls(table_id, Look(w("controls.leave"), discord.ButtonStyle.danger, row=row))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        service = bot_of(interaction).service
        said = await service.leave(self.table_id, interaction.user.id)
        live = service.live.get(self.table_id)
        otherwise = live.language if live is not None else DEFAULT_LANGUAGE
        await tell(interaction, words(member_language(interaction, otherwise))(said))


class RulesButton(TableButton, template=rf"bt:rules:{TABLE}"):
    """``bt:rules:<table>``. Anyone may press it: the table's rules card, privately."""

    kind = "rules"
    answers_by = "reply"

    @classmethod
    def shown(cls, table_id: int, w: Words, *, row: int | None = None) -> Self:
        return cls(table_id, Look(w("controls.rules"), row=row))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        live = bot_of(interaction).service.get(self.table_id)
        await tell(interaction, rules_card(live, member_language(interaction, live.language)))


class TakeBackButton(TableButton, template=rf"bt:back:{TABLE}"):
    """``bt:back:<table>``: take my seat back from the computer playing it. Only the player
    who left or ran out of time may press it; on the table message or on their hand."""

    kind = "back"
    answers_by = "edit"

    @classmethod
    def shown(cls, table_id: int, w: Words, *, on_hand: bool = False) -> Self:
        """On the table message among others; on the player's hand, the one thing to do
        (primary)."""
        style = discord.ButtonStyle.primary if on_hand else discord.ButtonStyle.secondary
        return cls(table_id, Look(w("controls.take_back"), style))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        live = await bot_of(interaction).service.reclaim(self.table_id, interaction.user.id)
        message = interaction.message
        if message is not None and message.id == live.row.message_id:
            await show_table(interaction, live)
        elif message is not None and (interaction.guild_id is None or message.flags.ephemeral):
            # Clicked on the player's own hand (their DM, or a "My hand" reply only they
            # see): show the controls there.
            await show_hand(interaction, live)
        else:
            # A public message that is not the table's any more (``/belote show`` posted a
            # newer one): everybody sees it, so it never becomes the hand. Words for the
            # player alone; their hand comes as every hand does (DM, or "My hand").
            await tell(interaction, words(member_language(interaction, live.language))(
                "controls.back_elsewhere", table=live.id))


LOBBY_CONTROLS = (SitButton, ComputerButton, StartButton, LeaveButton, RulesButton,
                  TakeBackButton)
