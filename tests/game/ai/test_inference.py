"""What the calls of the auction say about the hands that made them (game/ai/inference.py)."""

from __future__ import annotations

from game.actions import CoincheBid, ContractBid, Double, Pass, Take
from game.ai.inference import BiddingFit, bid_trump
from game.cards import Suit, parse_card, to_set
from game.rules import Trump, Variant
from game.view import table_view

from .helpers import match_with_hands


def _hand(cards: str) -> int:
    return to_set(parse_card(c) for c in cards.split())


def test_a_call_names_its_trump() -> None:
    assert bid_trump(CoincheBid(90, Suit.SPADES), None) is Trump.SPADES
    assert bid_trump(ContractBid(Trump.ALL_TRUMPS), None) is Trump.ALL_TRUMPS
    assert bid_trump(Take(), Suit.HEARTS) is Trump.HEARTS
    assert bid_trump(Take(Suit.CLUBS), Suit.HEARTS) is Trump.CLUBS
    assert bid_trump(Pass(), Suit.HEARTS) is None
    assert bid_trump(Double(), None) is None


def test_a_bulgarian_no_trumps_bid_fits_aces_not_sevens() -> None:
    # Seat 1 bids no trumps, seat 2 (the other team) doubles.
    m = match_with_hands(Variant.BULGARIAN, {}, bids=(ContractBid(Trump.NO_TRUMPS), Double()))
    fit = BiddingFit(table_view(m, 0))
    assert fit.informative
    assert fit.miss(1, _hand("AS AH AD TC KC")) == 0
    assert fit.miss(1, _hand("7S 8H 7D 8C 9C")) > 0
    # A double says the doubler's cards beat the contract.
    assert fit.miss(2, _hand("AS TS AH TH AD")) == 0
    assert fit.miss(2, _hand("7S 8S 7H 8D 9D")) > 0


def test_a_coinche_opening_pass_fits_a_weak_hand_only() -> None:
    m = match_with_hands(Variant.COINCHE, {}, bids=(Pass(), CoincheBid(120, Suit.HEARTS)))
    fit = BiddingFit(table_view(m, 0))
    weak = _hand("7S 8S 7H 8H 7D 8D 7C 8C")
    strong = _hand("JH 9H AH TH KH AS AD AC")
    assert fit.miss(1, weak) == 0
    assert fit.miss(1, strong) > 0
    # Seat 1 opened with a pass; seat 2 bid 120 in hearts: it holds hearts.
    assert fit.miss(2, strong) == 0
    assert fit.miss(2, weak) > 0


def test_no_call_yet_says_nothing() -> None:
    fit = BiddingFit(table_view(match_with_hands(Variant.BULGARIAN, {}), 0))
    assert not fit.informative
    assert fit.miss(1, _hand("7S 8H 7D 8C 9C")) == 0
