"""Contrée / coinche (docs/rules.md), scripted deal by deal."""

from __future__ import annotations

import pytest

from game.actions import CAPOT, CoincheBid, Contre, Pass, Surcontre
from game.cards import Suit
from game.contract import Contract
from game.rules import Trump
from game.scoring import Outcome, score_coinche

from .helpers import (
    ACES,
    FOLLOW,
    FOLLOW_PLAY,
    SPLIT,
    SPLIT_PLAY,
    Game,
    names,
    names_of,
    refused,
    rotate,
)

POS_A = ["AC KC QC JC TC 9C 8C 7C", "8H 7H AD TD KD QD JD 9D",
         "JH QH 8D 7D AS TS KS QS", "9H AH TH KH JS 9S 8S 7S"]


def coinche(hands: list[str], **options: object) -> Game:
    return Game("coinche", dict(options), dealer=3).new_deal(hands)


def test_all_eight_cards_are_dealt_three_two_three_and_nothing_is_turned() -> None:
    g = coinche(SPLIT)
    assert [names(h) for h in g.deal.hands] == [names_of(h) for h in SPLIT]
    assert g.deal.turned_card is None and g.deal.to_act == 0


def test_bids_go_up_by_ten_to_160_then_capot() -> None:
    g = coinche(SPLIT)
    legal = g.match.legal_actions()
    assert legal[0] == Pass() and Contre() not in legal
    values = sorted({a.value for a in legal if isinstance(a, CoincheBid)})
    assert values == [80, 90, 100, 110, 120, 130, 140, 150, 160, CAPOT]
    assert len(legal) == 1 + 10 * 4
    g.do("bid 80 H")
    with refused("your bid must be higher than 80 hearts"):
        g.do("bid 80 S")
    with refused("80 to 160 in steps of 10, or capot"):
        g.do("bid 85 S")
    legal = g.match.legal_actions()
    assert Contre() in legal and CoincheBid(80, Suit.SPADES) not in legal
    assert CoincheBid(90, Suit.CLUBS) in legal


def test_a_player_may_pass_then_bid_again_and_three_passes_end_the_bidding() -> None:
    g = coinche(SPLIT)
    g.do("pass", "bid 90 S", "pass", "pass", "bid 100 H", "pass", "pass")
    assert g.deal.phase == "bidding"
    g.do("pass")
    c = g.deal.contract
    assert (c.seat, c.trump, c.value, c.multiplier) == (0, Trump.HEARTS, 100, 1)
    assert g.deal.to_act == 0


def test_four_passes_redeal_by_the_next_dealer() -> None:
    g = coinche(SPLIT)
    g.do("pass", "pass", "pass", "pass")
    assert g.result.outcome is Outcome.PASSED and g.match.next_dealer == 0
    assert g.match.to_act == 1


def test_contre_only_by_an_opponent_then_the_bidders_surcontre_or_pass_in_turn() -> None:
    g = coinche(SPLIT)
    g.do("bid 80 H")
    g.do("pass")
    with refused("only contre the other team's bid"):
        g.do("contre")
    g.do("pass", "contre")  # seat 3 contres
    assert g.match.legal_actions() == [Pass(), Surcontre()]
    assert g.deal.to_act == 0
    with refused("after a contre you may only surcontre or pass"):
        g.do("bid 90 H")
    g.do("pass")
    assert g.deal.to_act == 2  # the contrer's partner (seat 1) does not speak
    g.do("pass")
    c = g.deal.contract
    assert (c.seat, c.value, c.multiplier) == (0, 80, 2)


def test_surcontre_ends_the_bidding_at_once() -> None:
    g = coinche(SPLIT)
    g.do("bid 80 H", "contre", "surcontre")
    assert g.deal.contract.multiplier == 4 and g.deal.phase == "play"


def test_capot_bid_ends_like_any_bid_and_cannot_be_overbid() -> None:
    g = coinche(FOLLOW)
    g.do("bid capot H")
    assert all(not isinstance(a, CoincheBid) for a in g.match.legal_actions())
    g.do("pass", "pass", "pass")
    assert g.deal.contract.value == CAPOT


# ---- play: under-trumping is an option ----------------------------------------------------
@pytest.mark.parametrize(("undertrump", "legal"), [
    (False, "9H TH KH AH 7S 8S 9S JS"),
    (True, "9H TH KH AH"),
])
def test_must_undertrump_option(undertrump: bool, legal: str) -> None:
    opts = {"must_undertrump": True} if undertrump else {}
    g = coinche(POS_A, **opts)
    g.do("pass", "pass", "pass", "bid 80 H", "pass", "pass", "pass")
    g.do("AC")
    assert g.legal() == "7H 8H"  # must trump, as in classic
    g.do("8H")
    assert g.legal() == "JH QH"  # must over-trump
    g.do("JH")
    assert g.legal() == names_of(legal)


