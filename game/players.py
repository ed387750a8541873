"""Players that choose an action from what their seat may see."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from .actions import Action
from .match import Match
from .scoring import DealResult
from .view import TableView, table_view


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


def play_deal(match: Match, players: Sequence[Player], seed: int) -> DealResult:
    """Deal the match's next deal from ``seed`` and let ``players`` (one per seat) play it out,
    each seeing only its own seat's view."""
    deal = match.start_deal(match.new_deck(seed))
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        match.apply(players[seat].choose(table_view(match, seat)), seat)
    return match.results[-1]
