"""French classic belote (docs/rules.md), scripted deal by deal."""

from __future__ import annotations

import pytest

from game.actions import Pass, Take
from game.cards import Suit
from game.contract import Contract
from game.match import Match
from game.rules import Trump
from game.scoring import Outcome, score_classic

from .helpers import (
    ACES,
    ACES_PLAY,
    FOLLOW,
    FOLLOW_PLAY,
    SPLIT,
    SPLIT_PLAY,
    Game,
    build_deck,
    names,
    names_of,
    parse,
    refused,
    rotate,
)

# Legality positions, hearts trump, seat 0 leads (dealer 3) and seat 3 takes the turned AH.
# A: seat 0 holds every club; 1 has low trumps, 2 JH QH, 3 the other four trumps.
POS_A = ["AC KC QC JC TC 9C 8C 7C", "8H 7H AD TD KD QD JD 9D",
         "JH QH 8D 7D AS TS KS QS", "9H AH TH KH JS 9S 8S 7S"]
# B: as A but seat 1 has no trump at all.
POS_B = ["AC KC QC JC TC 9C 8C 7C", "AD TD KD QD JD 9D 8D 7D",
         "JH QH 8H 7H AS TS KS QS", "9H AH TH KH JS 9S 8S 7S"]


def classic(hands: list[str], turned: str, taker: int, **options: object) -> Game:
    return Game("classic", dict(options), dealer=3).new_deal(hands, turned=turned, taker=taker)


# ---- dealing and bidding ---------------------------------------------------------------------
def test_deal_three_then_two_turned_card_then_the_rest() -> None:
    g = classic(SPLIT, "QH", 0)
    deal = g.deal
    assert names(deal.hands[0]) == names_of("AC QC KD 8D KS")
    assert names(deal.hands[3]) == names_of("7C 8C TD JD TS")
    assert deal.turned_card == parse("QH")
    assert deal.deck[20] == parse("QH")
    g.do("take")
    # The taker gets the turned card and 2 more, the others 3 more.
    assert [h.bit_count() for h in deal.hands] == [8, 8, 8, 8]
    assert names(deal.hands[0]) == names_of(SPLIT[0])
    assert names(deal.hands[1]) == names_of(SPLIT[1])
    assert deal.contract.trump is Trump.HEARTS and deal.contract.seat == 0


def test_second_round_taker_gets_the_turned_card() -> None:
    # Seat 0 holds the turned KS, passes it in round one and names hearts in round two.
    g = classic(SPLIT, "KS", 0)
    deal = g.deal
    assert g.match.legal_actions() == [Pass(), Take()]
    g.do("pass", "pass", "pass", "pass")
    assert g.match.legal_actions() == [Pass(), Take(Suit.CLUBS), Take(Suit.DIAMONDS),
                                       Take(Suit.HEARTS)]
    with refused("name a suit other than spades"):
        g.do("take S")
    g.do("take H")
    assert deal.contract.seat == 0 and deal.contract.trump is Trump.HEARTS
    assert names(deal.hands[0]) == names_of(SPLIT[0])
    assert deal.to_act == 0  # the player after the dealer leads, whoever took
    g.do(*SPLIT_PLAY)
    assert g.result.outcome is Outcome.LITIGE and g.result.score == (20, 91)


def test_round_one_takes_only_the_turned_suit() -> None:
    g = classic(SPLIT, "QH", 0)
    with refused(r"only take the turned suit \(hearts\)"):
        g.do("take S")
    g.do("take H")  # naming the turned suit is the same as taking it
    assert g.deal.contract.trump is Trump.HEARTS


def test_all_pass_twice_redeals_by_the_next_dealer() -> None:
    g = classic(SPLIT, "QH", 0)
    g.do(*["pass"] * 8)
    assert g.result.outcome is Outcome.PASSED and g.result.score == (0, 0)
    assert g.match.totals == [0, 0] and g.match.needs_deal
    assert g.match.next_dealer == 0 and g.match.to_act == 1
    g.new_deal(rotate(SPLIT, 1), turned="QH", taker=1)
    assert g.deal.dealer == 0 and g.deal.to_act == 1


# ---- play ------------------------------------------------------------------------------------
def test_must_follow_suit_and_raise_in_trump() -> None:
    # Seat 0 takes the turned TH and leads it.
    pos = ["TH AC KC QC JC 9C 8C 7C", "9H 8H AD TD KD QD JD 9D",
           "KH QH 8D 7D AS TS KS QS", "JH 7H AH TC JS 9S 8S 7S"]
    g = classic(pos, "TH", 0)
    g.do("take", "TH")
    assert g.legal() == "9H"
    with refused("you must play a higher trump: play 9H"):
        g.do("8H")
    g.do("9H")
    assert g.legal() == "QH KH"  # cannot beat the nine: any trump
    with refused("you must follow suit: play QH or KH"):
        g.do("AS")
    g.do("QH")
    assert g.legal() == "JH"  # the partner is winning, yet trump led must be raised
    g.do("JH")
    assert g.deal.tricks[0].winner == 3


