"""Bulgarian belot (docs/rules.md), scripted deal by deal."""

from __future__ import annotations

import pytest

from game.actions import ContractBid, Double, Pass, Redouble
from game.contract import Contract
from game.rules import Trump
from game.scoring import Outcome, round_pair, round_points, score_bulgarian

from .helpers import (
    FOLLOW,
    FOLLOW_PLAY,
    SPLIT,
    SPLIT_PLAY,
    Game,
    fill,
    names,
    names_of,
    parse,
    refused,
    rotate,
)

POS_A = ["AC KC QC JC TC 9C 8C 7C", "8H 7H AD TD KD QD JD 9D",
         "JH QH 8D 7D AS TS KS QS", "9H AH TH KH JS 9S 8S 7S"]
POS_B = ["AC KC QC JC TC 9C 8C 7C", "AD TD KD QD JD 9D 8D 7D",
         "JH QH 8H 7H AS TS KS QS", "9H AH TH KH JS 9S 8S 7S"]
RAISE = ["TH AC KC QC JC 9C 8C 7C", "9H 8H AD TD KD QD JD 9D",
         "KH QH 8D 7D AS TS KS QS", "JH 7H AH TC JS 9S 8S 7S"]
# FOLLOW played in all trumps: every suit must be raised.
FOLLOW_AT_PLAY = ["AC TC JC 8C", "9C 7C KC QC", "JD 8D AD TD", "9D 7D KD QD",
                  "JS 8S AS TS", "9S 7S KS QS", "KH 8H JH AH", "9H TH QH 7H"]
# SPLIT played in no trumps: the aces and tens now win hearts too.
SPLIT_NT_PLAY = [*SPLIT_PLAY[:7], "7H KH TH 8H"]


def bulgarian(hands: list[str], **options: object) -> Game:
    return Game("bulgarian", dict(options), dealer=3).new_deal(hands)


# ---- dealing and bidding ---------------------------------------------------------------------
def test_five_cards_then_three_after_the_bidding() -> None:
    g = bulgarian(SPLIT)
    assert [h.bit_count() for h in g.deal.hands] == [5, 5, 5, 5]
    assert names(g.deal.hands[0]) == names_of("AC QC KD 8D KS")
    g.do("bid H", "pass", "pass", "pass")
    assert [names(h) for h in g.deal.hands] == [names_of(h) for h in SPLIT]


def test_contracts_double_and_redouble() -> None:
    g = bulgarian(SPLIT)
    assert g.match.legal_actions() == [Pass(), *(ContractBid(t) for t in Trump)]
    g.do("bid H")
    assert g.match.legal_actions() == [Pass(), ContractBid(Trump.SPADES),
                                       ContractBid(Trump.NO_TRUMPS),
                                       ContractBid(Trump.ALL_TRUMPS), Double()]
    with refused("your contract must be higher than hearts"):
        g.do("bid D")
    with refused("only redouble your team's doubled contract"):
        g.do("redouble")
    g.do("double")
    assert Redouble() in g.match.legal_actions()  # seat 2: its team's contract is doubled
    with refused("only double the other team's contract"):
        g.do("double")
    g.do("redouble")
    assert Double() not in g.match.legal_actions()
    g.do("pass", "pass", "pass")
    c = g.deal.contract
    assert (c.seat, c.trump, c.multiplier) == (0, Trump.HEARTS, 4)


def test_a_higher_contract_cancels_double_and_redouble() -> None:
    g = bulgarian(SPLIT)
    g.do("bid H", "double", "redouble", "bid NT")
    assert g.deal.bidding.bid.multiplier == 1
    g.do("pass", "pass")
    assert g.deal.phase == "bidding"  # only two passes since the last call
    g.do("pass")
    c = g.deal.contract
    assert (c.seat, c.trump, c.multiplier) == (3, Trump.NO_TRUMPS, 1)


def test_four_passes_redeal() -> None:
    g = bulgarian(SPLIT)
    g.do("pass", "pass", "pass", "pass")
    assert g.result.outcome is Outcome.PASSED and g.match.next_dealer == 0
    assert [h.bit_count() for h in g.deal.hands] == [5, 5, 5, 5]


