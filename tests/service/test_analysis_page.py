"""The analysis page's lines (service/analysis_page.py) say card points as each language counts
them: one point, several points."""

from __future__ import annotations

import pytest

from i18n import words
from service.analysis_page import par_line

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
