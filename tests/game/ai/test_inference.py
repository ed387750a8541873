"""The hard level's play believes the auction: the hands it deals a bidder fit the bid."""

from __future__ import annotations

import random

from game.actions import CoincheBid, ContractBid, Pass, Take
from game.ai.easy import play_rules
from game.ai.evaluate import expected_points, margin
from game.ai.inference import PLAY_BID_MARGIN, BiddingFit
from game.ai.knowledge import Knowledge, read_knowledge
from game.ai.sampling import sample_fitting, sample_hands
from game.cards import Suit
from game.match import Match
from game.rules import Trump, Variant
from game.view import Stage, table_view

from .helpers import match_with_hands


def _first_play(match: Match, viewer: int) -> tuple[Knowledge, BiddingFit]:
    view = table_view(match, viewer)
    assert view.stage is Stage.PLAY
    return read_knowledge(view, play_rules(view)), BiddingFit(view)


def test_a_bulgarian_no_trumps_bidder_is_dealt_the_cards_for_it() -> None:
    # West (1) bids no trumps on five cards that hold no ace: the cards that fit the bid are
    # the ones North (0) cannot see.
    m = match_with_hands(Variant.BULGARIAN, {0: "7C 8C 7D 8D 7H"},
                         bids=(ContractBid(Trump.NO_TRUMPS), Pass(), Pass(), Pass()))
    k, fit = _first_play(m, 0)
    need = PLAY_BID_MARGIN["nt"]
    plain_rng, fitted_rng = random.Random(1), random.Random(1)
    plain = fitted = 0
    for _ in range(200):
        hands, consistent = sample_fitting(k, fitted_rng, fit, tries=4)
        assert consistent and hands[0] == k.hand
        assert [h.bit_count() for h in hands] == list(k.counts)
        fitted += margin(hands[1], Trump.NO_TRUMPS) >= need
        plain += margin(sample_hands(k, plain_rng)[0][1], Trump.NO_TRUMPS) >= need
    # By chance under half the hands West could hold fit; the best of four draws, most.
    assert plain < 110
    assert fitted > 160


def test_a_coinche_bidder_holds_the_trumps_its_bid_promised() -> None:
    m = match_with_hands(Variant.COINCHE, {0: "7C 8C 9C 7D 8D 9D 7S 8S"},
                         bids=(CoincheBid(120, Suit.HEARTS), Pass(), Pass(), Pass()))
    k, fit = _first_play(m, 0)
    rng = random.Random(2)
    fitted = [expected_points(sample_fitting(k, rng, fit, tries=4)[0][1], Trump.HEARTS)
              for _ in range(100)]
    rng = random.Random(2)
    plain = [expected_points(sample_hands(k, rng)[0][1], Trump.HEARTS) for _ in range(100)]
    assert sum(fitted) / 100 > sum(plain) / 100 + 10


def test_a_classic_auction_leaves_the_samples_as_they_were() -> None:
    # The cards dealt after a classic auction hide the hand that took: nothing to fit, no draw
    # spent.
    m = match_with_hands(Variant.CLASSIC, {2: "JH 9H AH TS 7D"}, turned="8H",
                         bids=(Pass(), Take()))
    k, fit = _first_play(m, 0)
    assert fit.informative
    for seed in range(20):
        fitted = sample_fitting(k, random.Random(seed), fit, tries=4)
        assert fitted == sample_hands(k, random.Random(seed))
