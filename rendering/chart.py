"""A small line chart of one player's rating over their last rated matches (/belote stats)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from .layout import Layout
from .paint import draw_text
from .style import DEFAULT_STYLE, FELT_DARK, GOLD, PANEL, PANEL_LINE, TEXT, TEXT_DIM, Style

W: Final = 640
H: Final = 240
LEFT, RIGHT, TOP, BOTTOM = 72, 24, 52, 28
FLAT: Final = 20  # the least span of the scale


def rating_scale(values: Sequence[float]) -> tuple[float, float]:
    """The chart's bottom and top: the lowest and the highest rating, at least ``FLAT`` apart
    (a flat line sits in the middle, not on an edge). The web page's chart (web/pages.py)
    takes the same, so that it and this image tell the same."""
    low, high = min(values), max(values)
    if high - low < FLAT:
        low, high = (low + high) / 2 - FLAT / 2, (low + high) / 2 + FLAT / 2
    return low, high


def draw_rating_chart(values: Sequence[float], title: str,
                      style: Style = DEFAULT_STYLE) -> tuple[Image.Image, Layout]:
    """``values``: the shown rating before the first match, then after each (oldest first),
    its numbers written as ``style``'s language writes them."""
    img = Image.new("RGB", (W, H), FELT_DARK)
    d = ImageDraw.Draw(img)
    lay = Layout((W, H))
    lay.add("title", draw_text(d, (LEFT - 48, 26), title, 20, TEXT, bold=True, anchor="lm",
                               width=W - LEFT))
    box = (LEFT, TOP, W - RIGHT, H - BOTTOM)
    d.rounded_rectangle(box, 6, fill=PANEL, outline=PANEL_LINE)
    lay.add("plot", box)
    if len(values) < 2:
        return img, lay
    low, high = rating_scale(values)
    x0, y0, x1, y1 = box[0] + 8, box[1] + 8, box[2] - 8, box[3] - 8

    def at(i: int, v: float) -> tuple[float, float]:
        return (x0 + (x1 - x0) * i / (len(values) - 1), y1 - (y1 - y0) * (v - low) / (high - low))

    for v in (low, high):
        draw_text(d, (LEFT - 8, at(0, v)[1]), style.number(round(v)), 14, TEXT_DIM, anchor="rm")
    d.line([at(i, v) for i, v in enumerate(values)], fill=GOLD, width=3, joint="curve")
    lx, ly = at(len(values) - 1, values[-1])
    d.ellipse((lx - 5, ly - 5, lx + 5, ly + 5), fill=GOLD)
    lay.add("last", (int(lx - 5), int(ly - 5), int(lx + 5), int(ly + 5)))
    return img, lay
