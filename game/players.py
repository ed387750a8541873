"""Players that choose an action from what their seat may see."""

from __future__ import annotations

import random
from typing import Protocol

from .actions import Action
from .view import TableView


class Player(Protocol):
    def choose(self, view: TableView) -> Action:
        """The action to take; ``view`` is the seat's own view and it is that seat's turn."""
        ...


class RandomPlayer:
    """Uniformly random legal play: the baseline of the arena and of property tests."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: TableView) -> Action:
        return self.rng.choice(view.legal_actions)