# ---- play ------------------------------------------------------------------------------------
def test_suit_contract_no_under_trump() -> None:
    g = bulgarian(POS_A)
    g.do("pass", "pass", "pass", "bid H", "pass", "pass", "pass", "AC")
    assert g.legal() == "7H 8H"  # an opponent is winning: trump
    g.do("8H")
    assert g.legal() == "JH QH"  # over-trump when you can
    g.do("JH")
    assert g.legal() == names_of(POS_A[3])  # cannot over-trump: any card


def test_suit_contract_partner_winning_allows_anything() -> None:
    g = bulgarian(POS_B)
    g.do("pass", "pass", "pass", "bid H", "pass", "pass", "pass", "AC", "7D")
    assert g.legal() == names_of(POS_B[2])
    g.do("AS")
    assert g.legal() == "9H TH KH AH"


@pytest.mark.parametrize("contract", ["H", "AT"])
def test_trump_led_must_be_raised_whoever_is_winning(contract: str) -> None:
    g = bulgarian(RAISE)
    g.do(f"bid {contract}", "pass", "pass", "pass", "TH")
    assert g.legal() == "9H"
    g.do("9H")
    assert g.legal() == "QH KH"
    g.do("QH")
    assert g.legal() == "JH"  # the partner (seat 1) is winning: still raise


def test_no_trumps_only_following_is_required() -> None:
    g = bulgarian(POS_A)
    g.do("pass", "pass", "pass", "bid NT", "pass", "pass", "pass", "AC")
    assert g.legal() == names_of(POS_A[1])
    g.do("AD")
    g.do("AS", "7S")
    assert g.deal.tricks[0].winner == 0


def test_all_trumps_raise_in_the_suit_led_and_void_plays_anything() -> None:
    g = bulgarian(FOLLOW)
    g.do("bid AT", "pass", "pass", "pass", "AC", "TC")
    assert g.legal() == "9C JC"  # J and 9 beat the ace in all trumps
    g.do("JC")
    g = bulgarian(POS_A)
    g.do("bid AT", "pass", "pass", "pass", "AC")
    assert g.legal() == names_of(POS_A[1])


# ---- scoring ---------------------------------------------------------------------------------
def test_valat_in_a_suit_adds_90_and_no_win_on_a_valat_deal() -> None:
    # FOLLOW in hearts: team 0 takes all tricks and the belote; seat 1's carré of tens scores.
    g = Game("bulgarian", {"target": 20}, dealer=3).new_deal(FOLLOW)
    g.do("bid H", "pass", "pass", "pass", *FOLLOW_PLAY)
    r = g.result
    assert r.card_points == (162, 0) and r.sweep == 0 and r.belote == (20, 0)
    assert [(a.seat, a.points) for a in r.announcements] == [(1, 100)] and r.scored == (True,)
    assert r.raw == (162 + 90 + 20, 100) and r.score == (27, 10)
    assert g.match.totals == [27, 10] and g.match.winner is None  # 27 >= 20, but a valat
    # Next deal (seat 1 bids hearts): 91 against 91, hanging; team 0 gets its 9 and wins.
    g.new_deal(rotate(SPLIT, 1)).do("bid H", "pass", "pass", "pass", *SPLIT_PLAY)
    r = g.result
    assert r.outcome is Outcome.HANGING and r.raw == (91, 91)
    assert r.score == (9, 0) and r.hanging == 9
    assert g.match.totals == [36, 10] and g.match.winner == 0


def test_all_trumps_valat_totals_258() -> None:
    g = bulgarian(FOLLOW)
    g.do("bid AT", "pass", "pass", "pass", *FOLLOW_AT_PLAY)
    r = g.result
    assert [t.winner for t in g.deal.tricks] == [2, 2, 2, 2, 2, 2, 0, 0]
    assert r.card_points == (258, 0) and r.belote == (20, 0)
    assert r.raw == (258 + 90 + 20, 100) and r.score == (37, 10)


