"""Random deals in play, stopped with a few cards left, and a brute-force minimax to check the
solver against: every legal card searched, no pruning, no table, the ends scored by the rules
core (through ``Situation.after``, whose steps tests/game/analysis/test_situation.py checks
against real deals)."""

from __future__ import annotations

import random
from typing import Any

from game.actions import Pass, Play
from game.analysis.situation import Situation, situation_of
from game.cards import cards_of
from game.deal import Deal, Phase
from game.match import Match
from game.rules import Variant


def random_options(variant: Variant, rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {"announcements": rng.random() < 0.7}
    if variant is not Variant.BULGARIAN:
        options["must_undertrump"] = rng.random() < 0.5
    return options


def bid_randomly(deal: Deal, rng: random.Random) -> None:
    """Calls at random, bidding more often than passing, so contracts of every kind (doubled
    and redoubled ones, coinche capots) come up."""
    while deal.phase is Phase.BIDDING:
        calls = deal.legal_actions()
        bids = [a for a in calls if not isinstance(a, Pass)]
        deal.apply(rng.choice(bids) if bids and rng.random() < 0.45 else rng.choice(calls))


def random_deal(variant: Variant, seed: int, cards_left: int = 32,
                options: dict[str, Any] | None = None) -> tuple[Match, Deal]:
    """A deal of ``variant`` with a contract, played at random until ``cards_left`` cards are
    left in the hands."""
    rng = random.Random(seed)
    opts = random_options(variant, rng) if options is None else options
    while True:
        match = Match(variant, opts)
        deal = match.start_deal(match.new_deck(rng.randrange(1 << 30)))
        bid_randomly(deal, rng)
        if deal.contract is not None:
            break
    while sum(h.bit_count() for h in deal.hands) > cards_left:
        deal.apply(Play(rng.choice(list(cards_of(deal.legal_cards())))))
    return match, deal


def random_situation(variant: Variant, seed: int, cards_left: int,
                     hanging: int = 0) -> Situation:
    _match, deal = random_deal(variant, seed, cards_left)
    return situation_of(deal, hanging=hanging)


def brute_points(sit: Situation, seen: dict[Situation, int] | None = None) -> int:
    """Team 0's final card points under best play for card points, every line searched (a
    situation met again by another order of the same cards is looked up, not searched
    again)."""
    if sit.is_over:
        return sit.points[0]
    seen = {} if seen is None else seen
    got = seen.get(sit)
    if got is None:
        values = [brute_points(sit.after(c), seen) for c in cards_of(sit.legal())]
        got = seen[sit] = max(values) if sit.to_act & 1 == 0 else min(values)
    return got


def brute_score(sit: Situation, seen: dict[Situation, int] | None = None) -> int:
    """Team 0's deal score minus team 1's under best play for the score."""
    if sit.is_over:
        return sit.final_score()
    seen = {} if seen is None else seen
    got = seen.get(sit)
    if got is None:
        values = [brute_score(sit.after(c), seen) for c in cards_of(sit.legal())]
        got = seen[sit] = max(values) if sit.to_act & 1 == 0 else min(values)
    return got


def brute_takes_all(sit: Situation, team: int) -> bool:
    if sit.is_over:
        return True
    tricks = sit.tricks[team]
    outs = []
    for c in cards_of(sit.legal()):
        child = sit.after(c)
        if not child.trick and child.tricks[team] == tricks and child.tricks_played > \
                sit.tricks_played:
            outs.append(False)  # the other team took this trick
        else:
            outs.append(brute_takes_all(child, team))
    return any(outs) if (sit.to_act & 1) == team else all(outs)
