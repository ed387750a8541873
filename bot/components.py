"""Persistent components: custom_ids that address a table, and the items that route clicks.

A custom_id is an address, never a permission: ``bt:<kind>:<table>[:<a>[:<b>]]`` for buttons and
``bs:<kind>:<table>[:<a>[:<b>]]`` for selects. Action buttons carry the sequence number they were
drawn for (``bt:act:12:57:play.JH``); card names appear only in custom_ids of messages their
holder alone sees (a DM or an ephemeral reply). The items are DynamicItems, so they keep working
after a restart without any per-message state; cogs register a handler per kind on the Router.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from game.actions import Action
from game.record import action_from_json, action_to_json
from game.rules import Variant

from .errors import answer_error, tell
from .outbox import is_transient

log = logging.getLogger(__name__)


class BadControl(ValueError):
    """A custom_id of the right shape but not the right parts: a message from an older version,
    or a forged click."""


@dataclass(frozen=True, slots=True)
class Address:
    kind: str
    table_id: int
    args: tuple[str, ...] = ()
    values: tuple[str, ...] = field(default=(), compare=False)  # a select's chosen values

    def custom_id(self, prefix: str = "bt") -> str:
        return ":".join((prefix, self.kind, str(self.table_id), *self.args))

    def arg(self, index: int) -> str:
        """The index-th part after the table number; BadControl if there is none."""
        if index >= len(self.args):
            raise BadControl(f"{self.custom_id()} has no part {index}")
        return self.args[index]

    def number(self, index: int) -> int:
        """The index-th part, a whole number; BadControl otherwise."""
        text = self.arg(index)
        if not text.isdigit():
            raise BadControl(f"{self.custom_id()}: {text!r} is not a number")
        return int(text)

    def value(self) -> str:
        """The (single) value chosen in a select; BadControl if none came."""
        if not self.values:
            raise BadControl(f"{self.custom_id()}: no value chosen")
        return self.values[0]


_TEMPLATE = r"(?P<kind>[a-z]+):(?P<table>\d+)(?::(?P<a>[^:]+))?(?::(?P<b>[^:]+))?"


def parse_address(match: re.Match[str], values: Sequence[str] = ()) -> Address:
    args = tuple(x for x in (match["a"], match["b"]) if x is not None)
    return Address(match["kind"], int(match["table"]), args, tuple(values))


def button_id(kind: str, table_id: int, *args: object) -> str:
    return Address(kind, table_id, tuple(str(a) for a in args)).custom_id("bt")


def select_id(kind: str, table_id: int, *args: object) -> str:
    return Address(kind, table_id, tuple(str(a) for a in args)).custom_id("bs")


# ---- actions as short codes ---------------------------------------------------------------
def encode_action(action: Action) -> str:
    """``pass``, ``take``, ``take.S``, ``bid.90.H``, ``bid.capot.H``, ``bid.NT``, ``play.JH``..."""
    obj = action_to_json(None, action)
    parts = [obj.pop("action")]
    for key in ("value", "suit", "contract", "card"):
        if key in obj:
            parts.append(str(obj.pop(key)))
    return ".".join(parts)


def decode_action(variant: Variant, code: str) -> Action:
    """The action a code names; BadControl (a ValueError) if it names none in this variant."""
    try:
        return _decode_action(variant, code)
    except (ValueError, KeyError, TypeError) as e:
        raise BadControl(f"bad action code {code!r}") from e


def _decode_action(variant: Variant, code: str) -> Action:
    name, *rest = code.split(".")
    obj: dict[str, Any] = {"action": name}
    if name == "take" and rest:
        obj["suit"] = rest[0]
    elif name == "bid" and variant is Variant.COINCHE and len(rest) == 2:
        obj["value"] = rest[0] if rest[0] == "capot" else int(rest[0])
        obj["suit"] = rest[1]
    elif name == "bid" and len(rest) == 1:
        obj["contract"] = rest[0]
    elif name == "play" and len(rest) == 1:
        obj["card"] = rest[0]
    elif rest:
        raise ValueError(f"bad action code {code!r}")
    return action_from_json(variant, obj)


# ---- routing ----------------------------------------------------------------------------
Handler = Callable[[discord.Interaction[Any], Address], Awaitable[None]]


class Router:
    """Maps a component kind to the cog handler that answers it."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}

    def add(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    def remove(self, kind: str) -> None:
        self.handlers.pop(kind, None)

    async def dispatch(self, interaction: discord.Interaction[Any], address: Address) -> None:
        """Run the handler of a click; whatever it raises is answered here, once (a refusal
        in its words, a bad control as unknown, anything else with an apology and a
        traceback in the log: see bot/errors.py)."""
        where = f"control {address.custom_id()}"
        try:
            handler = self.handlers.get(address.kind)
            if handler is None:
                raise BadControl(f"no handler for {address.kind!r}")
            await handler(interaction, address)
        except BadControl as e:
            log.info("malformed control %s (%s)", address.custom_id(), e)
            try:
                await tell(interaction, UNKNOWN_CONTROL)
            except discord.HTTPException as e2:
                log.info("%s: not answered (%s)", where, e2)
        except Exception as e:
            if is_transient(e):
                # Discord failed to carry the answer (5xx, dropped connection): what the click
                # did stands, and the delivery shows it once Discord answers again.
                interaction.client.delivery.answer_failed(interaction, address.table_id, e)
                return
            await answer_error(interaction, e, where)


UNKNOWN_CONTROL = ("I do not know this control (it may be from an older version of the "
                   "table): nothing changed. Use the newest table message or `/belote hand`.")


def is_ours(custom_id: str) -> bool:
    """Whether a custom_id is one our persistent items answer."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id)
               for item in (TableButton, TableSelect))


def _router(interaction: discord.Interaction[Any]) -> Router:
    router: Router = interaction.client.router
    return router


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template="bt:" + _TEMPLATE):
    def __init__(self, custom_id: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, emoji: str | None = None,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, style=style,
                                           disabled=disabled, emoji=emoji), row=row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TableButton:
        button: discord.ui.Button[Any] = item  # type: ignore[assignment]
        out = cls(match.string, label=button.label, style=button.style,
                  disabled=button.disabled)
        out.address = parse_address(match)  # type: ignore[attr-defined]
        return out

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _router(interaction).dispatch(interaction, self.address)  # type: ignore[attr-defined]


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template="bs:" + _TEMPLATE):
    def __init__(self, custom_id: str, *, placeholder: str | None = None,
                 options: list[discord.SelectOption] | None = None, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=placeholder,
                                           options=options or [], disabled=disabled), row=row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TableSelect:
        select: discord.ui.Select[Any] = item  # type: ignore[assignment]
        out = cls(match.string, placeholder=select.placeholder, options=list(select.options))
        out.match = match  # type: ignore[attr-defined]
        return out

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        address = parse_address(self.match, self.item.values)  # type: ignore[attr-defined]
        await _router(interaction).dispatch(interaction, address)
