"""What every control shares: its custom_id format, its look, and the one place its refusals
and errors are answered.

A custom_id is an address, never a permission: ``bt:<kind>:<table>[:<a>[:<b>]]`` for buttons and
``bs:<kind>:<table>[:<a>[:<b>]]`` for selects. These formats are on messages posted on live
servers, so they never change. A control is a DynamicItem (it keeps working after a restart with
no per-message state): its class holds its template, the typed fields it reads from a custom_id
(:meth:`Control.read`), who may press it (its docstring; the table service enforces it) and its
handler (:meth:`Control.run`).

A custom_id that matches no template is answered by cogs/fallback.py. One whose shape is a
control's but whose parts cannot be read (an older version's message, a forged click) becomes an
:class:`Unreadable` control: if its table is closed it says so, else "I do not know this
control"; either way nothing changes.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, cast

import discord

from db.queries import MAX_ID
from i18n import DEFAULT_LANGUAGE, Words, words
from service import Refusal

from ..answers import SlowAnswer
from ..errors import answer_error, tell
from ..languages import member_language, server_language
from ..outbox import is_transient
from ..undelivered import answering

if TYPE_CHECKING:
    from ..host import Host

log = logging.getLogger(__name__)

NEVER = r"(?!)"  # the template of a class that is no control itself (a base)
# The largest id a control may name is the database's (MAX_ID). Templates take at most 19
# digits; a part is read only up to MAX_ID (``number``), so a forged id never reaches a query.
ID = r"[0-9]{1,19}"
TABLE = rf"(?P<table>{ID})"
PART = r"[^:]+"
KIND = re.compile(r"[a-z]{1,8}")  # what a control's kind looks like

# The English answer to an unknown control (the tests compare to it); a member reads
# ``unknown_control(interaction)``, in their language.
UNKNOWN_CONTROL = words()("controls.unknown")


def unknown_control(interaction: discord.Interaction[Any]) -> str:
    return words(member_language(interaction))("controls.unknown")


class BadControl(ValueError):
    """A custom_id of the right shape but not the right parts: a message from an older version,
    or a forged click."""


def control_id(prefix: str, kind: str, table_id: int, *parts: object) -> str:
    """``bt:sit:12:1``: the custom_id of a control (``bt`` a button, ``bs`` a select)."""
    return ":".join((prefix, kind, str(table_id), *(str(p) for p in parts)))


def button_id(kind: str, table_id: int, *parts: object) -> str:
    return control_id("bt", kind, table_id, *parts)


def select_id(kind: str, table_id: int, *parts: object) -> str:
    return control_id("bs", kind, table_id, *parts)


def number(text: str | None, what: str) -> int:
    """A part that must be a whole number the database can hold; BadControl otherwise."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 19 or \
            int(text) > MAX_ID:
        raise BadControl(f"{what}: {text!r} is not a number of ours")
    return int(text)


def table_number(match: re.Match[str]) -> int:
    """The table a custom_id names; BadControl past the largest id."""
    return number(match["table"], "table")


async def too_fast(interaction: discord.Interaction[Any]) -> bool:
    """Whether this member clicks faster than the click limit allows (bot/ratelimit.py): then
    they are told, privately, to slow down, and the click does nothing else."""
    bot = bot_of(interaction)
    if bot.limits.clicks.take(interaction.user.id) is None:
        return False
    with answering(interaction, "to slow down", "a click over the limit"):
        await tell(interaction, words(member_language(interaction))("controls.slow_down"))
    return True


def bot_of(interaction: discord.Interaction[Any]) -> Host:
    client: Host = interaction.client
    return client


async def public_words(interaction: discord.Interaction[Any], guild_id: int | None = None
                       ) -> Words:
    """The words of a message posted for everybody in a server (a board, a replay, stats): in
    the language its new tables speak. ``guild_id``: the server's (the interaction's unless
    told)."""
    guild_id = interaction.guild_id if guild_id is None else guild_id
    assert guild_id is not None
    settings = await bot_of(interaction).guild_settings.get(guild_id)
    return words(server_language(settings, interaction.guild))


