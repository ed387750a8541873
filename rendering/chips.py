"""Where a seat's chips (its announcements, belote and rebelote) go on the table image.

A pure layout: the table renderer draws what it returns, and tests check it for every seat,
viewer and the longest labels. Each position has a region of its own, clear of the panels,
the name plates, the cards and the middle of the table (where the end-of-deal and
end-of-match boxes are drawn). Chips flow in rows inside it; a chip too wide for its region
puts its cards on a second line, and when that is not enough either the text gets smaller.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .paint import Run, runs_width

Box = tuple[int, int, int, int]

# Per position (0 bottom, 1 right, 2 top, 3 left). Bottom: right of the plate and the cards,
# above nothing (the viewer's own hand reaches x 577: BOTTOM_BESIDE_HAND then). Sides: under
# the seat's cards, above the last trick, outside the middle (x 230-570). Top: under the top
# seat's cards and the two top panels, above the trick.
REGIONS: Final[tuple[Box, Box, Box, Box]] = (
    (512, 452, 786, 588), (574, 336, 788, 446), (16, 116, 784, 170), (12, 336, 226, 446))
BOTTOM_BESIDE_HAND: Final = 584
SIZES: Final = (15, 14, 13, 12, 11, 10)
PAD: Final = 8  # text to the chip's edge, left and right
GAP: Final = 4  # between chips, both ways


@dataclass(frozen=True, slots=True)
class ChipText:
    """What one chip says: its words (name and points) and the cards it shows, if any."""

    name: str  # its name in the image's layout
    words: tuple[Run, ...]
    cards: tuple[Run, ...] = ()
    scored: bool | None = None


@dataclass(frozen=True, slots=True)
class Chip:
    name: str
    box: Box
    size: int  # of its text
    lines: tuple[tuple[Run, ...], ...]  # one or two lines of runs
    scored: bool | None


def region(pos: int, *, own_hand: bool) -> Box:
    x0, y0, x1, y1 = REGIONS[pos]
    if pos == 0 and own_hand:
        x0 = BOTTOM_BESIDE_HAND
    return (x0, y0, x1, y1)


def line_height(size: int) -> int:
    return size + 4


def _lines(chip: ChipText, size: int, width: int, cards: bool) -> tuple[tuple[Run, ...], ...]:
    if not chip.cards or not cards:
        return (chip.words,)
    one = (*chip.words, ("  ", chip.words[-1][1]), *chip.cards)
    if runs_width(one, size) + 2 * PAD <= width:
        return (one,)
    return (chip.words, chip.cards)


def _rows(sized: list[tuple[int, int]], width: int) -> list[list[int]]:
    """Chip indexes in rows: as many side by side as fit in ``width``."""
    rows: list[list[int]] = []
    used = width + 1
    for i, (w, _) in enumerate(sized):
        if rows and used + GAP + w <= width:
            rows[-1].append(i)
            used += GAP + w
        else:
            rows.append([i])
            used = w
    return rows


def place(pos: int, chips: Sequence[ChipText], *, own_hand: bool = False) -> list[Chip]:
    """The chips of the seat at ``pos``, in its region: the largest text that fits, cards on a
    second line when a chip is too wide, and without their cards as a last resort."""
    if not chips:
        return []
    x0, y0, x1, y1 = region(pos, own_hand=own_hand)
    width, height = x1 - x0, y1 - y0
    tries = [(size, True) for size in SIZES] + [(SIZES[-1], False)]
    for n, (size, with_cards) in enumerate(tries):
        lines = [_lines(c, size, width, with_cards) for c in chips]
        sized = [(max(runs_width(line, size) for line in ls) + 2 * PAD,
                  len(ls) * line_height(size) + 7) for ls in lines]
        rows = _rows(sized, width)
        row_h = [max(sized[i][1] for i in row) for row in rows]
        total = sum(row_h) + GAP * (len(rows) - 1)
        fits = total <= height and all(w <= width for w, _ in sized)
        if fits or n == len(tries) - 1:
            break
    out: list[Chip] = []
    y = y1 - total if pos == 0 else y0  # the bottom seat's chips sit on the image's edge
    for row, h in zip(rows, row_h, strict=True):
        row_w = sum(sized[i][0] for i in row) + GAP * (len(row) - 1)
        x = {0: x0, 1: x1 - row_w, 2: x0 + (width - row_w) // 2, 3: x0}[pos]
        for i in row:
            w, ch = sized[i]
            top = y + (h - ch) // 2
            out.append(Chip(chips[i].name, (x, top, x + w, top + ch), size, lines[i],
                            chips[i].scored))
            x += w + GAP
        y += h + GAP
    return out
