"""Image keys: two views with the same key always give the same picture (bot caches rely on it)."""

from __future__ import annotations

import pytest

from game.match import Match
from game.players import RandomPlayer
from game.rules import Variant
from game.view import table_view
from rendering import render_hand
from rendering.keys import hand_key


@pytest.mark.parametrize("variant", list(Variant))
def test_equal_hand_keys_mean_equal_hand_images(variant: Variant) -> None:
    match = Match(variant, {"target": 1}, players=["Ana", "Bo", "Cy", "Dee"])
    players = [RandomPlayer(10 + i) for i in range(4)]
    seen: dict[object, bytes] = {}
    looked = 0
    for _ in range(2):  # two deals: bidding, play, a new deal's cards
        if match.needs_deal:
            match.start_deal(match.new_deck(len(match.results)))
        deal = match.deal
        assert deal is not None
        while not deal.is_over:
            for seat in range(4):
                view = table_view(match, seat)
                data = render_hand(view)[0]
                looked += 1
                assert seen.setdefault(hand_key(view), data) == data
            to_act = deal.to_act
            assert to_act is not None
            match.apply(players[to_act].choose(table_view(match, to_act)), to_act)
        if match.winner is not None:
            break
    # Most looks repeat a picture already drawn (others acting changes nothing in a hand):
    # the cache this key serves has something to do.
    assert len(seen) <= 0.6 * looked


def test_the_public_view_has_no_hand_key() -> None:
    match = Match(Variant.CLASSIC)
    match.start_deal(match.new_deck(1))
    with pytest.raises(ValueError):
        hand_key(table_view(match, None))
