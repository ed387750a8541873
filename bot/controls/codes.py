"""Actions as the short codes custom_ids carry: ``pass``, ``take.S``, ``bid.90.H``, ``play.JH``."""

from __future__ import annotations

from typing import Any

from game.actions import Action
from game.record import action_from_json, action_to_json
from game.rules import Variant

from .base import BadControl


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
        raise BadControl("not an action code") from e  # not named: it may name a card


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
