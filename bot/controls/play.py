"""A player's controls, on their hand (a DM or an ephemeral reply): bid and play, the
announcement and belote choices, and "My hand" on the table message.

Card names appear only in custom_ids of messages their holder alone sees. Action controls carry
the sequence number they were drawn for (``bt:act:12:57:play.JH``), so a stale click is refused.
Only the seat's holder may press them: the table service checks it, and refuses in words.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from game.actions import Action, CoincheBid, Contre, Double, Pass, Play, Redouble, Surcontre
from game.cards import SUIT_SYMBOLS, Card, Suit, card_str
from game.choices import PASS_AHEAD, ahead_action, declare_from_code
from i18n import Words, action_label, card_label, trump_text, words

from .base import (
    NEVER,
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
from .codes import decode_action, encode_action
from .replies import send_hand, show_hand


def choice_of(code: str) -> tuple[tuple[Card, ...], ...] | None:
    """The announcements a select value names; BadControl if it names none."""
    try:
        return declare_from_code(code)
    except ValueError as e:
        raise BadControl("not an announcement choice") from e  # not named: it may name cards


def card_style(card: Card) -> discord.ButtonStyle:
    """A card's button in its suit's colour: red for diamonds and hearts."""
    return discord.ButtonStyle.danger if (card >> 3) in (1, 2) else \
        discord.ButtonStyle.secondary


def bid_style(action: Action) -> discord.ButtonStyle:
    """A pass plain, a contre or a double red, a bid blue."""
    if isinstance(action, Pass):
        return discord.ButtonStyle.secondary
    if isinstance(action, Contre | Surcontre | Double | Redouble):
        return discord.ButtonStyle.danger
    return discord.ButtonStyle.primary


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
    def bid(cls, table_id: int, seq: int, action: Action, language: str, *,
            row: int | None = None) -> Self:
        """A call of the auction: ``Pass``, ``Take ♥``, ``Contre``..."""
        return cls(table_id, seq, encode_action(action),
                   Look(action_label(action, language), bid_style(action), row=row))

    @classmethod
    def card(cls, table_id: int, seq: int, card: Card, language: str, *, legal: bool,
             row: int | None = None) -> Self:
        """A card to play on the holder's turn; greyed out when the rules forbid it."""
        return cls(table_id, seq, encode_action(Play(card)),
                   Look(card_label(card, language), card_style(card), disabled=not legal,
                        row=row))

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
    def shown(cls, table_id: int, seq: int, suit: int, bids: list[CoincheBid], language: str,
              *, row: int | None = None) -> Self:
        """"Bid in ♥ hearts…": the values of one suit (Discord lists 25 at most)."""
        options = [discord.SelectOption(label=action_label(b, language), value=encode_action(b))
                   for b in bids]
        placeholder = words(language)("controls.bid_in", symbol=SUIT_SYMBOLS[suit],
                                      suit=trump_text(Suit(suit), language))
        return cls(table_id, seq, suit, placeholder=placeholder, options=options[:25], row=row)

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

    @classmethod
    def shown(cls, table_id: int, w: Words) -> Self:
        return cls(table_id, Look(w("controls.hand"), discord.ButtonStyle.primary, emoji="🂠"))

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
    def shown(cls, table_id: int, deal: int, choices: list[tuple[str, str]], chosen: str,
              w: Words, *, row: int | None = None) -> Self:
        """The announcements the holder may make (``choices``: code and label), ``chosen``
        marked."""
        options = [discord.SelectOption(label=label, value=value, default=value == chosen)
                   for value, label in choices]
        return cls(table_id, deal, placeholder=w("controls.announcements"), options=options,
                   row=row)

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
    def shown(cls, table_id: int, deal: int, announced: bool, w: Words, *,
              row: int | None = None) -> Self:
        """Says whether belote is announced now (green when it is); a press turns it."""
        return cls(table_id, deal, not announced, Look(
            w("controls.belote_on" if announced else "controls.belote_off"),
            discord.ButtonStyle.success if announced else discord.ButtonStyle.secondary,
            row=row))

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
    def shown(cls, table_id: int, seq: int, w: Words, *, row: int | None = None) -> Self:
        return cls(table_id, seq, Look(w("controls.claim"), discord.ButtonStyle.success,
                                       emoji="🏁", row=row))

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


class _Ahead(ButtonControl, template=NEVER):
    """What the two choice-ahead buttons share: ``bt:<kind>:<table>:<deal>:<pass|card>``."""

    answers_by = "edit"
    on: ClassVar[bool]  # a press makes the choice (True) or cancels it (False)

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
                                   on=self.on)
        await show_hand(interaction, live)


class AheadButton(_Ahead, template=rf"bt:ahead:{TABLE}:(?P<deal>{PART}):(?P<code>{PART})"):
    """``bt:ahead:<table>:<deal>:<pass|card>``: the card its holder means to play next, or a
    pass in the auction, chosen before their turn (played at once if their turn came)."""

    kind = "ahead"
    on = True

    @classmethod
    def card(cls, table_id: int, deal: int, card: Card, language: str, *,
             row: int | None = None) -> Self:
        """A card of the hand while the others play: pressed, it is the one played next."""
        return cls(table_id, deal, card_str(card),
                   Look(card_label(card, language), card_style(card), row=row))

    @classmethod
    def pass_(cls, table_id: int, deal: int, w: Words) -> Self:
        return cls(table_id, deal, PASS_AHEAD, Look(w("controls.pass_ahead")))


class UnaheadButton(_Ahead,
                    template=rf"bt:unahead:{TABLE}:(?P<deal>{PART}):(?P<code>{PART})"):
    """``bt:unahead:<table>:<deal>:<pass|card>``: the choice made ahead, pressed again:
    cancelled (nothing else if it is not the choice any more)."""

    kind = "unahead"
    on = False

    @classmethod
    def card(cls, table_id: int, deal: int, card: Card, language: str, *,
             row: int | None = None) -> Self:
        """The card chosen ahead, marked as the choice (green)."""
        return cls(table_id, deal, card_str(card), Look(
            words(language)("controls.ahead_chosen", card=card_label(card, language)),
            discord.ButtonStyle.success, row=row))

    @classmethod
    def pass_(cls, table_id: int, deal: int, w: Words) -> Self:
        return cls(table_id, deal, PASS_AHEAD,
                   Look(w("controls.pass_ahead_chosen"), discord.ButtonStyle.success))


PLAY_CONTROLS = (ActButton, BidSelect, HandButton, AnnounceSelect, BeloteButton, AheadButton,
                 UnaheadButton, ClaimButton)
