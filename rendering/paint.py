"""Small drawing helpers shared by every image: text that fits, centred text, coloured runs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .fonts import font
from .style import RGB

Box = tuple[int, int, int, int]
Run = tuple[str, RGB]  # a piece of text and its colour


@lru_cache(maxsize=8192)
def length(text: str, f: ImageFont.FreeTypeFont) -> float:
    """``f.getlength(text)``, remembered: every image measures the same names and labels
    again, several times each when fitting them (fonts are kept per thread, so a font is
    always measured on its own thread)."""
    return f.getlength(text)


# Drawing text is mostly FreeType laying out and rasterising the glyphs, and every image of a
# table draws the same names, labels and scores again: the masks are kept (small, "L" images,
# keyed by the font object, which is its thread's own) and stamped exactly as Pillow's
# ImageDraw.text stamps the mask it makes (same start, offset and ink), so the pixels match.
@lru_cache(maxsize=4096)
def _stamp(text: str, f: ImageFont.FreeTypeFont, anchor: str,
           start: tuple[float, float]) -> tuple[Image.Image, tuple[int, int]]:
    mask, offset = f.getmask2(text, "L", anchor=anchor, start=start)
    return Image.Image()._new(mask), offset


@lru_cache(maxsize=4096)
def _extent(text: str, f: ImageFont.FreeTypeFont, anchor: str) -> tuple[float, ...]:
    return f.getbbox(text, anchor=anchor)


def put_text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str,
             f: ImageFont.FreeTypeFont, fill: RGB, anchor: str = "la") -> None:
    """``d.text(xy, text, font=f, fill=fill, anchor=anchor)`` for one line, its mask kept."""
    x, y = xy
    mask, (dx, dy) = _stamp(text, f, anchor, (math.modf(x)[0], math.modf(y)[0]))
    d.bitmap((int(x) + dx, int(y) + dy), mask, fill=fill)


def text_box(xy: tuple[float, float], text: str, f: ImageFont.FreeTypeFont,
             anchor: str = "la") -> Box:
    """``d.textbbox`` of one line, as whole pixels."""
    x0, y0, x1, y1 = _extent(text, f, anchor)
    x, y = xy
    return (int(x0 + x), int(y0 + y), int(x1 + x), int(y1 + y))


def text_width(text: str, f: ImageFont.FreeTypeFont) -> int:
    return int(length(text, f) + 0.5)


def fit(text: str, f: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    if length(text, f) <= width:
        return text
    # The longest start that fits with the ellipsis, by bisection: a start's width grows with
    # it, so this measures log2(len(text)) starts. (Cutting a character at a time measured one
    # per character: a name of 2,000 characters took 6 s to draw, 8,000 took 91.)
    fits, too_wide = 0, len(text)  # text[:fits] + "…" fits or is empty; text[:too_wide] + "…" not
    while too_wide - fits > 1:
        mid = (fits + too_wide) // 2
        if length(text[:mid] + "…", f) <= width:
            fits = mid
        else:
            too_wide = mid
    return text[:fits].rstrip() + "…"


def is_cut(text: str, size: int, width: int, *, bold: bool = False) -> bool:
    """Whether ``draw_text`` cuts ``text`` to ``width`` (the layout says so: names that do
    not fit are a bug tests look for)."""
    return fit(text, font(size, bold), width) != text


def draw_text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              fill: RGB, *, bold: bool = False, anchor: str = "la",
              width: int | None = None) -> Box:
    """Draw ``text`` (cut to ``width`` if given) and return the box it covers."""
    f = font(size, bold)
    if width is not None:
        text = fit(text, f, width)
    put_text(d, xy, text, f, fill, anchor)
    return text_box(xy, text, f, anchor)


# DejaVu's suit glyphs are smaller than its capitals: a pip alone in a run is drawn larger.
PIP_CHARS = frozenset("\u2663\u2666\u2665\u2660")
PIP_SCALE = 1.3


def _run_font(text: str, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    if text in PIP_CHARS:
        return font(round(size * PIP_SCALE), bold)
    return font(size, bold)


def runs_width(runs: Sequence[Run], size: int, bold: bool = False) -> int:
    return int(sum(length(t, _run_font(t, size, bold)) for t, _ in runs) + 0.5)


def draw_runs(d: ImageDraw.ImageDraw, xy: tuple[float, float], runs: Sequence[Run], size: int,
              *, bold: bool = False, anchor: str = "lm") -> Box:
    """Coloured pieces of text on one line (a suit pip among words). ``anchor`` is 'lm' or 'mm'
    (left or centre of the line, vertically centred)."""
    total = runs_width(runs, size, bold)
    x, y = xy
    if anchor[0] == "m":
        x -= total / 2
    x0 = x
    for text, colour in runs:
        f = _run_font(text, size, bold)
        put_text(d, (x, y), text, f, colour, "lm")
        x += length(text, f)
    return (int(x0), int(y - size * 0.6), int(x + 0.5), int(y + size * 0.6))
