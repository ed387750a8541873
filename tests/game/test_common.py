"""Rules common to every variant (docs/rules.md, "What every variant shares")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.announcements import (
    Announcement,
    best_announcements,
    bulgarian_winners,
    carre,
    check_declaration,
    classic_winner,
    possible_choices,
    sequence,
)
from game.cards import Rank, Suit, cards_of
from game.deal import LAST_TRICK_BONUS, Phase, card_points_total, play_tables
from game.match import Match
from game.record import replay
from game.rules import Trump
from game.scoring import Outcome

from .helpers import FOLLOW, FOLLOW_PLAY, SPLIT, SPLIT_PLAY, Game, cset, fill, refused, rotate

RECORDS = Path(__file__).parent / "records"


def _points(anns: list[Announcement]) -> list[tuple[str, int]]:
    return [(a.name(), a.points) for a in anns]


# ---- cards, orders, points -------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["classic", "coinche", "bulgarian"])
def test_trick_winners_orders_and_the_162_points(variant: str) -> None:
    g = Game(variant, dealer=3)
    if variant == "classic":
        g.new_deal(FOLLOW, turned="9H", taker=0).do("take")
    else:
        g.new_deal(FOLLOW).do("bid 80 H" if variant == "coinche" else "bid H", "pass", "pass",
                              "pass")
    g.do(*FOLLOW_PLAY)
    # Plain A beats 10, K, J; in trump J beats A, K, 8 and 9 beats 10, Q, 7.
    assert [t.winner for t in g.deal.tricks] == [0] * 8
    assert g.deal.won_points == [162, 0]
    assert card_points_total(g.deal.contract.trump) == 162


@pytest.mark.parametrize(("trump", "total"),
                         [(Trump.HEARTS, 162), (Trump.ALL_TRUMPS, 258), (Trump.NO_TRUMPS, 130)])
def test_a_deals_card_points_by_contract_kind(trump: Trump, total: int) -> None:
    # Every card's points in that kind, and the last trick's ten.
    points = play_tables(trump)[1]
    assert card_points_total(trump) == sum(points) + LAST_TRICK_BONUS == total


def test_trick_points_and_winners_when_split() -> None:
    g = Game("coinche", dealer=3).new_deal(SPLIT).do("bid 80 H", "pass", "pass", "pass")
    g.do(*SPLIT_PLAY)
    assert [t.winner for t in g.deal.tricks] == [0, 1, 1, 3, 1, 3, 2, 1]
    # 23 + 48 for team 0; 7 + 28 + 2 + 28 + 2 + 14 and the last trick's 10 for team 1.
    assert g.deal.won_points == [71, 91] and g.deal.last_trick_team == 1


# ---- shuffles --------------------------------------------------------------------------------
def test_random_shuffle_is_seeded_and_new_each_deal() -> None:
    a, b = Match("classic"), Match("classic")
    assert a.new_deck(7) == b.new_deck(7)
    assert sorted(a.new_deck(7)) == list(range(32))
    assert a.new_deck(7) != a.new_deck(8)
    g = Game("coinche", dealer=3).new_deal(SPLIT).do("pass", "pass", "pass", "pass")
    assert g.match.new_deck(7) != a.new_deck(7)  # deal 1 differs from deal 0


def test_random_shuffle_is_fisher_yates_digit_by_digit() -> None:
    # shuffled_deck takes the digits in groups (fewer big divisions); the decks must stay those
    # of one division per step, or every stored seed would deal differently.
    from game.deck import _entropy, shuffled_deck

    for seed in range(300):
        x = _entropy(seed, seed % 13)
        deck = list(range(32))
        for i in range(31, 0, -1):
            x, j = divmod(x, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        assert shuffled_deck(seed, seed % 13) == deck


def test_contracts_are_shared_only_between_equal_exact_values() -> None:
    from game.contract import Contract, contract_of
    from game.rules import Trump

    a = contract_of(1, Trump.HEARTS, 80, 2)
    assert a == Contract(1, Trump.HEARTS, 80, 2) and a is contract_of(1, Trump.HEARTS, 80, 2)
    odd = contract_of(1, 2, 80, 2)  # type: ignore[arg-type]  # an int, not a Trump
    assert odd == a and odd is not a and type(odd.trump) is int


def test_cut_shuffle_gathers_the_tricks_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without its secret riffles (tests/game/test_cut_hidden.py), the deck is the gathered
    # cards cut once: the gathering is what this checks.
    monkeypatch.setattr("game.deck.CUT_RIFFLES", 0)
    g = Game("coinche", {"shuffle": "cut"}, dealer=3).new_deal(SPLIT)
    g.do("bid 80 H", "pass", "pass", "pass", *SPLIT_PLAY)
    gathered = [c for t in g.deal.tricks for c in t.cards]
    deck = g.match.new_deck(5)
    cuts = [i for i in range(3, 30) if deck == gathered[i:] + gathered[:i]]
    assert len(cuts) == 1
    # A passed deal is gathered as it was dealt.
    g.match.start_deal(deck)
    g.do("pass", "pass", "pass", "pass")
    nxt = g.match.new_deck(5)
    assert any(nxt == deck[i:] + deck[:i] for i in range(3, 30))


@pytest.mark.parametrize("shuffle", ["random", "cut"])
def test_shuffle_option_values(shuffle: str) -> None:
    m = Match("bulgarian", {"shuffle": shuffle})
    assert m.options.shuffle.value == shuffle


# ---- announcements ---------------------------------------------------------------------------
def test_quinte_sharing_its_jack_with_a_carre_of_jacks_gives_carre_and_quarte() -> None:
    anns = best_announcements(0, cset("7H 8H 9H TH JH JC JD JS"))
    assert sorted(_points(anns)) == [("carré of jacks", 200), ("quarte", 50)]


def test_on_equal_points_the_choice_with_more_carre_points() -> None:
    # Quinte 8-Q (100) or the carré of tens (100) that breaks it: the carré.
    anns = best_announcements(0, cset("8H 9H TH JH QH TC TD TS"))
    assert _points(anns) == [("carré of tens", 100)]


def test_runs_longer_than_five_and_sevens_and_eights() -> None:
    assert _points(best_announcements(1, cset("7S 8S 9S TS JS QS AC AD"))) == [("run of 6", 100)]
    assert best_announcements(1, cset("7C 7D 7H 7S 8C 8D 8H 8S")) == []
    assert _points(best_announcements(1, cset("9C 9D 9H 9S KC AC"))) == [("carré of nines", 150)]


def test_best_announcements_fast_path_agrees_with_the_full_search() -> None:
    # best_announcements answers most hands with bit tests; the full search over every choice
    # (carrés, then the runs left) is the rule it must agree with.
    import random

    rng = random.Random(15)
    for _ in range(20000):
        hand = sum(1 << c for c in rng.sample(range(32), rng.randint(0, 8)))
        full = max(possible_choices(2, hand),
                   key=lambda ch: (sum(a.points for a in ch),
                                   sum(a.points for a in ch if a.is_carre)))
        assert best_announcements(2, hand) == full


def test_explicit_declarations() -> None:
    hand = cset("7H 8H 9H TH JH JC JD JS")
    j = [list(x.split()) for x in ("JC JD JH JS", "7H 8H 9H TH")]
    got = check_declaration(0, hand, [[_c(c) for c in g] for g in j])
    assert sorted(_points(got)) == [("carré of jacks", 200), ("quarte", 50)]
    # The quinte alone (no carré) is a whole run: allowed, less than the best.
    got = check_declaration(0, hand, [[_c(c) for c in ["7H", "8H", "9H", "TH", "JH"]]])
    assert _points(got) == [("quinte", 100)]
    bad = {
        "7H 8H 9H": "must be a whole run",
        "7H 9H TH": "four of a kind or a run",
        "QH KH AH": "cards you do not hold",
        "7H 8H": "3 or more different cards",
    }
    for text, why in bad.items():
        with refused(why):
            check_declaration(0, hand, [[_c(c) for c in text.split()]])
    with refused("one announcement at most"):
        check_declaration(0, hand, [[_c(c) for c in ["JC", "JD", "JH", "JS"]],
                                    [_c(c) for c in ["7H", "8H", "9H", "TH", "JH"]]])
    sevens = cset("7C 7D 7H 7S 8C")
    with refused("four 7s or four 8s"):
        check_declaration(0, sevens, [[_c(c) for c in ["7C", "7D", "7H", "7S"]]])


def test_declare_on_the_first_card_only_and_in_a_deal() -> None:
    hands = fill(["7H 8H 9H TH JH JC JD JS", "", "", ""])
    g = Game("bulgarian", dealer=3).new_deal(hands).do("bid S", "pass", "pass", "pass")
    with refused("must be a whole run"):
        g.play("JC", declare=[["7H", "8H", "9H"]])
    g.play("JC", declare=[["JC", "JD", "JH", "JS"]])  # the carré only: the quarte is given up
    assert _points(g.deal.announcements) == [("carré of jacks", 200)]


def test_classic_comparison() -> None:
    first, trump = 0, Suit.HEARTS
    seq = sequence
    # Any carré beats any sequence; a higher carré (J 9 A 10 K Q) beats a lower one.
    assert classic_winner([seq(0, 0, 3, 5), carre(1, Rank.QUEEN)], first, trump) == 1
    assert classic_winner([carre(0, Rank.NINE), carre(1, Rank.JACK)], first, trump) == 1
    assert classic_winner([carre(0, Rank.ACE), carre(1, Rank.TEN)], first, trump) == 0
    assert classic_winner([carre(0, Rank.KING), carre(1, Rank.QUEEN)], first, trump) == 0
    # Longer, then higher top card, then trump, then nearest to the first player.
    assert classic_winner([seq(0, 0, 0, 3), seq(1, 1, 2, 6)], first, trump) == 1
    assert classic_winner([seq(0, 0, 5, 3), seq(1, 1, 0, 4)], first, trump) == 1
    assert classic_winner([seq(0, 0, 0, 3), seq(1, 1, 5, 3)], first, trump) == 1
    assert classic_winner([seq(0, 0, 2, 3), seq(1, Suit.HEARTS, 2, 3)], first, trump) == 1
    assert classic_winner([seq(2, 0, 2, 3), seq(1, 1, 2, 3)], first, trump) == 1
    assert classic_winner([seq(2, 0, 2, 3), seq(1, 1, 2, 3)], 2, trump) == 0
    assert classic_winner([], first, trump) is None


def test_bulgarian_comparison() -> None:
    seq = sequence
    # Sequences and carrés are compared separately.
    assert bulgarian_winners([seq(0, 0, 0, 4), carre(1, Rank.KING)]) == (0, 1)
    assert bulgarian_winners([carre(0, Rank.NINE), carre(1, Rank.ACE)]) == (None, 0)
    assert bulgarian_winners([seq(0, 0, 0, 3), seq(1, 1, 1, 3)]) == (1, None)
    assert bulgarian_winners([seq(0, 0, 0, 5), seq(1, 1, 2, 4)]) == (0, None)
    # An exact tie, trumps or not: nobody.
    assert bulgarian_winners([seq(0, Suit.SPADES, 2, 3), seq(1, 1, 2, 3)]) == (None, None)


# ---- belote ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("plays", "calls", "points"), [
    (["JH AH KH 8H", "9H TH QH 7H"], ["belote", "rebelote"], (20, 0)),
    (["JH AH KH! 8H", "9H TH QH 7H"], [], (0, 0)),
    (["JH AH KH 8H", "9H TH QH! 7H"], ["belote"], (0, 0)),
])
def test_belote_announced_or_declined_on_either_card(plays: list[str], calls: list[str],
                                                     points: tuple[int, int]) -> None:
    g = Game("coinche", dealer=3).new_deal(FOLLOW).do("bid 80 H", "pass", "pass", "pass")
    g.do(*FOLLOW_PLAY[:6], *plays)
    assert [c.word for c in g.deal.belote_calls] == calls
    assert g.result.belote == points
    assert g.result.score == (80 + 250 + points[0], 0)


# ---- held points and the end of a match ------------------------------------------------------
def test_equal_deal_scores_keep_held_points_waiting() -> None:
    m = replay(json.loads((RECORDS / "bulgarian_equal_scores.json").read_text()))
    rows = [(r.outcome, r.score, r.hanging) for r in m.results]
    assert rows == [(Outcome.FAILED, (112, 0), 0),  # redoubled all trumps, inside
                    (Outcome.HANGING, (0, 0), 112),  # redoubled, 139-139: 28 x 4 held
                    (Outcome.MADE, (15, 15), 112)]  # 150-148 rounds to 15-15: still held
    assert m.totals == [127, 15]


def test_equal_totals_past_the_target_play_another_deal_and_a_passed_deal_never_ends() -> None:
    g = Game("classic", {"target": 300}, dealer=3)
    g.new_deal(FOLLOW, turned="9H", taker=0).do("take", *FOLLOW_PLAY)
    g.new_deal(rotate(FOLLOW, 1), turned="9H", taker=1).do("take", *FOLLOW_PLAY)
    assert g.match.totals == [372, 372] and g.match.winner is None and g.match.needs_deal
    g.new_deal(rotate(SPLIT, 2), turned="QH", taker=2).do(*["pass"] * 8)
    assert g.match.winner is None and g.match.needs_deal
    g.new_deal(rotate(FOLLOW, 3), turned="9H", taker=3).do("take", *FOLLOW_PLAY)
    assert g.match.totals == [472, 644] and g.match.winner == 1


def test_both_past_the_target_the_higher_total_wins() -> None:
    g = Game("coinche", {"target": 100}, dealer=3)
    g.new_deal(SPLIT).do("bid 80 H", "pass", "pass", "pass", *SPLIT_PLAY)
    assert g.match.totals == [171, 91] and g.match.winner == 0


def test_actions_after_the_match_are_refused() -> None:
    g = Game("coinche", {"target": 100}, dealer=3)
    g.new_deal(SPLIT).do("bid 80 H", "pass", "pass", "pass", *SPLIT_PLAY)
    from game.actions import Pass
    from game.errors import GameOver

    with refused("the match is over", GameOver):
        g.match.apply(Pass())
    with pytest.raises(GameOver):
        g.match.start_deal(list(range(32)))


def test_not_your_turn() -> None:
    from game.actions import Pass
    from game.errors import NotYourTurn

    g = Game("coinche", dealer=3).new_deal(SPLIT)
    with refused("it is not your turn", NotYourTurn):
        g.match.apply(Pass(), seat=2)


def test_an_apply_kept_across_deals_acts_on_the_current_deal_then_refuses() -> None:
    # match.apply is the current deal's own apply (a card costs one call): kept past its deal,
    # it must still act as the match's, on the deal of the moment, then refuse once it is over.
    from game.actions import PASS, PLAYS, Pass
    from game.errors import GameOver, IllegalAction, NotYourTurn

    match = Match("coinche", {"target": 100})
    kept = match.apply
    with pytest.raises(IllegalAction) as no_deal:
        kept(PASS)
    assert no_deal.value.code == "no_deal"
    first = match.start_deal(match.new_deck(1))
    kept = match.apply
    for _ in range(4):
        kept(PASS, seat=first.to_act)
    assert first.is_over and len(match.results) == 1  # the match closed the passed deal
    with pytest.raises(IllegalAction) as no_deal:
        kept(PASS)
    assert no_deal.value.code == "no_deal"
    deal = match.start_deal(match.new_deck(2))
    kept(Pass())  # the first deal's apply, on the second deal
    assert deal.actions == [(deal.first, Pass())] and not first.actions[4:]
    with pytest.raises(NotYourTurn):
        kept(PASS, seat=deal.first)
    while not match.is_over:
        if match.needs_deal:
            deal = match.start_deal(match.new_deck(len(match.deals)))
        if deal.phase is Phase.BIDDING:
            kept(deal.legal_actions()[-1 if deal.bidding.history else 1])
        else:
            kept(PLAYS[next(iter(cards_of(deal.legal_cards())))])
    for apply in (kept, match.apply, first.apply, deal.apply):
        with pytest.raises(GameOver):
            apply(PASS)
        with pytest.raises(GameOver):
            apply(PLAYS[0], seat=1)


def test_a_finished_match_is_freed_without_the_cycle_collector() -> None:
    import gc

    from game.actions import PLAYS
    from game.deal import Deal

    match = Match("classic", {"target": 1})
    while not match.is_over:
        deal = match.start_deal(match.new_deck(len(match.deals)))
        while deal.phase is Phase.BIDDING:
            match.apply(deal.legal_actions()[-1])
        while deal.to_act is not None:
            match.apply(PLAYS[next(iter(cards_of(deal.legal_cards())))])
    enabled = gc.isenabled()
    gc.disable()
    try:
        def deals() -> int:
            return sum(1 for o in gc.get_objects() if type(o) is Deal)

        before, dealt = deals(), len(match.deals)
        del match, deal
        assert deals() == before - dealt  # its deals, freed by reference counting alone
    finally:
        if enabled:
            gc.enable()


def test_a_deal_on_its_own_checks_the_seat() -> None:
    from game.actions import PASS
    from game.deal import Deal
    from game.errors import IllegalAction, NotYourTurn
    from game.rules import Options, Variant

    deal = Deal(Variant.COINCHE, Options.for_variant(Variant.COINCHE, None), 3, list(range(32)))
    with pytest.raises(NotYourTurn):
        deal.apply(PASS, seat=1)
    assert not deal.actions
    for _ in range(4):
        deal.apply(PASS, seat=deal.to_act)
    with pytest.raises(IllegalAction) as over:
        deal.apply(PASS, seat=1)
    assert over.value.code == "deal_over"


def _c(text: str) -> int:
    from game.cards import parse_card

    return parse_card(text)


def test_parse_card_reads_every_spelling_alike() -> None:
    """The record's spelling ('JH') and the typed ones ('jh', ' 10h', 'TH') name one card;
    anything else is refused with the same message."""
    from game.cards import RANK_LETTERS, SUIT_LETTERS, card_str, parse_card

    for suit in range(4):
        for rank in range(8):
            card = suit * 8 + rank
            text = RANK_LETTERS[rank] + SUIT_LETTERS[suit]
            assert card_str(card) == text
            assert parse_card(text) == parse_card(text.lower()) == parse_card(f" {text} ") == card
    assert parse_card("10S") == parse_card("TS")
    for bad in ("1H", "JX", "", "JHH", "10"):
        with pytest.raises(ValueError, match="unknown card"):
            parse_card(bad)
    with pytest.raises(ValueError, match="must be a string"):
        parse_card(7)  # type: ignore[arg-type]
