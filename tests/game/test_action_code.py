"""The short notation of an action (game/record.py), as buttons carry it: written the same way
it is read, and a code that names no action of the variant is refused."""

from __future__ import annotations

import pytest

from game.actions import CoincheBid, ContractBid, Contre, Pass, Play, Take
from game.cards import Suit, parse_card
from game.record import action_code, action_from_code
from game.rules import Trump, Variant


@pytest.mark.parametrize(("variant", "code", "action"), [
    (Variant.CLASSIC, "pass", Pass()),
    (Variant.CLASSIC, "take", Take()),
    (Variant.CLASSIC, "take.S", Take(Suit.SPADES)),
    (Variant.COINCHE, "bid.90.H", CoincheBid(90, Suit.HEARTS)),
    (Variant.COINCHE, "contre", Contre()),
    (Variant.BULGARIAN, "bid.NT", ContractBid(Trump.NO_TRUMPS)),
    (Variant.BULGARIAN, "play.JH", Play(parse_card("JH"))),
])
def test_a_code_names_its_action_and_back(variant: Variant, code: str, action: object) -> None:
    assert action_from_code(variant, code) == action
    assert action_code(action_from_code(variant, code)) == code


@pytest.mark.parametrize(("variant", "code"), [
    (Variant.COINCHE, "bid.x.H"), (Variant.CLASSIC, "play.ZZ"),
    (Variant.CLASSIC, "fly"), (Variant.CLASSIC, "pass.now"), (Variant.CLASSIC, "bid.90.H"),
    (Variant.BULGARIAN, "take.S"), (Variant.CLASSIC, ""),
])
def test_a_code_that_names_no_action_of_the_variant_is_refused(variant: Variant,
                                                               code: str) -> None:
    with pytest.raises(ValueError):
        action_from_code(variant, code)
