"""Every refusal the rules core raises has its message in rules.po, with the same parameters,
and reads as the player's sentence (cards, suits and bids worded by the catalogue)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from game.actions import CoincheBid
from game.cards import Suit, parse_card
from game.errors import Cards, GameOver, IllegalAction, NotYourTurn
from game.rules import Trump
from i18n import bid_text, card_text, parameters, rule_reason, rule_text, texts
from tests.game.helpers import SPLIT, Game

GAME = Path(__file__).resolve().parents[2] / "game"


def _codes(node: ast.expr) -> list[str]:
    """The code(s) an IllegalAction call names: a string, or either branch of an if."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _codes(node.body) + _codes(node.orelse)
    raise AssertionError(f"a rule code must be written out: {ast.unparse(node)}")


def raised_codes() -> dict[str, set[frozenset[str]]]:
    """Every code raised in game/, with the parameter names of each raise."""
    found: dict[str, set[frozenset[str]]] = {}
    for path in sorted(GAME.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "IllegalAction" and node.args:
                names = frozenset(k.arg for k in node.keywords if k.arg)
                for code in _codes(node.args[0]):
                    found.setdefault(code, set()).add(names)
    return found


def test_every_code_raised_in_game_has_its_message_with_its_parameters() -> None:
    codes = raised_codes()
    assert len(codes) > 40  # the scan sees the raise sites
    codes.setdefault(NotYourTurn().code, set()).add(frozenset())
    codes.setdefault(GameOver().code, set()).add(frozenset())
    english = texts("en")
    for code, uses in codes.items():
        message = english.get(f"rule.{code}")
        assert isinstance(message, str), f"rule.{code} is missing from rules.po"
        for names in uses:
            assert parameters(message) == names, (code, sorted(names))


def test_every_rule_message_is_raised_somewhere() -> None:
    raised = set(raised_codes()) | {NotYourTurn().code, GameOver().code}
    written = {key.removeprefix("rule.") for key in texts("en") if key.startswith("rule.")}
    assert written - raised == set(), "messages no refusal uses"


def _refusal(step: Game, *actions: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        step.do(*actions)
    return info.value


def test_an_illegal_card_is_worded_from_its_code_and_cards() -> None:
    pos = ["TH AC KC QC JC 9C 8C 7C", "9H 8H AD TD KD QD JD 9D",
           "KH QH 8D 7D AS TS KS QS", "JH 7H AH TC JS 9S 8S 7S"]
    g = Game("classic", dealer=3).new_deal(pos, turned="TH", taker=0).do("take", "TH")
    err = _refusal(g, "8H")
    assert err.code == "must_raise_trump" and err.params["cards"] == Cards((parse_card("9H"),))
    assert rule_text(err) == "You must play a higher trump: play 9H."
    assert rule_reason(err) == "you must play a higher trump: play 9H"
    assert str(err) == rule_reason(err)  # logs read the English reason


def test_a_bid_is_passed_as_a_bid_and_worded_by_the_catalogue() -> None:
    g = Game("coinche", dealer=3).new_deal(SPLIT).do("bid 80 H")
    info_value = _refusal(g, "bid 80 S")
    assert info_value.code == "bid_higher"
    assert info_value.params == {"bid": CoincheBid(80, Suit.HEARTS)}
    assert rule_text(info_value) == "Your bid must be higher than 80 hearts."
    assert bid_text(CoincheBid(250, Suit.SPADES)) == "capot spades"


def test_card_lists_read_as_the_language_joins_them() -> None:
    jh, qh, kh = (parse_card(c) for c in ("JH", "QH", "KH"))
    assert card_text(jh) == "JH"
    either = IllegalAction("must_overtrump", cards=Cards((jh, qh, kh)))
    assert rule_text(either) == "You must over-trump: play JH or QH or KH."
    listed = IllegalAction("announce_not_held", cards=Cards((jh, qh), "list"))
    assert rule_text(listed) == "You cannot announce cards you do not hold (JH, QH)."
    run = IllegalAction("not_an_announcement", cards=Cards((jh, qh, kh), "run"))
    assert rule_reason(run).endswith(": JH QH KH is neither")
    suit = IllegalAction("must_trump_suit", suit=Suit.CLUBS, trump=Suit.HEARTS)
    assert rule_text(suit) == "You have no clubs, so you must trump: play a hearts."
    contract = IllegalAction("contract_higher", trump=Trump.NO_TRUMPS)
    assert rule_text(contract) == "Your contract must be higher than no trumps."


def test_a_refusal_without_the_catalogue_shows_its_code_and_cards() -> None:
    from game import errors

    err = IllegalAction("card_not_held", card=Cards((parse_card("TC"),)))
    saved = errors._wording
    try:
        errors._wording = None
        assert str(err) == "card_not_held (card=TC)"
    finally:
        errors._wording = saved
    assert str(err) == "you do not hold TC"
    assert rule_text(IllegalAction("cannot_play_card"), "xx") == "You cannot play that card now."
