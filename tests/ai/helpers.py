"""Play matches with computer seats, step by step, for the AI tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from game.match import Match
from game.players import Player
from game.view import TableView, table_view

FAST = {"work": 600, "max_samples": 4, "min_samples": 2}


def fast_hard(seed: int) -> Player:
    from game.ai.hard import Budget, HardPlayer

    return HardPlayer(seed, Budget(**FAST))


def views_of_deal(match: Match, players: Sequence[Player], deck_seed: int,
                  check: Callable[[Match, int, TableView], None] | None = None
                  ) -> Iterator[tuple[int, TableView]]:
    """Deal one deal and play it to the end; yield (seat, view) before each decision."""
    match.start_deal(match.new_deck(deck_seed))
    deal = match.deal
    assert deal is not None
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        view = table_view(match, seat)
        if check is not None:
            check(match, seat, view)
        yield seat, view
        match.apply(players[seat].choose(view), seat)
