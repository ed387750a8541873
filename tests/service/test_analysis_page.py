"""The analysis page's lines (service/analysis_page.py) say card points as each language counts
them: one point, several points; what the deal sheet's analysis strip is given of a deal."""

from __future__ import annotations

import pytest

from game.cards import parse_card
from game.contract import Contract
from game.rules import Trump
from i18n import words
from rendering import CostlyCard, SeatAnalysis
from service.analysis_page import par_line, sheet_analysis

NAMES = ("ana", "bo", "cy", "dee")


def _par(points: int) -> dict[str, object]:
    return {"contract": {"seat": 0, "suit": "H", "value": None}, "score": 16, "points": points}


@pytest.mark.parametrize(("language", "one", "many"), [
    ("en", "(1 card point)", "(2 card points)"),
    ("fr", "(1 point de cartes)", "(2 points de cartes)"),
    ("bg", "(1 точка от карти)", "(2 точки от карти)"),
])
def test_card_points_are_counted_in_the_language(language: str, one: str, many: str) -> None:
    w = words(language)
    assert one in par_line(_par(1), NAMES, w)
    assert many in par_line(_par(2), NAMES, w)


def _card(action: int, seat: int, played: str, *options: tuple[str, int, int]
          ) -> dict[str, object]:
    return {"action": action, "seat": seat, "played": played,
            "options": [{"card": c, "points": 0, "score": 0, "cost": cost, "cost_points": cp}
                        for c, cost, cp in options]}


def test_the_sheet_strip_gives_each_seat_its_accuracy_and_costliest_chosen_card() -> None:
    """What the deal sheet is given (rendering/sheet.py draws it, computes nothing): per seat
    the share of its chosen cards that cost nothing and the costliest one (its best card and
    its cost in score); a forced card, a timer's and a claim's are no choice of the player."""
    deal = {"deal": 0, "par": {"contract": {"seat": 1, "suit": "S", "value": 110,
                                            "multiplier": 2}, "score": 172, "points": 120},
            "decisions": [
                {"action": 0, "seat": 0, "played": "pass",
                 "options": [{"bid": "pass", "score": 0, "cost": 30},
                             {"bid": "pass", "score": 30, "cost": 0}]},
                _card(1, 0, "8H", ("8H", 20, 10), ("AH", 0, 0), ("7H", 0, 4)),
                _card(2, 0, "KH", ("KH", 0, 0), ("9H", 5, 2)),
                _card(3, 0, "QH", ("QH", 20, 12), ("JH", 0, 0)),  # as costly, more points
                _card(4, 1, "7S", ("7S", 0, 0), ("8S", 0, 0)),
                _card(5, 1, "JS", ("JS", 50, 0)),  # forced: no choice
                _card(6, 2, "9C", ("9C", 90, 30), ("AC", 0, 0)),  # a timeout's card
                _card(7, 3, "TD", ("TD", 7, 3), ("AD", 0, 0)),  # a computer's: counted
                _card(8, 3, "7D", ("7D", 0, 0), ("8D", 2, 1)),
            ]}
    actions: list[dict[str, object]] = [{} for _ in range(9)]
    actions[6] = {"by": "timeout"}
    actions[7] = {"by": "computer"}
    strip = sheet_analysis(deal, actions)
    assert strip.par == Contract(1, Trump.SPADES, 110, 2) and strip.par_score == 172
    assert strip.seats[0] == SeatAnalysis(33, CostlyCard(parse_card("QH"), parse_card("JH"), 20))
    assert strip.seats[1] == SeatAnalysis(100, None)
    assert strip.seats[2] == SeatAnalysis(None, None)
    assert strip.seats[3] == SeatAnalysis(50, CostlyCard(parse_card("TD"), parse_card("AD"), 7))
    passed = sheet_analysis({**deal, "par": {"contract": None, "score": 0, "points": 0}},
                            actions)
    assert passed.par is None and passed.par_score == 0
