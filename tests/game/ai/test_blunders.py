"""The two mistakes game/ai/blunders.py keeps out of the hard level's play, in positions
bench/mistakes.py found where the previous hard level (bench/hard_v1) makes them, and the
positions where the same card is right or the only one, which it must leave alone."""

from __future__ import annotations

from bench.hard_v1 import level_player
from game.actions import Play
from game.ai.blunders import blunders, candidates
from game.ai.easy import play_rules
from game.ai.hard import HardPlayer
from game.ai.knowledge import read_knowledge
from game.cards import card_str, cards_of
from game.match import Match
from game.players import Player
from game.record import action_from_code
from game.rules import Variant
from game.view import TableView, table_view


def position(variant: Variant, seed: int, actions: str) -> TableView:
    """The view of the seat to act in the deal of ``seed`` (dealt as bench/mistakes.py deals
    it) after ``actions`` in the record's short notation."""
    match = Match(variant, {"target": 10**5}, first_dealer=seed & 3)
    deal = match.start_deal(match.new_deck(seed))
    for code in actions.split():
        match.apply(action_from_code(variant, code))
    assert deal.to_act is not None
    return table_view(match, deal.to_act)


def bad_cards(view: TableView) -> set[str]:
    rules = play_rules(view)
    return {card_str(c) for c in cards_of(blunders(view, rules, read_knowledge(view, rules)))}


def kept(view: TableView) -> list[str]:
    rules = play_rules(view)
    return [card_str(c) for c in candidates(view, rules, read_knowledge(view, rules))]


def play(player: Player, view: TableView) -> str:
    action = player.choose(view)
    assert isinstance(action, Play)
    return card_str(action.card)


def hand(view: TableView) -> str:
    return " ".join(map(card_str, view.hand))


# Last to play, void in the suit led, the partner's plain card already the trick's: bench/hard_v1
# ruffs with its only trump (the hard level before game/ai/blunders.py did too).
RUFFS = [
    # Classic, clubs trumps taken by East, who holds KC JH; North led 7S, West QS, South 8S.
    (Variant.CLASSIC, 840, "KC JH", "KC",
     "take play.7C play.JC play.AC play.9C play.AS play.9S play.TS play.QC play.AD play.7D "
     "play.TD play.9D play.KD play.8D play.QD play.JD play.8H play.7H play.TH play.QH play.AH "
     "play.KH play.9H play.8C play.7S play.QS play.8S"),
    # Classic, clubs trumps taken by North: East holds KC 9S; North led 7D, West KD, South 8D.
    (Variant.CLASSIC, 928, "KC 9S", "KC",
     "pass take play.AH play.JH play.KH play.9H play.AS play.JS play.8S play.QS play.TS play.JC "
     "play.7H play.KS play.7C play.8H play.TC play.9C play.7S play.8C play.9D play.AD play.TH "
     "play.JD play.QD play.QH play.7D play.KD play.8D"),
    # Coinche, clubs trumps (110 by East): West holds 8C KS QS; South led 8H, East TH, North 7S.
    (Variant.COINCHE, 1029, "8C KS QS", "8C",
     "bid.100.S pass pass bid.110.C pass pass pass play.AS play.8S play.9S play.QC play.JC "
     "play.AC play.9C play.7C play.AD play.8D play.9D play.JD play.7D play.7H play.JH play.KD "
     "play.AH play.KH play.9H play.QH play.8H play.TH play.7S"),
]


def test_hard_does_not_ruff_the_partners_won_trick() -> None:
    for variant, seed, cards, ruff, actions in RUFFS:
        view = position(variant, seed, actions)
        assert hand(view) == cards
        assert bad_cards(view) == {ruff}
        seat = view.viewer
        assert seat is not None
        assert play(level_player("hard_v1", seed * 4 + seat), view) == ruff
        for s in range(2):
            chosen = play(HardPlayer(s), view)
            assert chosen != ruff and chosen in map(card_str, view.legal_cards)
            assert play(HardPlayer(s), view) == chosen  # the same seed and view, the same card


