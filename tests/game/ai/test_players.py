"""Computer players: legal in every variant and stage, deterministic, blind to hidden cards,
within their budget."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.actions import Play
from game.ai import EasyPlayer, make_ai
from game.ai.hard import Budget, HardPlayer
from game.cards import Suit
from game.match import Match
from game.players import Player, RandomPlayer
from game.rules import Variant
from game.view import Stage, table_view

from .helpers import fast_hard, views_of_deal

VARIANTS = list(Variant)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6),
       kinds=st.lists(st.sampled_from(["easy", "hard", "random"]), min_size=4, max_size=4),
       options=st.sampled_from([{}, {"announcements": True}, {"announcements": False},
                                {"must_undertrump": True}]))
def test_every_decision_is_legal(variant: Variant, seed: int, kinds: list[str],
                                 options: dict[str, bool]) -> None:
    if variant is Variant.BULGARIAN:
        options = {k: v for k, v in options.items() if k != "must_undertrump"}
    players: list[Player] = [
        EasyPlayer(seed) if k == "easy" else fast_hard(seed + i) if k == "hard"
        else RandomPlayer(seed + i) for i, k in enumerate(kinds)]
    match = Match(variant, {"target": 10**5, **options})
    stages = set()
    for d in range(3):
        for seat, view in views_of_deal(match, players, seed + d):
            action = players[seat].choose(view)
            assert action in view.legal_actions
            stages.add(view.stage)
    assert Stage.BIDDING in stages


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("level", ["easy", "hard"])
def test_whole_matches_end(variant: Variant, level: str) -> None:
    """A match of four computer players runs to its target through the Match checks."""
    players = [fast_hard(i) if level == "hard" else make_ai(level, i) for i in range(4)]
    match = Match(variant, {"target": 301 if variant is not Variant.BULGARIAN else 41})
    n = 0
    while not match.is_over:
        for _ in views_of_deal(match, players, n):
            pass
        n += 1
    assert match.winner is not None


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_view_same_action(variant: Variant) -> None:
    a, b = fast_hard(42), fast_hard(42)
    other = HardPlayer(43, Budget(work=600, max_samples=4, min_samples=2))
    players = [make_ai("easy", i) for i in range(4)]
    match = Match(variant)
    differ = 0
    for _seat, view in views_of_deal(match, players, 3):
        if view.stage is Stage.PLAY and len(view.legal_cards) > 1:
            first = a.choose(view)
            assert a.choose(view) == first  # the same player asked again
            assert b.choose(view) == first  # a fresh player with the same seed
            differ += other.choose(view) != first
    assert differ < 32


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="easy, hard"):
        make_ai("expert", 1)


def _deck_with_others_shuffled(deck: list[int], keep: set[int], seed: int) -> list[int]:
    """The same deck, except that the cards outside ``keep`` (positions) are permuted."""
    import random

    free = [i for i in range(32) if i not in keep]
    cards = [deck[i] for i in free]
    random.Random(seed).shuffle(cards)
    out = deck[:]
    for i, c in zip(free, cards, strict=True):
        out[i] = c
    return out


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_hidden_cards_do_not_change_the_decision(level: str) -> None:
    """Coinche, seat 1 (first to bid and to lead): its eight cards are fixed, the other hands
    are redealt. Its bid and its opening lead must not change."""
    base = Match(Variant.COINCHE).new_deck(9)
    # Coinche deals 3, 2, 3 from seat 1: its cards are at these deck positions.
    seat1 = {0, 1, 2, 12, 13, 20, 21, 22}
    checked = 0
    for variant_seed in range(6):
        decisions = []
        for deck in (base, _deck_with_others_shuffled(base, seat1, variant_seed)):
            m = Match(Variant.COINCHE)
            m.start_deal(deck)
            player = make_ai(level, 5)
            bid = player.choose(table_view(m, 1))
            from game.actions import CoincheBid, Pass

            m.apply(CoincheBid(80, Suit.SPADES), 1)
            for s in (2, 3, 0):
                m.apply(Pass(), s)
            view = table_view(m, 1)
            decisions.append((bid, player.choose(view), view))
        (bid1, play1, v1), (bid2, play2, v2) = decisions
        assert v1 == v2  # the seat sees exactly the same table
        assert (bid1, play1) == (bid2, play2)
        assert isinstance(play1, Play)
        checked += 1
    assert checked == 6


def test_hard_respects_its_budget() -> None:
    small = HardPlayer(1, Budget(work=2_000, max_samples=50, min_samples=2))
    big = HardPlayer(1, Budget(work=20_000, max_samples=50, min_samples=2))
    players = [make_ai("easy", i) for i in range(4)]
    match = Match(Variant.CLASSIC)
    seen = 0
    for _, view in views_of_deal(match, players, 17):
        if view.stage is not Stage.PLAY or len(view.legal_cards) < 2:
            continue
        for p in (small, big):
            p.choose(view)
            s = p.stats
            assert 2 <= s.samples <= p.budget.max_samples
            # Work stops at the first sample that crosses the budget.
            per_sample = 32 * len(view.legal_cards) if not s.exact else 10**6
            assert s.samples <= p.budget.min_samples or \
                s.work - per_sample < p.budget.work
        if not small.stats.exact:
            assert small.stats.samples <= big.stats.samples
            seen += 1
    assert seen >= 5
