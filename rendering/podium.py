"""A season's podium: for each variant played, its three first players on steps (second,
first, third), each with their name and record (rating gained, wins and matches); a pairs'
section names both partners, one above the other (side by side, a step cuts them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from .layout import Layout
from .paint import draw_text
from .style import DEFAULT_STYLE, FELT_DARK, GOLD, INK, PANEL, PANEL_LINE, TEXT, TEXT_DIM, Style

W: Final = 800
SECTION: Final = 300  # one variant's height
STEP_W: Final = 200
# Places from left to right, and each step's height.
ORDER: Final = (2, 1, 3)
HEIGHT: Final = {1: 120, 2: 86, 3: 60}
MEDAL: Final = {1: GOLD, 2: (200, 205, 212), 3: (205, 127, 50)}


@dataclass(frozen=True, slots=True)
class PodiumPlace:
    place: int  # 1, 2 or 3
    name: str
    gain: float  # rating gained in the season
    wins: int
    matches: int
    # A pair's second line (its partner's name): ``name`` is then the first partner's with
    # the joining word, as the caller's language writes it ("ana &", "ana et").
    partner: str | None = None


@dataclass(frozen=True, slots=True)
class PodiumVariant:
    title: str  # the variant's name, in the image's language
    places: tuple[PodiumPlace, ...]  # one to three


def draw_podium(variants: Sequence[PodiumVariant], title: str,
                style: Style = DEFAULT_STYLE) -> tuple[Image.Image, Layout]:
    lab = style.labels
    height = 80 + max(1, len(variants)) * SECTION
    img = Image.new("RGB", (W, height), FELT_DARK)
    d = ImageDraw.Draw(img)
    lay = Layout((W, height))
    lay.add("title", draw_text(d, (W // 2, 40), title, 28, TEXT, bold=True, anchor="mm",
                               width=W - 64))
    if not variants:
        lay.add("empty", draw_text(d, (W // 2, 80 + SECTION // 2), lab("podium.empty"), 22,
                                   TEXT, anchor="mm", width=W - 64))
    for i, v in enumerate(variants):
        top = 80 + i * SECTION
        d.rounded_rectangle((20, top + 4, W - 20, top + SECTION - 8), 14, fill=PANEL,
                            outline=PANEL_LINE, width=2)
        lay.add(f"variant:{i}", draw_text(d, (W // 2, top + 30), v.title, 22, TEXT_DIM,
                                          bold=True, anchor="mm", width=W - 80))
        base = top + SECTION - 24
        by_place = {p.place: p for p in v.places}
        for column, place in enumerate(ORDER):
            cx = W // 2 + (column - 1) * (STEP_W + 20)
            step_top = base - HEIGHT[place]
            d.rectangle((cx - STEP_W // 2, step_top, cx + STEP_W // 2, base), fill=MEDAL[place])
            draw_text(d, (cx, step_top + 30), style.number(place), 34, INK, bold=True,
                      anchor="mm")
            p = by_place.get(place)
            if p is None:
                draw_text(d, (cx, step_top - 30), "—", 20, TEXT_DIM, anchor="mm")
                continue
            lay.add(f"place:{i}:{place}", draw_text(
                d, (cx, step_top - (94 if p.partner is not None else 70)), p.name, 20, TEXT,
                bold=True, anchor="mm", width=STEP_W))
            if p.partner is not None:
                lay.add(f"partner:{i}:{place}", draw_text(
                    d, (cx, step_top - 70), p.partner, 20, TEXT, bold=True, anchor="mm",
                    width=STEP_W))
            lay.add(f"gain:{i}:{place}", draw_text(
                d, (cx, step_top - 44), lab("podium.gain", gain=words_signed(style, p.gain)),
                16, TEXT, anchor="mm", width=STEP_W + 16))  # the gap between steps too
            draw_text(d, (cx, step_top - 20), lab.plural("podium.won", p.wins,
                                                         matches=style.number(p.matches)),
                      16, TEXT_DIM, anchor="mm", width=STEP_W)
    return img, lay


def words_signed(style: Style, value: float) -> str:
    """A rating gained, signed (+52, −8), as the style's language writes numbers."""
    number = style.number(abs(round(value)))
    return ("+" if round(value) >= 0 else "\u2212") + number
