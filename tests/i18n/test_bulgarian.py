"""The Bulgarian catalogue reads as Bulgarian belot players write: the J Q K A letters and the
suit symbols on cards, коз/цакане in the rules' refusals, the plural forms, Babel's numbers."""

from __future__ import annotations

import re

from game.actions import ContractBid
from game.cards import Suit, parse_card
from game.errors import Cards, IllegalAction
from game.rules import Trump
from i18n import bid_text, card_text, rule_text, texts, words


def test_cards_are_written_with_the_letters_and_suit_symbols_of_bulgarian_decks() -> None:
    assert card_text(parse_card("QS"), "bg") == "Q♠"
    assert card_text(parse_card("TH"), "bg") == "10♥"
    assert words("bg")("cards.rank.jack") == "J"
    assert words("bg")("cards.trump.no_trumps") == "без коз"
    assert words("bg")("cards.trump.all_trumps") == "всичко коз"
    assert bid_text(ContractBid(Trump.ALL_TRUMPS), "bg") == "всичко коз"


def test_a_rule_refusal_reads_as_a_bulgarian_sentence() -> None:
    jh, qh = parse_card("JH"), parse_card("QH")
    overtrump = IllegalAction("must_overtrump", cards=Cards((jh, qh)))
    assert rule_text(overtrump, "bg") == "Трябва да надцакаш: играй J♥ или Q♥."
    follow = IllegalAction("must_follow_suit", suit=Suit.DIAMONDS)
    assert rule_text(follow, "bg") == "Трябва да отговориш на боята: играй каро."
    trump = IllegalAction("must_trump_suit", suit=Suit.CLUBS, trump=Suit.HEARTS)
    assert rule_text(trump, "bg") == "Нямаш спатия, затова трябва да цакаш: играй купа."


def test_plural_forms_for_one_and_two() -> None:
    bg = words("bg")
    assert bg.plural("admin.show.minutes", 1) == "1 минута"
    assert bg.plural("admin.show.minutes", 2) == "2 минути"
    assert bg.plural("admin.tables.title", 1) == "**1 отворена маса**"
    assert bg.plural("admin.tables.title", 2) == "**2 отворени маси**"
    assert bg.plural("image.podium.won", 1, matches="3") == "1 спечелена от 3"
    assert bg.plural("image.podium.won", 2, matches="3") == "2 спечелени от 3"


def test_numbers_are_grouped_as_babel_writes_bulgarian() -> None:
    assert words("bg").number(12345) == "12\N{NO-BREAK SPACE}345"


def _has_words(text: str | tuple[str, ...]) -> bool:
    """Two Latin letters in a row outside the ``{parameters}``: English a translator words
    (``{rank}{suit}``, ``#{table}``, ``J`` and ``10`` are not)."""
    forms = (text,) if isinstance(text, str) else text
    return any(re.search(r"[A-Za-z]{2}", re.sub(r"\{[^}]*\}", "", form)) for form in forms)


def test_no_bulgarian_message_is_left_in_english() -> None:
    english, bulgarian = texts("en"), texts("bg")
    untranslated = sorted(key for key, text in english.items()
                          if bulgarian[key] == text and _has_words(text))
    assert untranslated == []