def test_no_trumps_points_are_doubled_and_an_inside_team_gives_everything() -> None:
    g = bulgarian(SPLIT)
    g.do("bid NT", "pass", "pass", "pass", *SPLIT_NT_PLAY)
    r = g.result
    assert r.card_points == (23, 107) and r.announcements == () and r.belote == (0, 0)
    assert r.raw == (46, 214) and r.outcome is Outcome.FAILED and r.score == (0, 26)


def test_no_trumps_valat_bonus_is_not_doubled() -> None:
    ds = score_bulgarian(Contract(0, Trump.NO_TRUMPS), (130, 0), 0, (0, 0), (0, 0))
    assert ds.raw == (260 + 90, 0) and ds.score == (35, 0)


def test_doubled_no_trumps_inside_goes_doubled_to_the_doublers() -> None:
    g = bulgarian(SPLIT)
    g.do("bid NT", "double", "pass", "pass", "pass", *SPLIT_NT_PLAY)
    assert g.result.outcome is Outcome.FAILED and g.result.score == (0, 52)


@pytest.mark.parametrize(("call", "factor"), [("double", 2), ("redouble", 4)])
def test_doubled_valat_premiums_included(call: str, factor: int) -> None:
    g = bulgarian(FOLLOW)
    calls = ["double"] if call == "double" else ["double", "redouble"]
    g.do("bid H", *calls, "pass", "pass", "pass", *FOLLOW_PLAY)
    # 272 + 100 = 372 points in all, 37 once rounded, times the factor, to team 0.
    assert g.result.outcome is Outcome.MADE and g.result.score == (37 * factor, 0)


def test_a_doubled_hanging_deal_gives_everything_to_the_next_winner() -> None:
    g = bulgarian(SPLIT)
    g.do("bid H", "double", "pass", "pass", "pass", *SPLIT_PLAY)
    r = g.result
    assert r.outcome is Outcome.HANGING and r.score == (0, 0) and r.hanging == 18 * 2
    g.new_deal(rotate(FOLLOW, 1)).do("bid H", "pass", "pass", "pass", *FOLLOW_PLAY)
    r = g.result
    assert r.score == (10, 27 + 36) and r.collected == (0, 36) and r.hanging == 0


def test_seed_004_rounding_examples() -> None:
    # 154-154 in all trumps (a quarte on the contracting side): 15 received, 16 hang.
    ds = score_bulgarian(Contract(0, Trump.ALL_TRUMPS), (104, 154), None, (50, 0), (0, 0))
    assert ds.outcome is Outcome.HANGING and ds.score == (0, 15) and ds.held == 16
    # 106-106 in a suit game: 10 received, 11 hang.
    ds = score_bulgarian(Contract(1, Trump.SPADES), (106, 56), None, (0, 50), (0, 0))
    assert ds.outcome is Outcome.HANGING and ds.score == (10, 0) and ds.held == 11


