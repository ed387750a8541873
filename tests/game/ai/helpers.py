"""Play matches with computer seats, step by step, for the AI tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from game.actions import Action
from game.cards import parse_card
from game.match import Match
from game.players import Player
from game.rules import Variant
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


def _seat_positions(variant: Variant) -> list[list[int]]:
    """Deck positions of each seat's bidding cards (dealer 0), found by dealing 0..31."""
    m = Match(variant)
    deal = m.start_deal(list(range(32)))
    return [[c for c in range(32) if deal.hands[s] >> c & 1] for s in range(4)]


def match_with_hands(variant: Variant, hands: dict[int, str], turned: str | None = None,
           bids: tuple[Action, ...] = ()) -> Match:
    """A match (dealer 0) whose first deal gives ``hands`` (bidding cards per seat) and, in
    classic, ``turned``; ``bids`` already made."""
    positions = _seat_positions(variant)
    fixed: dict[int, int] = {}
    for seat, cards in hands.items():
        for pos, c in zip(positions[seat], cards.split(), strict=True):
            fixed[pos] = parse_card(c)
    if turned is not None:
        fixed[20] = parse_card(turned)
    rest = iter(c for c in range(32) if c not in fixed.values())
    deck = [fixed[i] if i in fixed else next(rest) for i in range(32)]
    m = Match(variant)
    m.start_deal(deck)
    for a in bids:
        m.apply(a)
    return m
