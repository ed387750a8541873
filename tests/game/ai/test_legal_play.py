"""game.deal.legal_play, the position-based statement of the play rules the AI relies on."""

from __future__ import annotations

from game.cards import card_str, cards_of, parse_card, to_set
from game.contract import Contract
from game.deal import legal_play, play_tables, undertrump_rule
from game.rules import Options, Trump, Variant


def _legal(variant: Variant, trump: Trump, hand: str, trick: str,
           options: dict[str, bool] | None = None) -> set[str]:
    strength, _, above = play_tables(trump)
    cards = [parse_card(c) for c in trick.split()]
    win, win_i = cards[0], 0
    mask = Contract(0, trump).trump_cards
    suit_mask = mask if trump.is_suit else 0
    for i, c in enumerate(cards):
        if ((c ^ win) < 8 or suit_mask >> c & 1) and strength[c] > strength[win]:
            win, win_i = c, i
    legal, _ = legal_play(to_set(parse_card(c) for c in hand.split()), cards, win, win_i,
                          mask, suit_mask, above,
                          undertrump_rule(variant, Options.for_variant(variant, options)))
    return {card_str(c) for c in cards_of(legal)}


def test_cannot_overtrump_classic_must_undertrump_bulgarian_may_discard() -> None:
    # Hearts trump; the opponent (index 1 of a trick this seat plays third in) trumps with JH.
    hand, trick = "7H AD KD", "AS JH"
    assert _legal(Variant.CLASSIC, Trump.HEARTS, hand, trick) == {"7H"}
    assert _legal(Variant.BULGARIAN, Trump.HEARTS, hand, trick) == {"7H", "AD", "KD"}
    assert _legal(Variant.COINCHE, Trump.HEARTS, hand, trick) == {"7H", "AD", "KD"}
    assert _legal(Variant.COINCHE, Trump.HEARTS, hand, trick,
                  {"must_undertrump": True}) == {"7H"}


def test_all_trumps_raise_in_the_suit_led_and_no_trumps_only_follow() -> None:
    assert _legal(Variant.BULGARIAN, Trump.ALL_TRUMPS, "7S JS AD", "9S") == {"JS"}
    assert _legal(Variant.BULGARIAN, Trump.NO_TRUMPS, "7S AS AD", "TS") == {"7S", "AS"}
    assert _legal(Variant.BULGARIAN, Trump.NO_TRUMPS, "AD 7C", "TS") == {"AD", "7C"}
