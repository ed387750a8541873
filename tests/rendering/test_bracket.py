"""The tournament bracket: a box for every table of every round (rounds to come drawn empty),
the winning pair marked, long names cut inside their box, every language's words."""

from __future__ import annotations

import pytest

from rendering import BracketRound, BracketTable, Style, draw_bracket, render_bracket

FIRST = BracketRound(1, (BracketTable((("ana", "cy"), ("bo", "dee")), winner=1),
                         BracketTable((("eve", "gus"), ("fay", "hal")))))


def test_every_table_of_every_round_has_its_box_and_the_winner_is_marked() -> None:
    _img, lay = draw_bracket([FIRST], "Quick tournament #1", [2, 1])
    for box in ("table:1:0", "table:1:1", "table:2:0", "round:1", "round:2"):
        assert lay.has(box), box
    assert lay.has("winner:1:0") and not lay.has("winner:1:1")  # the second still plays
    assert lay.has("waiting:2:0") and not lay.has("pair:2:0:0")  # the final not drawn yet
    [table] = lay.boxes("table:1:0")
    for team in (0, 1):
        [pair] = lay.boxes(f"pair:1:0:{team}")
        assert table[0] <= pair[0] and pair[2] <= table[2]


@pytest.mark.parametrize("language", ["en", "fr", "bg"])
def test_long_names_stay_inside_their_box_in_every_language(language: str) -> None:
    long = "Maximilian-Alexander von Habsburg-Lothringen"
    rnd = BracketRound(1, (BracketTable(((long, long), (long, "x")), winner=0),))
    _, lay = draw_bracket([rnd], "Tournoi classique n° 12 · Belote bulgare", [1],
                          Style(language=language))
    [table] = lay.boxes("table:1:0")
    for team in (0, 1):
        [pair] = lay.boxes(f"pair:1:0:{team}")
        assert table[0] <= pair[0] and pair[2] <= table[2], (language, pair, table)
    [title] = lay.boxes("title")
    assert title[2] <= lay.size[0]


def test_the_words_are_the_readers_language() -> None:
    english = render_bracket([FIRST], "#1", [2, 1], language="en")
    bulgarian = render_bracket([FIRST], "#1", [2, 1], language="bg")
    assert english[0][:4] == b"\x89PNG" and english != bulgarian
