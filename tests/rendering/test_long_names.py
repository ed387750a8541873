"""A name of any length is cut by bisection (issue 48): a table with a player called by 8,000
characters draws in the usual time, because fitting the name measures log2(n) widths, not one
per character cut."""

from __future__ import annotations

import math

import pytest

from game.match import Match
from game.view import table_view
from rendering import draw_table, paint
from rendering.fonts import font


def test_a_very_long_name_is_cut_with_a_handful_of_measurements(
        monkeypatch: pytest.MonkeyPatch) -> None:
    long = "Żaneta-" + "w" * 8000
    measured: list[str] = []
    real = paint.length

    def counting(text: str, f: object) -> float:
        measured.append(text)
        return real(text, f)

    monkeypatch.setattr(paint, "length", counting)
    m = Match("classic", players=(long, "Bo", "Cy", "Dee"))
    img, _ = draw_table(table_view(m, 0))
    assert img.size == (draw_table(table_view(Match("classic"), 0))[0].size)
    mine = [t for t in measured if t.startswith("Żaneta-")]
    # Each place the name is fitted measures it whole once (perhaps with words around it), then
    # bisects its 8,007 characters (13 starts with an ellipsis); cutting a character at a time
    # measured some 8,000 starts per place.
    fitted = sum(not t.endswith("…") for t in mine)
    assert 0 < fitted <= 8
    assert len(mine) <= fitted * (1 + math.ceil(math.log2(len(long))))


@pytest.mark.parametrize("width", [0, 5, 40, 120, 400])
def test_the_cut_is_the_longest_start_that_fits(width: int) -> None:
    f = font(20)
    text = "Żaneta the " + "quite " * 50 + "long"
    cut = paint.fit(text, f, width)
    assert (cut.endswith("…") and paint.length(cut, f) <= width) or cut == "…"
    start = cut[:-1]
    assert text.startswith(start)
    # One more character (and its ellipsis) would not fit: the same cut as a character at a time.
    longer = text[:len(start) + 1].rstrip()
    if len(longer) > len(start):
        assert paint.length(text[:len(start) + 1] + "…", f) > width or \
            text[len(start)] == " "
