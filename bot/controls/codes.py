"""Actions as the short codes custom_ids carry (the rules core's notation, game/record.py):
``pass``, ``take.S``, ``bid.90.H``, ``play.JH``; a code that names no action is a bad control."""

from __future__ import annotations

from game.actions import Action
from game.record import action_code, action_from_code
from game.rules import Variant

from .base import BadControl


def encode_action(action: Action) -> str:
    """``pass``, ``take``, ``take.S``, ``bid.90.H``, ``bid.capot.H``, ``bid.NT``, ``play.JH``..."""
    return action_code(action)


def decode_action(variant: Variant, code: str) -> Action:
    """The action a code names; BadControl (a ValueError) if it names none in this variant."""
    try:
        return action_from_code(variant, code)
    except ValueError as e:
        raise BadControl("not an action code") from e  # not named: it may name a card