@pytest.mark.parametrize(("trump", "raw", "score"), [
    (Trump.SPADES, (96, 66), (9, 7)),  # digit 6 = limit: fewer points up, more down
    (Trump.SPADES, (97, 65), (10, 6)),
    (Trump.SPADES, (105, 57), (10, 6)),
    (Trump.NO_TRUMPS, (136, 124), (14, 12)),  # limit 5 (no-trumps points are even)
    (Trump.NO_TRUMPS, (134, 126), (13, 13)),
    (Trump.ALL_TRUMPS, (184, 74), (18, 8)),  # limit 4
    (Trump.ALL_TRUMPS, (183, 75), (18, 8)),
    (Trump.ALL_TRUMPS, (185, 73), (19, 7)),
])
def test_rounding_limit_digits(trump: Trump, raw: tuple[int, int],
                               score: tuple[int, int]) -> None:
    factor = 2 if trump is Trump.NO_TRUMPS else 1
    ds = score_bulgarian(Contract(0, trump), (raw[0] // factor, raw[1] // factor), None,
                         (0, 0), (0, 0))
    assert ds.outcome is Outcome.MADE and ds.raw == raw and ds.score == score


def test_limit_digit_five_in_no_trumps() -> None:
    assert round_pair((135, 125), 5, 0) == (13, 13)
    assert round_pair((125, 125), 5, 0) == (13, 12)  # on equality the hanging side rounds up


def test_inside_sum_is_rounded_once() -> None:
    ds = score_bulgarian(Contract(0, Trump.HEARTS), (56, 106), None, (0, 50), (0, 0))
    assert ds.outcome is Outcome.FAILED and ds.score == (0, 21)  # 212 -> 21
    assert round_points(166, 6, False) == 16 and round_points(167, 6, False) == 17


# ---- declarations and belot ------------------------------------------------------------------
def test_no_declarations_in_no_trumps() -> None:
    hands = fill(["7C 8C 9C TC", "", "", ""])
    g = bulgarian(hands)
    g.do("bid NT", "pass", "pass", "pass")
    for _ in range(2):  # refused, and refused again for the same reason: nothing changed
        with refused("no announcements in no trumps"):
            g.play("7C", declare=[["7C", "8C", "9C", "TC"]])
    assert not g.deal.declared[g.deal.to_act]
    g.play("7C")
    assert g.deal.announcements == []


@pytest.mark.parametrize("on", [True, False])
def test_announcements_option(on: bool) -> None:
    g = Game("bulgarian", {"announcements": on}, dealer=3).new_deal(fill(["7C 8C 9C", "", "", ""]))
    g.do("bid S", "pass", "pass", "pass", "7C")
    assert [a.points for a in g.deal.announcements] == ([20] if on else [])


def test_sequences_score_beside_the_other_teams_carre() -> None:
    # Seat 0: quarte 7-T of clubs; seat 1: carré of queens; seat 2: tierce; seat 3: nothing.
    hands = fill(["7C 8C 9C TC", "QC QD QH QS", "7D 8D 9D", ""])
    g = bulgarian(hands)
    g.do("bid S", "pass", "pass", "pass")
    for _ in range(4):
        g.do(_first_legal(g))
    anns = {(a.seat, a.points): ok for a, ok in zip(g.deal.announcements, g.deal.scored,
                                                      strict=True)}
    assert anns == {(0, 50): True, (2, 20): True, (1, 100): True}
    assert g.deal.announced_points() == (70, 100)


def test_equal_best_sequences_score_for_nobody_even_in_trump() -> None:
    # Tierces 9-J in spades (trump) and in hearts: an exact tie, neither team scores them.
    hands = fill(["9S TS JS", "9H TH JH", "", ""])
    g = bulgarian(hands)
    g.do("bid S", "pass", "pass", "pass")
    for _ in range(4):
        g.do(_first_legal(g))
    assert [a.points for a in g.deal.announcements] == [20, 20]
    assert g.deal.scored == [False, False] and g.deal.announced_points() == (0, 0)


def test_belot_in_all_trumps_is_lost_when_discarded() -> None:
    # Seat 2 has no hearts and holds KC QC; it discards QC on a heart lead.
    hands = fill(["AH 9H", "JH 8H", "KC QC", "7H TH KH QH"], void=["", "", "H", ""])
    g = bulgarian(hands)
    g.do("bid AT", "pass", "pass", "pass")
    g.do("AH", "JH", "QC")
    assert g.deal.belote_calls == []
    g.do(_first_legal(g))
    # Seat 3 holds KH QH: following suit with one of them announces belot.
    g2 = bulgarian(hands)
    g2.do("bid AT", "pass", "pass", "pass", "AH", "JH", "QC", "QH")
    assert [(c.seat, c.word) for c in g2.deal.belote_calls] == [(3, "belote")]


def test_belot_as_a_trump_in_a_suit_contract() -> None:
    hands = fill(["AC", "KH QH", "", ""], void=["", "C", "", ""])
    g = bulgarian(hands)
    g.do("bid H", "pass", "pass", "pass", "AC", "QH")
    assert [(c.seat, c.word) for c in g.deal.belote_calls] == [(1, "belote")]


def _first_legal(g: Game) -> str:
    from game.cards import card_str, cards_of

    return card_str(next(cards_of(g.match.legal_cards())))


def test_parse_helper() -> None:
    assert parse("TS") == 3 * 8 + 3
