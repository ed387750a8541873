"""check_choice says ahead of the first card exactly what the deal accepts with it."""

from __future__ import annotations

import copy
import random
from itertools import combinations

from game.actions import Play
from game.announcements import possible_choices
from game.choices import check_choice
from game.errors import IllegalAction
from game.match import Match
from game.players import RandomPlayer
from game.rules import Variant
from game.view import table_view


def candidates(seat: int, hand: int, rng: random.Random) -> list[tuple[tuple[int, ...], ...]]:
    """What a player might send: every honest choice, and some forged ones."""
    out: list[tuple[tuple[int, ...], ...]] = [()]
    for full in possible_choices(seat, hand):
        for k in range(len(full) + 1):
            out += [tuple(a.cards for a in some) for some in combinations(full, k)]
    for _ in range(6):
        suit, length = rng.randrange(4), rng.choice((3, 4))
        low = rng.randrange(8 - length + 1)
        out.append((tuple(suit * 8 + r for r in range(low, low + length)),))
    out.append((tuple(r * 8 + 4 for r in range(4)),))  # a carré of kings
    return out


def test_check_choice_agrees_with_the_deal() -> None:
    rng = random.Random(2)
    checked = 0
    for variant, options in ((Variant.CLASSIC, {"target": 1}),
                             (Variant.CLASSIC, {"target": 1, "announcements": False}),
                             (Variant.COINCHE, {"target": 1, "announcements": True}),
                             (Variant.BULGARIAN, {"target": 1})):
        for seed in range(25):
            m = Match(variant, options, first_dealer=seed % 4)
            deal = m.start_deal(m.new_deck(seed))
            player = RandomPlayer(seed)
            while deal.contract is None and not deal.is_over:
                seat = m.to_act
                assert seat is not None
                hand = deal.hands[seat]
                if hand.bit_count() == 8:  # coinche: chosen during the bidding
                    for declared in candidates(seat, hand, rng)[-3:]:
                        try:
                            check_choice(deal, seat, declared)
                        except IllegalAction:
                            continue
                        assert not declared
                m.apply(player.choose(table_view(m, seat)), seat)
            if deal.is_over or deal.contract is None:
                continue
            seat = m.to_act
            assert seat is not None
            card = next(a for a in m.legal_actions() if isinstance(a, Play)).card
            for declared in candidates(seat, deal.hands[seat], rng):
                try:
                    check_choice(deal, seat, declared)
                    allowed = True
                except IllegalAction:
                    allowed = False
                trial = copy.deepcopy(m)
                try:
                    trial.apply(Play(card, declare=declared), seat)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert allowed == accepted, (variant, options, seed, declared)
                checked += 1
    assert checked > 500