def test_void_must_trump_over_trump_and_under_trump() -> None:
    g = classic(POS_A, "AH", 3)
    g.do("pass", "pass", "pass", "take", "AC")
    assert g.legal() == "7H 8H"
    with refused("you have no clubs, so you must trump: play 7H or 8H"):
        g.do("AD")
    g.do("8H")
    assert g.legal() == "JH QH"
    with refused("you must over-trump: play JH or QH"):
        g.do("AS")
    g.do("JH")
    # Nothing beats the jack: must_undertrump (default on) forces a lower trump.
    assert g.legal() == "9H TH KH AH"
    with refused("cannot over-trump but must still trump"):
        g.do("7S")
    g.do("AH")
    assert g.deal.tricks[0].winner == 2


def test_without_must_undertrump_a_player_who_cannot_over_trump_discards() -> None:
    g = classic(POS_A, "AH", 3, must_undertrump=False)
    g.do("pass", "pass", "pass", "take", "AC 8H JH")
    assert g.legal() == names_of(POS_A[3])
    g.do("7S")
    assert g.deal.tricks[0].winner == 2


def test_partner_winning_allows_anything_and_no_trump_allows_a_discard() -> None:
    g = classic(POS_B, "AH", 3)
    g.do("pass", "pass", "pass", "take", "AC")
    assert g.legal() == names_of(POS_B[1])  # no club, no trump: discard anything
    g.do("7D")
    assert g.legal() == names_of(POS_B[2])  # partner (seat 0) is winning
    g.do("AS")
    assert g.legal() == "9H TH KH AH"  # an opponent is winning: trump
    g.do("9H")
    assert g.deal.tricks[0].winner == 3
    assert g.deal.tricks[0].cards == tuple(parse(c) for c in ["AC", "7D", "AS", "9H"])


def test_playing_a_card_not_held_or_during_bidding() -> None:
    g = classic(SPLIT, "QH", 0)
    with refused("the bidding is not over"):
        g.do("AC")
    g.do("take")
    with refused("the bidding is over: play a card"):
        g.do("pass")
    with refused("you do not hold TC"):
        g.do("TC")
    g.do("AC")
    with refused("AC has already been played"):
        g.do("AC")


# ---- scoring ---------------------------------------------------------------------------------
def test_litige_holds_the_takers_points_but_not_its_belote() -> None:
    g = classic(SPLIT, "QH", 0)
    g.do("take", *SPLIT_PLAY)
    r = g.result
    assert [t.winner for t in g.deal.tricks] == [0, 1, 1, 3, 1, 3, 2, 1]
    assert r.card_points == (71, 91) and r.last_trick == 1 and r.belote == (20, 0)
    assert r.outcome is Outcome.LITIGE
    assert r.score == (20, 91) and r.held_created == 71 and r.hanging == 71
    assert g.match.totals == [20, 91]
    calls = [(c.seat, c.word) for c in g.deal.belote_calls]
    assert calls == [(0, "belote"), (0, "rebelote")]


def test_litige_points_wait_through_a_passed_deal_add_up_and_go_to_the_next_winner() -> None:
    g = classic(SPLIT, "QH", 0)
    g.do("take", *SPLIT_PLAY)  # dealer 3: litige, 71 held
    g.new_deal(rotate(SPLIT, 1), turned="QH", taker=1)
    g.do(*["pass"] * 8)  # dealer 0: passed, still held
    assert g.result.outcome is Outcome.PASSED and g.result.hanging == 71
    g.new_deal(rotate(SPLIT, 2), turned="QH", taker=2)
    g.do("take", *SPLIT_PLAY)  # dealer 1: seat 2 takes, another litige: 71 more held
    second = g.result  # a new deal's result (mypy would keep the first one's narrowing)
    assert second.outcome is Outcome.LITIGE
    assert second.score == (20, 91) and second.hanging == 142
    assert g.match.totals == [40, 182]
    # Dealer 2, seat 3 takes and team 1 takes every trick: 252 + belote 20 + the 142 held;
    # seat 0 (team 0) has the only announcement, a carré of tens, and scores it.
    g.new_deal(rotate(FOLLOW, 3), turned="9H", taker=3)
    g.do("take", *FOLLOW_PLAY)
    r = g.result
    assert r.outcome is Outcome.MADE and r.sweep == 1
    assert r.card_points == (0, 162)
    assert r.collected == (0, 142) and r.score == (100, 252 + 20 + 142) and r.hanging == 0
    assert g.match.totals == [140, 182 + 414]


