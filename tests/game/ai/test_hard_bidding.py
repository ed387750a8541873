"""The hard level's bidding by search: it bids what its cards are worth, competes, raises its
partner, and doubles a contract its cards will beat; within its budget, deterministic."""

from __future__ import annotations

import random

import pytest

from game.actions import Action, CoincheBid, ContractBid, Contre, Pass, Take
from game.ai import bidsearch
from game.ai.auction import choose_bid
from game.ai.bidsearch import BidBudget
from game.ai.evaluate import expected_points
from game.ai.hard import HardPlayer
from game.cards import FULL_DECK, Suit, card_str, parse_card, to_set
from game.match import Match
from game.rules import Trump, Variant
from game.view import table_view

from .helpers import match_with_hands


def _bid(m: Match, seed: int = 0) -> Action:
    deal = m.deal
    assert deal is not None and deal.to_act is not None
    return HardPlayer(seed).choose(table_view(m, deal.to_act))


def test_coinche_opens_a_strong_hand_high_and_passes_a_weak_one() -> None:
    strong = _bid(match_with_hands(Variant.COINCHE, {1: "JS 9S AS TS KS AH AD 7C"}))
    assert isinstance(strong, CoincheBid) and strong.suit == Suit.SPADES
    assert strong.value >= 110
    assert _bid(match_with_hands(Variant.COINCHE, {1: "7S 8S 9D 7C QD 8C 7H 8H"})) == Pass()


def test_coinche_contres_a_contract_its_trumps_will_beat() -> None:
    # East (seat 1) bids 140 spades; South-west (seat 2) holds the four best spades.
    m = match_with_hands(Variant.COINCHE, {2: "JS 9S AS TS AH AD AC 7H"},
               bids=(CoincheBid(140, Suit.SPADES),))
    assert _bid(m) == Contre()


def test_coinche_competes_over_an_opponent_and_raises_its_partner() -> None:
    # Seat 1 opens 80 spades; seat 2 holds a strong heart hand: it bids hearts higher.
    over = _bid(match_with_hands(Variant.COINCHE, {2: "JH 9H AH TH KH AC AD 7S"},
                       bids=(CoincheBid(80, Suit.SPADES),)))
    assert isinstance(over, CoincheBid) and over.suit == Suit.HEARTS
    # Seat 1 opens 80 hearts, seat 2 passes; seat 3 (its partner) holds the jack and nine of
    # hearts and two aces: the contract is worth more, it raises.
    raised = _bid(match_with_hands(Variant.COINCHE, {3: "JH 9H 8H AC AD TD 7S 8S"},
                         bids=(CoincheBid(80, Suit.HEARTS), Pass())))
    assert isinstance(raised, CoincheBid) and raised.suit == Suit.HEARTS
    assert raised.value > 80


def test_classic_takes_a_strong_trump_hand_and_passes_a_weak_one() -> None:
    assert _bid(match_with_hands(Variant.CLASSIC, {1: "JH 9H AS 7D 8C"}, turned="AH")) == Take()
    assert _bid(match_with_hands(Variant.CLASSIC, {1: "7S 8S 9D 7C QD"}, turned="8H")) == Pass()


def test_bulgarian_bids_all_trumps_with_jacks_and_passes_a_weak_hand() -> None:
    assert _bid(match_with_hands(Variant.BULGARIAN, {1: "JS JH JD 9S 9C"})) == ContractBid(
        Trump.ALL_TRUMPS)
    assert _bid(match_with_hands(Variant.BULGARIAN, {1: "7S 8H 9D 7C QD"})) == Pass()


def test_bulgarian_keeps_the_evaluators_contract_unless_the_playouts_say_it_loses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Three hearts with the nine and queen: the hand evaluator opens hearts. The playouts,
    # which undervalue a taker, rate it below passing by less than the trust: it is kept.
    hearts = match_with_hands(Variant.BULGARIAN, {1: "7C 7H 9H QH 8S"})
    assert choose_bid(table_view(hearts, 1)) == ContractBid(Trump.HEARTS)
    for seed in range(3):
        assert _bid(hearts, seed) == ContractBid(Trump.HEARTS)
    # One jack and nothing else: the evaluator would open all trumps, the playouts say it
    # loses by more than the trust, and hard passes.
    one_jack = match_with_hands(Variant.BULGARIAN, {1: "JC 7D TD 8H 9S"})
    assert choose_bid(table_view(one_jack, 1)) == ContractBid(Trump.ALL_TRUMPS)
    for seed in range(3):
        assert _bid(one_jack, seed) == Pass()
    # Without the prior the search alone passes the hearts: the trust is what bids them.
    monkeypatch.setitem(bidsearch.PRIOR_TRUST, Variant.BULGARIAN,
                        -bidsearch.BID_MARGIN[Variant.BULGARIAN])
    assert _bid(hearts, 0) == Pass()


