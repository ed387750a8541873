"""The computer players' decisions, recorded: the same seeded deals give the same moves.

A refactor of the AI or of the rules it calls (trick resolution, card points, scoring) must not
change a single decision. Each case plays seeded deals with four computers of one level and
compares every action taken with the sequence recorded here (as a digest of the moves, with
their count, so a difference shows at once). A deliberate change of play records new figures.
"""

from __future__ import annotations

import hashlib

import pytest

from game.ai import make_ai
from game.match import Match
from game.players import Player
from game.rules import Variant

from .helpers import fast_hard, views_of_deal


def _moves(variant: Variant, level: str, deals: int) -> list[str]:
    players: list[Player] = [fast_hard(7 + s) if level == "hard" else make_ai(level, 7 + s)
                             for s in range(4)]
    match = Match(variant, {"target": 10**5})
    moves: list[str] = []
    for d in range(deals):
        for seat, view in views_of_deal(match, players, 100 + d):
            moves.append(f"{seat}:{players[seat].choose(view)!r}")
    return moves


def _digest(moves: list[str]) -> str:
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]


RECORDED: dict[tuple[Variant, str], tuple[int, str]] = {
    (Variant.CLASSIC, "easy"): (139, "32f24026a0b6d286"),
    (Variant.CLASSIC, "hard"): (44, "a4c2489d884b7811"),
    (Variant.COINCHE, "easy"): (156, "6be7b9f5f39e1494"),
    (Variant.COINCHE, "hard"): (79, "1605d2e6153b3c75"),
    (Variant.BULGARIAN, "easy"): (153, "537a3a4398f4715b"),
    (Variant.BULGARIAN, "hard"): (72, "159fb7d28bcd15c1"),
}


@pytest.mark.parametrize(("variant", "level"), sorted(RECORDED, key=str))
def test_same_seeded_deals_same_moves(variant: Variant, level: str) -> None:
    moves = _moves(variant, level, 4 if level == "easy" else 2)
    assert (len(moves), _digest(moves)) == RECORDED[variant, level]


# bench/hard_v1, the frozen first hard level the benchmarks measure the current one against:
# nothing the current level changes (its search, its budget) may move a decision of it.
RECORDED_V1: dict[Variant, tuple[int, str]] = {
    Variant.CLASSIC: (33, "e928eaf959f4a857"),
    Variant.COINCHE: (36, "d203450458f128cb"),
    Variant.BULGARIAN: (40, "32f6111364c88e9b"),
}


@pytest.mark.parametrize("variant", list(Variant))
def test_the_frozen_hard_v1_plays_as_it_always_has(variant: Variant) -> None:
    from bench.hard_v1.hard import HardPlayer

    players = [HardPlayer(7 + s) for s in range(4)]  # bench.hard_v1.level_player's
    match = Match(variant, {"target": 10**5})
    moves = []
    for seat, view in views_of_deal(match, players, 200):
        action = players[seat].choose(view)
        # With the work each decision did: a search that values alike but counts its nodes
        # otherwise takes other samples, and changes its play elsewhere.
        stats = players[seat].stats
        moves.append(f"{seat}:{action!r}:{stats.samples}:{stats.work}")
    assert (len(moves), _digest(moves)) == RECORDED_V1[variant]
