"""A player's controls, on their hand (a DM or an ephemeral reply): bid and play, the
announcement and belote choices, and "My hand" on the table message.

Card names appear only in custom_ids of messages their holder alone sees. Action controls carry
the sequence number they were drawn for (``bt:act:12:57:play.JH``), so a stale click is refused.
Only the seat's holder may press them: the table service checks it, and refuses in words.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from game.actions import Action
from game.cards import Card
from game.choices import ahead_action, declare_from_code

from .base import (
    PART,
    PLAIN,
    TABLE,
    BadControl,
    ButtonControl,
    Look,
    SelectControl,
    TableButton,
    bot_of,
    number,
    table_number,
)
from .codes import decode_action
from .replies import send_hand, show_hand


def choice_of(code: str) -> tuple[tuple[Card, ...], ...] | None:
    """The announcements a select value names; BadControl if it names none."""
    try:
        return declare_from_code(code)
    except ValueError as e:
        raise BadControl("not an announcement choice") from e  # not named: it may name cards


async def act(interaction: discord.Interaction[Any], table_id: int, seq: int,
              code: str) -> None:
    """Bid or play the action ``code`` names, for the sequence number ``seq``."""
    service = bot_of(interaction).service
    live = service.get(table_id)  # a closed table says so before its code is read
    action = decode_action(live.variant, code)
    live = await service.act(table_id, interaction.user.id, seq, action)
    await show_hand(interaction, live)


class ActButton(ButtonControl, template=rf"bt:act:{TABLE}:(?P<seq>{PART}):(?P<code>{PART})"):
    """``bt:act:<table>:<seq>:<action code>``: a bid or a card (codes: bot/controls/codes.py)."""

    kind = "act"
    answers_by = "edit"
    moves = True

    def __init__(self, table_id: int, seq: int, code: str, look: Look = PLAIN) -> None:
        self.seq, self.code = seq, code
        super().__init__(table_id, seq, code, look=look)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["seq"], "seq"), match["code"])

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await act(interaction, self.table_id, self.seq, self.code)


class BidSelect(SelectControl, template=rf"bs:bid:{TABLE}:(?P<seq>{PART}):(?P<suit>{PART})"):
    """``bs:bid:<table>:<seq>:<suit>``: the Coinche bids in one suit; the value chosen is the
    action code."""

    kind = "bid"
    answers_by = "edit"
    moves = True

    def __init__(self, table_id: int, seq: int, suit: int, *, placeholder: str | None = None,
                 options: list[discord.SelectOption] | None = None,
                 row: int | None = None) -> None:
        self.seq, self.suit = seq, suit
        super().__init__(table_id, seq, suit, placeholder=placeholder, options=options, row=row)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["seq"], "seq"),
                   number(match["suit"], "suit"))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await act(interaction, self.table_id, self.seq, self.chosen())


class HandButton(TableButton, template=rf"bt:hand:{TABLE}"):
    """``bt:hand:<table>`` ("My hand"): the player's hand and controls, privately. Anyone may
    press it; a watcher is told they do not play."""

    kind = "hand"
    answers_by = "reply"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await send_hand(interaction, bot_of(interaction).service.get(self.table_id))


class AnnounceSelect(SelectControl, template=rf"bs:ann:{TABLE}:(?P<deal>{PART})"):
    """``bs:ann:<table>:<deal>``: the announcements to make with the first card of a deal; the
    value chosen is a choice code (game/choices.py)."""

    kind = "ann"
    answers_by = "edit"

    def __init__(self, table_id: int, deal: int, *, placeholder: str | None = None,
                 options: list[discord.SelectOption] | None = None,
                 row: int | None = None) -> None:
        self.deal = deal
        super().__init__(table_id, deal, placeholder=placeholder, options=options, row=row)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["deal"], "deal"))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        declare = choice_of(self.chosen())
        live = await bot_of(interaction).service.choose(
            self.table_id, interaction.user.id, self.deal, declare=declare, belote=None)
        await show_hand(interaction, live)


class BeloteButton(ButtonControl, template=rf"bt:blt:{TABLE}:(?P<deal>{PART}):(?P<on>{PART})"):
    """``bt:blt:<table>:<deal>:<1|0>``: announce belote with the king or queen of trumps, or
    not (the button says what a press turns it to)."""

    kind = "blt"
    answers_by = "edit"

    def __init__(self, table_id: int, deal: int, on: bool, look: Look = PLAIN) -> None:
        self.deal, self.on = deal, on
        super().__init__(table_id, deal, 1 if on else 0, look=look)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["deal"], "deal"), match["on"] == "1")

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        live = await bot_of(interaction).service.choose(
            self.table_id, interaction.user.id, self.deal, declare=False, belote=self.on)
        await show_hand(interaction, live)


class ClaimButton(ButtonControl, template=rf"bt:claim:{TABLE}:(?P<seq>{PART})"):
    """``bt:claim:<table>:<seq>``: the player to act claims the rest of the deal (their cards
    take every trick left whatever the others hold; the table service checks it again)."""

    kind = "claim"
    answers_by = "edit"
    moves = True

    def __init__(self, table_id: int, seq: int, look: Look = PLAIN) -> None:
        self.seq = seq
        super().__init__(table_id, seq, look=look)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["seq"], "seq"))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        live = await bot_of(interaction).service.claim(self.table_id, interaction.user.id,
                                                       self.seq)
        await show_hand(interaction, live)


def ahead_of(code: str) -> Action:
    """The action an ahead code names (``pass`` or a card); BadControl if none."""
    try:
        return ahead_action(code)
    except ValueError as e:
        raise BadControl("not an ahead code") from e  # not named: it may name a card


class AheadButton(ButtonControl,
                  template=rf"bt:ahead:{TABLE}:(?P<deal>{PART}):(?P<code>{PART})"):
    """``bt:ahead:<table>:<deal>:<pass|card>``: the card its holder means to play next, or a
    pass in the auction, chosen before their turn (played at once if their turn came)."""

    kind = "ahead"
    answers_by = "edit"

    def __init__(self, table_id: int, deal: int, code: str, look: Look = PLAIN) -> None:
        self.deal, self.code = deal, code
        super().__init__(table_id, deal, code, look=look)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["deal"], "deal"), match["code"])

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        service = bot_of(interaction).service
        action = ahead_of(self.code)
        live = await service.ahead(self.table_id, interaction.user.id, self.deal, action,
                                   on=True)
        await show_hand(interaction, live)


class UnaheadButton(ButtonControl,
                    template=rf"bt:unahead:{TABLE}:(?P<deal>{PART}):(?P<code>{PART})"):
    """``bt:unahead:<table>:<deal>:<pass|card>``: the choice made ahead, pressed again:
    cancelled (nothing else if it is not the choice any more)."""

    kind = "unahead"
    answers_by = "edit"

    def __init__(self, table_id: int, deal: int, code: str, look: Look = PLAIN) -> None:
        self.deal, self.code = deal, code
        super().__init__(table_id, deal, code, look=look)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["deal"], "deal"), match["code"])

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        service = bot_of(interaction).service
        action = ahead_of(self.code)
        live = await service.ahead(self.table_id, interaction.user.id, self.deal, action,
                                   on=False)
        await show_hand(interaction, live)


PLAY_CONTROLS = (ActButton, BidSelect, HandButton, AnnounceSelect, BeloteButton, AheadButton,
                 UnaheadButton, ClaimButton)