def test_capot_scores_252_and_belote() -> None:
    # Seat 1 holds the four tens: the defence scores its carré, the takers 252 + belote.
    g = classic(FOLLOW, "9H", 0)
    g.do("take", *FOLLOW_PLAY)
    r = g.result
    assert r.outcome is Outcome.MADE and r.sweep == 0
    assert r.card_points == (162, 0) and r.score == (272, 100)


def test_failed_taker_gives_the_defence_its_capot_and_keeps_nothing() -> None:
    # Seat 1 takes the turned AH; seat 0's team takes every trick: dedans, 252 to the defence.
    g = classic(FOLLOW, "AH", 1)
    g.do("pass", "take", *FOLLOW_PLAY)
    r = g.result
    assert r.outcome is Outcome.FAILED and r.score == (252 + 100 + 20, 0)


def test_failed_taker_keeps_its_belote_and_the_defence_gets_162_and_announcements() -> None:
    ds = score_classic(Contract(0, Trump.HEARTS), (60, 102), None, (0, 50), (20, 0))
    assert ds.outcome is Outcome.FAILED and ds.score == (20, 162 + 50)


def test_made_each_team_scores_its_own_points() -> None:
    ds = score_classic(Contract(1, Trump.SPADES), (70, 92), None, (0, 20), (20, 0))
    assert ds.outcome is Outcome.MADE and ds.score == (90, 112)
    # Strictly more is needed: 81 against 81 is a litige, not a made contract.
    ds = score_classic(Contract(1, Trump.SPADES), (81, 81), None, (0, 0), (0, 0))
    assert ds.outcome is Outcome.LITIGE and ds.score == (81, 0) and ds.held == 81


def test_announcements_count_for_the_best_team_when_on() -> None:
    on = classic(ACES, "AH", 0)
    on.do("take", *ACES_PLAY)
    r = on.result
    # Seat 0's carré of aces beats seat 1's carré of tens: only team 0 scores announcements.
    assert [(a.seat, a.points) for a in r.announcements] == [(0, 100), (1, 100)]
    assert r.scored == (True, False)
    assert r.score == (252 + 100 + 20, 0)
    off = classic(ACES, "AH", 0, announcements=False)
    off.do("take", *ACES_PLAY)
    assert off.result.announcements == () and off.result.score == (272, 0)


def test_declaring_nothing_gives_up_the_announcement() -> None:
    g = classic(ACES, "AH", 0)
    g.do("take")
    g.play("AC", declare=[])
    g.do(*" ".join(ACES_PLAY)[3:].split())
    # Seat 0 keeps its aces quiet, so seat 1's carré of tens is the best one made.
    assert [(a.seat, a.points) for a in g.result.announcements] == [(1, 100)]
    assert g.result.score == (272, 100)


def test_declined_belote_scores_nothing() -> None:
    g = classic(FOLLOW, "9H", 0)
    g.do("take", *FOLLOW_PLAY[:6], "JH AH KH! 8H", "9H TH QH 7H")
    assert g.result.belote == (0, 0) and g.result.score == (252, 100)
    assert g.deal.belote_calls == []


@pytest.mark.parametrize(("target", "winner"), [(None, None), (272, 0), (1001, None)])
def test_match_target(target: int | None, winner: int | None) -> None:
    g = Game("classic", {"target": target} if target else None, dealer=3)
    g.new_deal(FOLLOW, turned="9H", taker=0).do("take", *FOLLOW_PLAY)
    assert g.match.options.target == (target or 501)
    assert g.match.winner == winner


def test_match_ends_at_501_after_two_capots() -> None:
    g = Game("classic", dealer=3)
    for first in (0, 1):
        g.new_deal(rotate(FOLLOW, first), turned="9H", taker=first).do("take", *FOLLOW_PLAY)
    assert g.match.totals == [372, 372] and g.match.winner is None
    g.new_deal(rotate(FOLLOW, 2), turned="9H", taker=2).do("take", *FOLLOW_PLAY)
    assert g.match.totals == [644, 472] and g.match.winner == 0
    assert g.match.to_act is None and g.match.legal_actions() == []


def test_helpers_agree_with_the_engine_deck() -> None:
    deck = build_deck("classic", 3, SPLIT, turned="QH", taker=0)
    m = Match("classic", first_dealer=3)
    deal = m.start_deal(deck)
    assert deal.turned_card == parse("QH")
