"""Property tests over random legal games of every variant and option (hypothesis)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.actions import Play
from game.cards import cards_of
from game.deal import legal_play, play_tables, undertrump_rule
from game.errors import IllegalAction
from game.match import Match
from game.record import replay, replay_summary, to_record
from game.rules import Trump, Variant
from game.scoring import Outcome
from game.view import table_view

CARD_POINTS = {Trump.NO_TRUMPS: 130, Trump.ALL_TRUMPS: 258}  # suits: 162


@st.composite
def tables(draw: st.DrawFn) -> tuple[Variant, dict[str, Any], int, int]:
    variant = draw(st.sampled_from(list(Variant)))
    options: dict[str, Any] = {
        "target": draw(st.sampled_from([1, 60, 151, 501, 701])),
        "announcements": draw(st.booleans()),
        "shuffle": draw(st.sampled_from(["random", "cut"])),
    }
    if variant is not Variant.BULGARIAN:
        options["must_undertrump"] = draw(st.booleans())
    return variant, options, draw(st.integers(0, 3)), draw(st.integers(0, 2**32))


def _check_view(match: Match) -> None:
    deal = match.deal
    assert deal is not None
    for seat in range(4):
        view = table_view(match, seat)
        own = deal.hands[seat]
        others = sum(deal.hands) & ~own
        assert sorted(view.hand) == list(cards_of(own))
        shown: set[int] = set()
        for a in view.announcements:
            assert a.scored or not a.cards  # cards are shown only when they score
            shown.update(a.cards)
        seen = set(view.hand) | set(view.legal_cards)
        for t in (view.trick, view.last_trick):
            if t is not None:
                seen.update(t.cards)
        if view.turned_card is not None:
            seen.add(view.turned_card)
        for c in seen - shown:
            assert not others >> c & 1, f"seat {seat} sees another hand's card {c}"
        assert view.is_my_turn == (seat == match.to_act and view.stage.value in
                                   ("bidding", "play"))
        if view.is_my_turn:
            assert list(view.legal_actions) == match.legal_actions()


def _check_deal_end(match: Match) -> None:
    deal = match.deal
    assert deal is not None and deal.is_over
    result = match.results[-1]
    assert sorted(deal.deck) == list(range(32))
    if result.outcome is Outcome.PASSED:
        assert deal.tricks == [] and result.score == (0, 0)
        return
    assert len(deal.tricks) == 8
    played = [c for t in deal.tricks for c in t.cards]
    assert sorted(played) == list(range(32))
    contract = deal.contract
    assert contract is not None
    assert sum(result.card_points) == CARD_POINTS.get(contract.trump, 162)
    if match.variant is Variant.BULGARIAN:
        factor = 2 if contract.trump is Trump.NO_TRUMPS else 1
        ann = deal.announced_points()
        valat = 90 if result.sweep is not None else 0
        assert result.raw is not None
        assert sum(result.raw) == factor * sum(result.card_points) + sum(ann) + \
            sum(result.belote) + valat
    assert result.totals == tuple(match.totals)


def _check_legal_cards(match: Match) -> None:
    """The deal's legal cards (kept as the turn passes, with shortcuts for the common cases)
    are legal_play's answer for the position, the rules' one statement."""
    deal = match.deal
    assert deal is not None and deal.to_act is not None and deal.contract is not None
    above = play_tables(deal.contract.trump)[2]
    expected, _ = legal_play(deal.hands[deal.to_act], deal.trick, deal.win_card, deal.win_index,
                             deal.trump_cards, deal.trump_suit_mask, above,
                             undertrump_rule(match.variant, deal.options))
    assert match.legal_cards() == expected


def play_random(variant: Variant, options: dict[str, Any], dealer: int, seed: int,
                max_deals: int, stop_at: int | None = None, check: bool = True) -> Match:
    rng = random.Random(seed)
    match = Match(variant, options, first_dealer=dealer)
    steps = 0
    while not match.is_over and len(match.deals) < max_deals:
        if match.needs_deal:
            match.start_deal(match.new_deck(seed))
        deal = match.deal
        assert deal is not None
        while not deal.is_over:
            legal = match.legal_actions()
            assert legal, "a legal action always exists until the match ends"
            if check and steps % 3 == 0:
                _check_view(match)
                assert deal.to_act is not None
                hand = deal.hands[deal.to_act]
                illegal = [c for c in cards_of(hand & ~match.legal_cards())]
                if deal.phase == "play" and illegal:
                    before = replay_summary(match)
                    try:
                        match.apply(Play(rng.choice(illegal)))
                    except IllegalAction as e:
                        assert str(e) and "_" not in str(e)
                    else:
                        raise AssertionError("an illegal card was accepted")
                    assert replay_summary(match) == before
            if check and deal.phase == "play":
                _check_legal_cards(match)
            match.apply(rng.choice(legal))
            steps += 1
            if stop_at is not None and steps == stop_at:
                return match
        if check:
            _check_deal_end(match)
    if match.is_over:
        assert match.legal_actions() == [] and match.to_act is None
    return match


@settings(max_examples=200, deadline=None)
@given(tables())
def test_random_games_keep_every_invariant(table: tuple[Variant, dict[str, Any], int, int]
                                           ) -> None:
    variant, options, dealer, seed = table
    play_random(variant, options, dealer, seed, max_deals=4)


@settings(max_examples=100, deadline=None)
@given(tables(), st.integers(1, 200))
def test_replaying_the_record_gives_the_same_state(
        table: tuple[Variant, dict[str, Any], int, int], stop_at: int) -> None:
    variant, options, dealer, seed = table
    match = play_random(variant, options, dealer, seed, max_deals=3, stop_at=stop_at,
                        check=False)
    again = replay(to_record(match))
    assert replay_summary(again) == replay_summary(match)
    assert again.to_act == match.to_act and again.legal_actions() == match.legal_actions()
    assert again.hanging == match.hanging and again.winner == match.winner
    for a, b in zip(again.deals, match.deals, strict=True):
        assert a.hands == b.hands and a.deck == b.deck
    for seat in range(4):
        assert table_view(again, seat) == table_view(match, seat)
