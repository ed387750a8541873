"""game.choices: the announcements a seat may choose, their codes, and which cards call belote
or are a seat's first (the bot offers and words these; the rules say which exist)."""

from __future__ import annotations

import pytest

from game.choices import (
    announce_choices,
    check_choice,
    choice_code,
    declare_from_code,
    first_card,
    holds_belote,
    may_announce,
    may_call_belote,
)
from game.view import table_view

from .helpers import Game, parse

# Hearts trump: seat 3 takes the turned AH (dealer 3, seat 0 leads). Seat 0 holds a run of
# eight clubs, seat 2 king and queen of trumps, seat 3 two tierces (hearts and spades).
HANDS = ["AC KC QC JC TC 9C 8C 7C", "8H 7H AD TD KD QD JD 9D",
         "KH QH 8D 7D AS TS KS QS", "9H AH TH JH JS 9S 8S 7S"]


def hearts(**options: object) -> Game:
    g = Game("classic", dict(options), dealer=3).new_deal(HANDS, turned="AH", taker=3)
    return g.do("pass", "pass", "pass", "take")


def test_a_king_or_queen_of_trumps_may_call_belote() -> None:
    bidding = Game("classic", {}, dealer=3).new_deal(HANDS, turned="AH", taker=3)
    assert not may_call_belote(bidding.deal, parse("KH"))  # no trump yet
    deal = hearts().deal
    assert may_call_belote(deal, parse("KH")) and may_call_belote(deal, parse("QH"))
    assert not may_call_belote(deal, parse("KS"))  # not a trump
    assert not may_call_belote(deal, parse("JH"))  # a trump, but not king or queen
    assert not may_call_belote(None, parse("KH"))


def test_first_card_until_the_seat_plays() -> None:
    g = hearts()
    assert first_card(g.deal, 0) and first_card(g.deal, 1)
    g.do("AC")
    assert not first_card(g.deal, 0) and first_card(g.deal, 1)
    assert not first_card(None, 0)


def test_holds_belote_only_with_king_and_queen_of_trumps() -> None:
    g = hearts()
    assert holds_belote(table_view(g.match, 2))
    assert not holds_belote(table_view(g.match, 3))  # the jack and ace, no king or queen
    assert not holds_belote(table_view(g.match))  # the public view holds nothing


def test_choices_best_first_then_each_whole_run_then_nothing() -> None:
    g = hearts()
    view = table_view(g.match, 3)
    assert may_announce(view)
    choices = announce_choices(view)
    assert choices[0].code == "best" and choices[-1].code == "none"
    assert sum(a.points for a in choices[0].announcements) == 40  # both tierces
    assert sorted(c.code for c in choices[1:-1]) == ["7S.8S.9S", "9H.TH.JH"]
    for c in choices:  # every choice offered is one the rules accept
        check_choice(g.deal, 3, declare_from_code(c.code))


def test_no_choices_without_announcements_or_after_the_first_card() -> None:
    assert announce_choices(table_view(hearts(announcements=False).match, 3)) == []
    bidding = Game("classic", {}, dealer=3).new_deal(HANDS, turned="AH", taker=3)
    assert not may_announce(table_view(bidding.match, 3))
    g = hearts().do("AC", "8H", "KH", "9H")  # seat 3 played its first card
    assert announce_choices(table_view(g.match, 3)) == []
    assert announce_choices(table_view(g.match, 2)) == []  # nothing to announce


def test_codes_round_trip() -> None:
    assert declare_from_code("best") is None and choice_code(None) == "best"
    assert declare_from_code("none") == () and choice_code(()) == "none"
    declare = declare_from_code("JC.JD.JH.JS-7H.8H.9H")
    assert declare == ((parse("JC"), parse("JD"), parse("JH"), parse("JS")),
                       (parse("7H"), parse("8H"), parse("9H")))
    assert choice_code(declare) == "JC.JD.JH.JS-7H.8H.9H"
    with pytest.raises(ValueError):
        declare_from_code("XX.YY")
