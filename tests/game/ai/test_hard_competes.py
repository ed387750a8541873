"""The hard level competes in the auction of every variant: it names its suit in the classic
second round, bids again over an overcall, doubles (contre) a contract its cards beat and
redoubles (surcontre) one its cards hold; a hand without the cards for it does none of this.
Each position is a hand a player would bid the same way."""

from __future__ import annotations

from game.actions import (
    Action,
    CoincheBid,
    ContractBid,
    Contre,
    Double,
    Pass,
    Redouble,
    Surcontre,
    Take,
)
from game.ai.bidsearch import announced_points
from game.ai.hard import HardPlayer
from game.cards import Suit, parse_card
from game.match import Match
from game.rules import Trump, Variant
from game.view import table_view

from .helpers import match_with_hands

SEEDS = (0, 1, 2)


def _bids(m: Match) -> list[Action]:
    """The hard level's call for the seat to act, for a few seeds."""
    deal = m.deal
    assert deal is not None and deal.to_act is not None
    view = table_view(m, deal.to_act)
    return [HardPlayer(seed).choose(view) for seed in SEEDS]


FOUR_PASSES = (Pass(), Pass(), Pass(), Pass())


def test_classic_names_its_suit_in_the_second_round() -> None:
    # Hearts turned and passed round: seat 1 holds the jack, nine, ace and ten of diamonds.
    m = match_with_hands(Variant.CLASSIC, {1: "JD 9D AD TD AS"}, turned="7H", bids=FOUR_PASSES)
    assert _bids(m) == [Take(Suit.DIAMONDS)] * len(SEEDS)
    weak = match_with_hands(Variant.CLASSIC, {1: "7S 8S 9D 7C QD"}, turned="7H",
                            bids=FOUR_PASSES)
    assert _bids(weak) == [Pass()] * len(SEEDS)


def test_coinche_bids_again_over_an_overcall() -> None:
    # Seat 1 opened 90 spades, seat 2 overcalled 100 hearts, both others passed: with five
    # spades to the jack and two side aces, seat 1 bids spades higher.
    m = match_with_hands(Variant.COINCHE, {1: "JS 9S AS TS KS AC AD 7C"},
                         bids=(CoincheBid(90, Suit.SPADES), CoincheBid(100, Suit.HEARTS),
                               Pass(), Pass()))
    for call in _bids(m):
        assert isinstance(call, CoincheBid) and call.suit == Suit.SPADES and call.value > 100


def test_coinche_raises_its_partner_over_an_overcall_or_contres_it() -> None:
    # Seat 1 opened 80 spades, seat 2 overcalled 90 hearts. Seat 3, the opener's partner, holds
    # the jack and nine of spades and two aces: it raises spades over the hearts.
    m = match_with_hands(Variant.COINCHE, {3: "JS 9S 8S AC AD TD 7H 8H"},
                         bids=(CoincheBid(80, Suit.SPADES), CoincheBid(90, Suit.HEARTS)))
    for call in _bids(m):
        assert isinstance(call, CoincheBid) and call.suit == Suit.SPADES and call.value > 90
    # Seat 2 overcalled 100 hearts; seat 3 holds the four best hearts: it contres.
    m = match_with_hands(Variant.COINCHE, {3: "JH 9H AH TH AC AD 7S 8S"},
                         bids=(CoincheBid(80, Suit.SPADES), CoincheBid(100, Suit.HEARTS)))
    assert _bids(m) == [Contre()] * len(SEEDS)


def test_coinche_does_not_contre_without_cards_against_the_contract() -> None:
    m = match_with_hands(Variant.COINCHE, {2: "7S 8S 9D 7C QD 8C 7H 8H"},
                         bids=(CoincheBid(80, Suit.SPADES),))
    assert _bids(m) == [Pass()] * len(SEEDS)


def test_coinche_surcontres_a_contract_its_cards_hold() -> None:
    # Seat 1 bid 100 spades holding every top spade and three aces; seat 2 contred, seat 3
    # passed: the contract is sure, seat 1 surcontres.
    m = match_with_hands(Variant.COINCHE, {1: "JS 9S AS TS KS AH AD AC"},
                         bids=(CoincheBid(100, Suit.SPADES), Contre(), Pass()))
    assert _bids(m) == [Surcontre()] * len(SEEDS)


def test_bulgarian_overcalls_with_a_better_contract() -> None:
    # Seat 1 bid clubs; seat 2 holds three jacks and two nines: all trumps.
    m = match_with_hands(Variant.BULGARIAN, {2: "JS JH JD 9S 9H"},
                         bids=(ContractBid(Trump.CLUBS),))
    assert _bids(m) == [ContractBid(Trump.ALL_TRUMPS)] * len(SEEDS)


def test_bulgarian_doubles_a_contract_its_trumps_beat_and_not_without_them() -> None:
    # Seat 1 bid hearts; seat 2 holds the four best hearts.
    m = match_with_hands(Variant.BULGARIAN, {2: "JH 9H AH TH AS"},
                         bids=(ContractBid(Trump.HEARTS),))
    assert _bids(m) == [Double()] * len(SEEDS)
    weak = match_with_hands(Variant.BULGARIAN, {2: "7S 8C 9D 7C QD"},
                            bids=(ContractBid(Trump.HEARTS),))
    assert _bids(weak) == [Pass()] * len(SEEDS)


def test_bulgarian_redoubles_a_contract_its_cards_hold() -> None:
    # Seat 1 bid spades on the four best spades and an ace; seat 2 doubled, the others passed.
    m = match_with_hands(Variant.BULGARIAN, {1: "JS 9S AS TS AH"},
                         bids=(ContractBid(Trump.SPADES), Double(), Pass(), Pass()))
    assert _bids(m) == [Redouble()] * len(SEEDS)


def test_the_bid_search_counts_the_announcements_of_the_sampled_hands() -> None:
    # Bulgarian: a carré of jacks (seat 0) scores 200 for team 0; the two tierces of seat 1
    # (to the nine) lose to the tierce of seat 2 (to the ace): 20 more for team 0. Nothing in
    # no trumps.
    hands = [sum(1 << parse_card(c) for c in h.split()) for h in (
        "JS JH JD JC 7S 8S 7H 8H", "7D 8D 9D QC KC 7C 8C 9C",
        "9S TS QD KS AH KH QH 9H", "AS AD TD KD QS AC TC TH")]
    m = match_with_hands(Variant.BULGARIAN, {})
    view = table_view(m, 1)
    assert announced_points(view, hands, Trump.SPADES) == (220, 0)
    assert announced_points(view, hands, Trump.NO_TRUMPS) == (0, 0)