def test_bidding_is_deterministic_and_within_its_budget() -> None:
    m = match_with_hands(Variant.COINCHE, {2: "JH 9H AH 7H KC AC AD 7S"},
               bids=(CoincheBid(80, Suit.SPADES),))
    view = table_view(m, 2)
    budget = BidBudget(playouts=40, max_samples=10, min_samples=4)
    a, b = HardPlayer(7, bid_budget=budget), HardPlayer(7, bid_budget=budget)
    first = a.choose(view)
    assert a.choose(view) == first and b.choose(view) == first
    assert 4 <= a.stats.samples <= 10
    assert a.stats.work <= max(40, 4 * 5) * 32


def test_coinche_does_not_surcontre_a_light_contract_after_a_contre() -> None:
    # Seat 2 opened 80 diamonds on KC AC 8D 9D TH AH 7S QS; seat 3, who holds JD KD TD 7D,
    # contred. The contre tells where the trumps are: seat 2 does not surcontre.
    m = Match(Variant.COINCHE, first_dealer=1)
    m.start_deal(m.new_deck(5))
    for a in (CoincheBid(80, Suit.DIAMONDS), Contre(), Pass()):
        m.apply(a)
    view = table_view(m, 2)
    assert " ".join(sorted(map(card_str, view.hand))) == "7S 8D 9D AC AH KC QS TH"
    for seed in range(3):
        assert HardPlayer(seed).choose(view) == Pass()


def test_partners_do_not_outbid_each_other_into_a_contract_neither_can_make() -> None:
    # Seed 7 once gave 100 spades, 110 diamonds, 120 spades... up to 160 between partners.
    for variant, seed in ((Variant.COINCHE, 7), (Variant.COINCHE, 8), (Variant.BULGARIAN, 7)):
        m = Match(variant, first_dealer=seed & 3)
        deal = m.start_deal(m.new_deck(seed))
        players = [HardPlayer(seed * 4 + s) for s in range(4)]
        over_partner = [0, 0, 0, 0]
        while deal.bidding.done is False:
            seat = deal.to_act
            assert seat is not None
            view = table_view(m, seat)
            action = players[seat].choose(view)
            high = view.high_bid
            if high is not None and not (high.seat ^ seat) & 1 and \
                    isinstance(action, CoincheBid | ContractBid):
                over_partner[seat] += 1
            m.apply(action)
        assert max(over_partner) <= 1


def test_the_bid_searchs_deals_keep_the_seats_cards_and_fit_the_auction() -> None:
    # Seat 1 opened 120 in hearts; seat 2, to call, holds no heart. Every deal the bid search
    # draws gives seat 2 its own cards and the others theirs in the right numbers, with no card
    # twice; and seat 1's hands fit its call: a hand worth 110 or more in hearts (what the fit
    # asks of a 120 opening) is rare among hands drawn at random, common among the deals kept.
    m = match_with_hands(Variant.COINCHE, {2: "AS KS QS AC KC QC 7D 8D"},
                         bids=(CoincheBid(120, Suit.HEARTS),))
    view = table_view(m, 2)
    mine = to_set(view.hand)

    def drawn(tries: int) -> list[list[int]]:
        search = bidsearch.BidSearch(view, random.Random(11), BidBudget(tries=tries))
        out = []
        for _ in range(200):
            hands, rest = search._deal()
            assert hands[2] == mine
            assert [h.bit_count() for h in hands] == list(view.hand_counts)
            every = 0
            for h in [*hands, *(1 << c for c in rest)]:
                assert not every & h, "a card dealt twice"
                every |= h
            assert every == FULL_DECK
            full = search._complete(hands, rest, 1)
            assert [h.bit_count() for h in full] == [8] * 4
            assert full[2] & mine == mine
            out.append(hands)
        return out

    def strong(deals: list[list[int]]) -> int:
        return sum(expected_points(h[1], Trump.HEARTS) >= 110 for h in deals)

    fitted, uniform = strong(drawn(BidBudget().tries)), strong(drawn(1))
    assert fitted >= 2 * uniform and fitted >= 60, (fitted, uniform)


def test_the_bid_searchs_classic_deals_give_the_turned_card_to_the_taker() -> None:
    m = match_with_hands(Variant.CLASSIC, {1: "JS 9S AS KH QH"}, turned="TS")
    view = table_view(m, 1)
    search = bidsearch.BidSearch(view, random.Random(3), BidBudget())
    for taker in range(4):
        hands, rest = search._deal()
        full = search._complete(hands, rest, taker)
        assert full[taker] >> parse_card("TS") & 1
        assert [h.bit_count() for h in full] == [8] * 4
        assert full[0] | full[1] | full[2] | full[3] == FULL_DECK