# A plain ten given while an opponent still to play has shown it lacks the suit led and may
# trump; bench/hard_v1 gives it (and the hard level before game/ai/blunders.py did).
TENS = [
    # Classic, diamonds trumps: South leads; West can hold no spade and may hold diamonds.
    (Variant.CLASSIC, 64, "QD QH TS JS 9S", "TS",
     "pass take play.AS play.KS play.AH play.7S play.7C play.QC play.KC play.AC play.TH play.JH "
     "play.7H play.8H"),
    # Classic, hearts trumps: North, with neither spades nor hearts, would discard TC on East's
    # lead of JS; West, still to play, can hold no spade and may hold hearts.
    (Variant.CLASSIC, 148, "TC QC 7C AD JD", "TC",
     "pass pass pass take play.AS play.QS play.8S play.9S play.7S play.TS play.7H play.KS "
     "play.8D play.KD play.8H play.7D play.JS"),
    # Coinche, clubs trumps (110 by North): East follows South's lead of 9D with TD while it
    # holds KD and JD; West, still to play, can hold no diamond and may hold clubs.
    (Variant.COINCHE, 62, "TD KD JD QS JS 9S", "TD",
     "pass bid.90.H bid.100.S bid.110.C pass pass pass play.7H play.AH play.TH play.JH play.AD "
     "play.7D play.QD play.8D play.9D"),
    # Classic, hearts trumps taken by North: East led 9D, South ruffed with 9H; West, holding
    # KD, would give TD to South's trump, and North, still to play, may hold hearts but no
    # diamond.
    (Variant.CLASSIC, 5341, "TD KD QH KS", "TD",
     "take play.AC play.KC play.JC play.7C play.8C play.7H play.9C play.TC play.JD play.JH "
     "play.7D play.8D play.7S play.AS play.8S play.TS play.9D play.9H"),
]


def test_hard_does_not_give_a_ten_to_a_known_ruff() -> None:
    for variant, seed, cards, ten, actions in TENS:
        view = position(variant, seed, actions)
        assert hand(view) == cards
        assert ten in bad_cards(view)
        seat = view.viewer
        assert seat is not None
        assert play(level_player("hard_v1", seed * 4 + seat), view) == ten
        for s in range(2):
            assert play(HardPlayer(s), view) not in bad_cards(view)


def test_a_ruff_of_a_trick_not_yet_safe_is_searched() -> None:
    # Coinche, clubs trumps (100 by North): East, third to play and void in diamonds, holds AC
    # (the best trump left) as its only trump; West led TD, South discarded QH and North, still
    # to play, has shown no diamond: the partner's ten may be ruffed, so ruffing is no mistake
    # (discarding the ten of hearts would be one).
    view = position(Variant.COINCHE, 13,
                    "bid.100.C pass pass pass play.JC play.KC play.AH play.7C play.9C play.TC "
                    "play.AS play.8C play.AD play.8D play.KD play.9D play.7D play.QD play.8H "
                    "play.JD play.TD play.QH")
    assert hand(view) == "AC TH 9S 8S"
    assert bad_cards(view) == {"TH"}
    assert kept(view) == ["AC", "9S", "8S"]


def test_tens_when_every_legal_card_is_one_stay_searched() -> None:
    # Classic, spades trumps: West holds AD and TD, its last cards, on East's lead of 8H (West
    # has no heart), and South after it has shown no heart and may trump: each card is a ten or
    # an ace into a ruff, so neither is left out and the search chooses.
    view = position(Variant.CLASSIC, 404,
                    "pass take play.AC play.9C play.7C play.JC play.7D play.QS play.9D play.KD "
                    "play.AH play.QH play.QC play.7H play.TC play.8C play.QD play.KC play.TH "
                    "play.9S play.7S play.JH play.JD play.8D play.9H play.KS play.8H")
    assert hand(view) == "AD TD"
    assert bad_cards(view) == {"AD", "TD"}
    assert kept(view) == ["AD", "TD"]


def test_a_lone_ten_to_follow_with_is_played() -> None:
    # Coinche, hearts trumps (90 by East): West's only spade is the ten, on North's QS and
    # East's 7D (East has no spade and may hold hearts): the rules force it.
    view = position(Variant.COINCHE, 38,
                    "bid.80.D bid.90.H pass pass pass play.AC play.8C play.JC play.QC play.TC "
                    "play.9C play.AS play.KH play.AD play.JD play.KS play.KD play.TD play.QD "
                    "play.KC play.8H play.JS play.7S play.8S play.9S play.QS play.7D")
    assert hand(view) == "7C 9H TS"
    assert [card_str(c) for c in view.legal_cards] == ["TS"]
    assert kept(view) == ["TS"]
    assert play(HardPlayer(0), view) == "TS"
