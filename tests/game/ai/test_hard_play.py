"""The hard level's card play in positions taken from logged deals (bench/mistakes.py found them):
it must not make the mistakes a player at the table would notice."""

from __future__ import annotations

from typing import Any

from game.actions import CoincheBid, Pass, Play
from game.ai import make_ai
from game.ai.hard import HardPlayer
from game.cards import Suit, card_str, parse_card
from game.match import Match
from game.record import action_from_json
from game.rules import Variant
from game.view import TableView, table_view

from .helpers import match_with_hands


def position(variant: Variant, seed: int, actions: list[dict[str, Any]]) -> tuple[Match, int]:
    """The deal of ``seed`` (dealer and deck as bench/arena.py deals them) after ``actions``."""
    match = Match(variant, {"target": 10**5}, first_dealer=seed & 3)
    deal = match.start_deal(match.new_deck(seed))
    for a in actions:
        match.apply(action_from_json(variant, a))
    assert deal.to_act is not None
    return match, deal.to_act


def _plays(cards: str) -> list[dict[str, Any]]:
    return [{"action": "play", "card": c} for c in cards.split()]


def choice(player: Any, view: TableView) -> str:
    return card_str(player.choose(view).card)


# Coinche, hearts trumps (110 by East): South holds TD QD 8D QS, void in clubs. North led 8C
# (master), West discarded 7D: East, still to play, has shown no club and may hold trumps.
RUFFED_TEN = _plays("9S JS KS 7S AC JC QC KC TC AH 9C 9H 7H JH KH TS 8C 7D")
COINCHE_BIDS: list[dict[str, Any]] = [
    {"action": "bid", "value": 80, "suit": "S"}, {"action": "bid", "value": 110, "suit": "H"},
    {"action": "pass"}, {"action": "pass"}, {"action": "pass"}]


def test_does_not_give_a_ten_to_a_trick_the_opponents_will_ruff() -> None:
    match, seat = position(Variant.COINCHE, 19, COINCHE_BIDS + RUFFED_TEN)
    view = table_view(match, seat)
    assert " ".join(map(card_str, view.hand)) == "TD QD 8D QS"
    for seed in range(3):
        assert choice(HardPlayer(seed), view) != "TD"
    assert choice(make_ai("easy"), view) != "TD"


def test_does_not_ruff_a_trick_the_partner_is_sure_to_win() -> None:
    # Coinche, hearts trumps (80 by East). East leads 7S, North takes it with AS, West follows:
    # South, last to play and void in spades, holds the jack of hearts as its only trump.
    hands = {0: "JH AC TC KC AD TD QD 9D", 1: "7S 8S 7H 9H AH 7C 8C 9C",
             2: "AS TS KS QS JS 8H 7D 8D", 3: "9S JD TH KH QH JC QC KD"}
    m = match_with_hands(Variant.COINCHE, hands,
                         bids=(CoincheBid(80, Suit.HEARTS), Pass(), Pass(), Pass()))
    for c in ("7S", "AS", "9S"):
        m.apply(Play(parse_card(c)))
    view = table_view(m, 0)
    assert "JH" in map(card_str, view.legal_cards)
    for seed in range(4):
        assert choice(HardPlayer(seed), view) != "JH"
    assert choice(make_ai("easy"), view) != "JH"
