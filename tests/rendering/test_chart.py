"""The rating chart of /belote stats: a line through every rating, the last one marked."""

from __future__ import annotations

from rendering import draw_rating_chart, render_rating_chart


def test_the_chart_ends_on_the_last_rating_and_keeps_inside_its_plot() -> None:
    img, lay = draw_rating_chart([1000.0, 1040.0, 1010.0, 1180.0], "Ana · Classic Belote")
    [plot], [last] = lay.boxes("plot"), lay.boxes("last")
    assert plot[0] <= last[0] and last[2] <= plot[2] + 1
    assert plot[1] <= last[1] and last[3] <= plot[3]
    # The highest rating is the last: its dot is at the top of the plot.
    assert last[1] - plot[1] < 20
    assert img.size == (640, 240)


def test_a_flat_or_empty_history_still_draws() -> None:
    _, flat = draw_rating_chart([1000.0, 1000.0], "Flat")
    assert flat.has("last")
    _, empty = draw_rating_chart([], "Nobody")
    assert not empty.has("last")
    data, ext = render_rating_chart([1000.0, 990.0, 1012.0], "Bo")
    assert data[:4] == b"\x89PNG" and ext == "png"


def test_the_ratings_are_written_as_the_readers_language_writes_numbers() -> None:
    # 1 180 in French (a narrow no-break space), 1,180 in English: different images.
    english = render_rating_chart([1000.0, 1180.0], "Ana", "en")
    french = render_rating_chart([1000.0, 1180.0], "Ana", "fr")
    assert english != french
    assert render_rating_chart([10.0, 18.0], "Ana", "en") == \
        render_rating_chart([10.0, 18.0], "Ana", "fr")
