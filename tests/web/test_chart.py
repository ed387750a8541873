"""The player page's rating chart (web/pages.py): its scale is the one the image of /belote stats
draws (rendering/chart.py's rating_scale), written as the page's language writes numbers; a
name in its caption is text."""

from __future__ import annotations

import re

from i18n import words
from rendering.chart import rating_scale
from web.pages import chart


def scale_of(html: str) -> tuple[str, str]:
    top = re.search(r'<span class="top">([^<]*)</span>', html)
    low = re.search(r'<span class="low">([^<]*)</span>', html)
    assert top is not None and low is not None
    return low.group(1), top.group(1)


def test_the_scale_is_the_images_in_the_pages_language() -> None:
    values = [1000.0, 1040.0, 1010.0, 1180.0]
    assert rating_scale(values) == (1000.0, 1180.0)
    fr = words("fr")
    html = chart(values, "Ana : cote", fr)
    assert scale_of(html) == (fr.number(1000), fr.number(1180))
    assert fr.number(1180) != "1,180"  # 1 180, as French writes it
    assert scale_of(chart(values, "Ana", words("en"))) == ("1,000", "1,180")
    # Read aloud, the plot says its scale too.
    assert f'aria-label="Ana : cote (de {fr.number(1000)} à {fr.number(1180)})"' in html


def test_a_flat_line_sits_in_the_middle_of_a_scale_of_twenty() -> None:
    values = [1000.0, 1000.0, 1004.0]
    assert rating_scale(values) == (992.0, 1012.0)
    html = chart(values, "Bo", words("en"))
    assert scale_of(html) == ("992", "1,012")
    # The line's points are inside the plot, away from its top and bottom.
    points = re.search(r'<polyline points="([^"]*)"', html)
    assert points is not None
    ys = [float(p.split(",")[1]) for p in points.group(1).split()]
    assert all(10 < y < 190 for y in ys)


def test_no_chart_before_two_ratings_and_the_caption_is_text() -> None:
    assert chart([1000.0], "Cy", words("en")) == ""
    html = chart([1000.0, 990.0], "<script>x</script>: rating", words("bg"))
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