@dataclass(frozen=True, slots=True)
class Look:
    """How a button is drawn: its words come from the catalogue (``controls.*``)."""

    label: str | None = None
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    emoji: str | None = None
    disabled: bool = False
    row: int | None = None


PLAIN = Look()  # a control made from a custom_id: discord.py keeps the clicked one's look


Answer = Literal["edit", "reply", "post"]


class Control:
    """The behaviour every control shares (a mixin before discord.py's DynamicItem): reading a
    custom_id, and answering a press. A subclass gives its ``template``, ``kind``, typed
    fields, :meth:`read` and :meth:`run`; see the module's docstring."""

    kind: ClassVar[str]
    # How it answers: "edit" (the message clicked: the lobby, a hand, a board's page), "reply"
    # (a new private reply) or "post" (a new message for the channel: a history's "open").
    # Either way the answer is armed as the click arrives, and the click is deferred if the
    # action is still not done near Discord's 3 s (bot/answers.py).
    answers_by: ClassVar[Answer]
    table_id: int

    # A move of the game (a bid, a card): accepted, it gives its click back to the member's
    # limit. A move is accepted once per turn, so it cannot flood; playing a card right after
    # the previous one is never refused for speed.
    moves: ClassVar[bool] = False

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        """The control a custom_id names, its fields typed; BadControl if a part is wrong."""
        raise NotImplementedError

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """What a press does: ask the table service, then answer the interaction."""
        raise NotImplementedError

    def answer(self) -> Answer:
        """How this press is answered (``answers_by``, unless the press's fields decide)."""
        return self.answers_by

    async def check_server(self, interaction: discord.Interaction[Any]) -> None:
        """A control clicked in a server names a table of that server: one naming another
        server's table (a forged click) is refused as a closed table's, as a stale button
        is. A hand's controls in a DM have no server; the table service checks the seat."""
        live = bot_of(interaction).service.live.get(self.table_id)
        if live is not None and interaction.guild_id is not None and \
                live.row.guild_id != interaction.guild_id:
            log.info("a control of table %s (server %s) clicked in server %s", self.table_id,
                     live.row.guild_id, interaction.guild_id)
            raise Refusal("tables.closed", table=self.table_id)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        try:
            return cls.read(match)
        except BadControl as e:
            # discord.py only needs an item to call back; this one answers "unknown".
            return cast(Self, Unreadable(item, match, e))

    def where(self) -> str:
        """This control in a log line: its kind and table, never its custom_id (on a hand, the
        custom_id names a card of that hand)."""
        return f"control {self.kind} of table {self.table_id}"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Run the handler; whatever it raises is answered here, once for every control: a
        refusal in its words, a bad control as unknown, Discord failing to take the answer as
        one WARNING, anything else with an apology and a traceback in the log (bot/errors.py).
        Nothing is raised to discord.py."""
        where = self.where()
        bot = bot_of(interaction)
        bot.readers.note(interaction.user.id, interaction.locale)
        if await too_fast(interaction):
            return
        live = bot.service.live.get(self.table_id) or bot.delivery.over.get(self.table_id)
        answer = self.answer()
        early = SlowAnswer.armed(interaction, update=answer == "edit",
                                 ephemeral=answer == "reply")
        try:
            try:
                await self.check_server(interaction)
                await self.run(interaction)
            finally:
                await early.close()  # a defer on its way lands before a refusal goes
            if self.moves:
                bot.limits.clicks.give_back(interaction.user.id)
        except BadControl as e:
            log.info("malformed %s (%s)", where, e)
            with answering(interaction, "that the control is unknown", where):
                await tell(interaction, unknown_control(interaction))
        except Exception as e:
            if is_transient(e):
                # Discord failed to carry the answer (5xx, dropped connection): what the click
                # did stands, and the delivery shows it once Discord answers again.
                bot_of(interaction).delivery.answer_failed(interaction, self.table_id, e, where)
                return
            # A member whose client's language we do not speak reads the table's.
            await answer_error(interaction, e, where,
                               live.language if live is not None else DEFAULT_LANGUAGE)
        finally:
            # discord.py made a view of the clicked message to find this control in; it and
            # its items refer to each other: unlinked, they are freed now rather than by the
            # garbage collector (as let_go, below, does for the views the bot sends).
            if isinstance(self, discord.ui.Item) and self.view is not None:
                self.view.clear_items()


def let_go(view: discord.ui.View | None) -> None:
    """A view sent and answered: its items are unlinked from it, so that both are freed as
    soon as nothing holds them instead of by the garbage collector (a discord.py view and its
    items refer to each other; a busy bot made a few dozen such objects per card, and the
    collections that freed them paused the bot for tens of milliseconds). Only a view of
    :class:`discord.ui.DynamicItem` controls and links: discord.py keeps no other reference to
    those once sent (a click finds its control by custom_id), so nothing needs them later."""
    if view is not None and all(isinstance(item, discord.ui.DynamicItem) or
                                not item.is_dispatchable() for item in view.children):
        view.clear_items()


class ButtonControl(Control, discord.ui.DynamicItem[discord.ui.Button[Any]], template=NEVER):
    """A button control."""

    def __init__(self, table_id: int, *parts: object, look: Look = PLAIN) -> None:
        self.table_id = table_id
        super().__init__(discord.ui.Button(
            custom_id=button_id(self.kind, table_id, *parts), label=look.label,
            style=look.style, emoji=look.emoji, disabled=look.disabled), row=look.row)


class TableButton(ButtonControl, template=NEVER):
    """A button whose custom_id names its table only: ``bt:<kind>:<table>``."""

    def __init__(self, table_id: int, look: Look = PLAIN) -> None:
        super().__init__(table_id, look=look)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match))


class SelectControl(Control, discord.ui.DynamicItem[discord.ui.Select[Any]], template=NEVER):
    """A select control; its chosen value is read by ``run`` (:meth:`chosen`)."""

    def __init__(self, table_id: int, *parts: object, placeholder: str | None = None,
                 options: list[discord.SelectOption] | None = None,
                 row: int | None = None) -> None:
        self.table_id = table_id
        super().__init__(discord.ui.Select(
            custom_id=select_id(self.kind, table_id, *parts), placeholder=placeholder,
            options=options or []), row=row)

    def chosen(self) -> str:
        """The (single) value chosen; BadControl if none came."""
        if not self.item.values:
            raise BadControl("no value chosen")
        return self.item.values[0]


class Unreadable(Control, discord.ui.DynamicItem[discord.ui.Item[Any]],
                 template=r"(?:b[ts]|rk):.*"):
    """A custom_id of ours whose parts cannot be read (never registered: made by
    ``from_custom_id`` only). Anyone may press it; it changes nothing. The table is looked up
    first, so an old control of a closed table says so."""

    kind = "?"
    answers_by = "reply"

    def __init__(self, item: discord.ui.Item[Any], match: re.Match[str],
                 fault: BadControl) -> None:
        # No table (a tournament's control), or past the largest id: no table to look up.
        table = match.groupdict().get("table")
        self.table_id = int(table) if table is not None and int(table) <= MAX_ID else 0
        self.fault = fault
        # The kind its custom_id names, if it looks like one (the rest may name a card).
        parts = match[0].split(":")
        self.named = parts[1] if len(parts) > 1 and KIND.fullmatch(parts[1]) else "?"
        super().__init__(item)

    def where(self) -> str:
        return f"control {self.named} of table {self.table_id}"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        if self.table_id:
            bot_of(interaction).service.get(self.table_id)  # a Refusal if the table is closed
        raise self.fault
