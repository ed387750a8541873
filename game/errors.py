"""Typed errors. Their messages are what players read: plain words, no internals."""

from __future__ import annotations


class BeloteError(Exception):
    """Base of every error the rules core raises on purpose."""


class IllegalAction(BeloteError):
    """An action the rules forbid right now. ``str(err)`` says why, for the player."""


class NotYourTurn(IllegalAction):
    """An action by a seat that is not the one to act."""


class GameOver(IllegalAction):
    """An action after the match has ended."""


class InvalidOptions(BeloteError):
    """Options a variant does not know, or values out of range."""