# ---- scoring ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("bidding", "outcome", "score"), [
    (["bid 80 H", "pass", "pass", "pass"], Outcome.MADE, (80 + 91, 91)),
    (["bid 90 H", "pass", "pass", "pass"], Outcome.MADE, (90 + 91, 91)),
    (["bid 100 H", "pass", "pass", "pass"], Outcome.FAILED, (20, 160 + 100)),
    (["bid 80 H", "contre", "pass", "pass"], Outcome.MADE, (160 + 2 * 80 + 20, 0)),
    (["bid 80 H", "contre", "surcontre"], Outcome.MADE, (160 + 4 * 80 + 20, 0)),
    (["bid 100 H", "contre", "pass", "pass"], Outcome.FAILED, (20, 160 + 2 * 100)),
    (["bid 100 H", "contre", "surcontre"], Outcome.FAILED, (20, 160 + 4 * 100)),
])
def test_split_deal_scores(bidding: list[str], outcome: Outcome,
                           score: tuple[int, int]) -> None:
    # Team 0 takes 71 card points and holds the belote (20): 91 reaches 80 and 90, not 100.
    g = coinche(SPLIT)
    g.do(*bidding, *SPLIT_PLAY)
    r = g.result
    assert r.card_points == (71, 91) and r.belote == (20, 0)
    assert r.outcome is outcome and r.score == score


def test_all_tricks_without_a_capot_bid_count_250() -> None:
    g = coinche(FOLLOW)
    g.do("bid 80 H", "pass", "pass", "pass", *FOLLOW_PLAY)
    assert g.result.card_points == (162, 0) and g.result.sweep == 0
    assert g.result.score == (80 + 250 + 20, 0)


def test_made_capot_bid_scores_250_plus_250() -> None:
    g = coinche(FOLLOW)
    g.do("bid capot H", "pass", "pass", "pass", *FOLLOW_PLAY)
    assert g.result.outcome is Outcome.MADE and g.result.score == (250 + 250 + 20, 0)


def test_failed_capot_bid_gives_the_defence_160_plus_250() -> None:
    # Seat 1 bids capot in hearts and its team takes no trick at all.
    g = coinche(FOLLOW)
    g.do("pass", "bid capot H", "pass", "pass", "pass", *FOLLOW_PLAY)
    assert g.result.outcome is Outcome.FAILED and g.result.score == (160 + 250 + 20, 0)


def test_a_capot_bid_fails_when_one_trick_is_lost() -> None:
    ds = score_coinche(Contract(0, Trump.SPADES, CAPOT), (152, 10), None, (0, 0), (0, 0))
    assert ds.outcome is Outcome.FAILED and ds.score == (0, 410)


@pytest.mark.parametrize(("announcements", "score"), [
    (False, (80 + 250 + 20, 0)),
    (True, (80 + 250 + 20 + 100, 0)),  # the carré of aces beats the carré of tens
])
def test_announcements_are_off_by_default(announcements: bool, score: tuple[int, int]) -> None:
    opts = {"announcements": True} if announcements else {}
    g = coinche(ACES, **opts)
    g.do("bid 80 H", "pass", "pass", "pass",
         "AC TC JC 8C", "KC QC 9C 7C", "AD TD JD 8D", "KD QD 9D 7D",
         "AS TS JS 8S", "KS QS 9S 7S", "JH 9H KH 8H", "AH TH QH 7H")
    assert len(g.result.announcements) == (2 if announcements else 0)
    assert g.result.score == score


def test_the_attacks_announcements_count_toward_its_contract() -> None:
    with_tierce = score_coinche(Contract(0, Trump.HEARTS, 100), (82, 80), None, (20, 0), (0, 0))
    assert with_tierce.outcome is Outcome.MADE and with_tierce.score == (100 + 102, 80)
    without = score_coinche(Contract(0, Trump.HEARTS, 100), (82, 80), None, (0, 0), (0, 0))
    assert without.outcome is Outcome.FAILED and without.score == (0, 260)
    # Announcements go unmultiplied to the side that scores a contred contract.
    contred = score_coinche(Contract(0, Trump.HEARTS, 100, 2), (82, 80), None, (20, 0), (0, 20))
    assert contred.score == (160 + 200 + 20, 20)


@pytest.mark.parametrize(("options", "target"), [({}, 701), ({"target": 1000}, 1000),
                                                 ({"target": 2000}, 2000)])
def test_targets(options: dict[str, int], target: int) -> None:
    g = Game("coinche", dict(options), dealer=3)
    assert g.match.options.target == target
    for first in (0, 1, 2):  # each deal: the first player's team makes 80 surcontré, 500
        g.new_deal(rotate(SPLIT, first))
        g.do("bid 80 H", "contre", "surcontre", *SPLIT_PLAY)
        if first == 1:
            assert g.match.totals == [500, 500] and g.match.winner is None
    assert g.match.totals == [1000, 500]
    assert g.match.winner == (0 if target <= 1000 else None)
