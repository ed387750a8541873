"""The places on the images where a label of the catalogue is drawn, and how it is made to fit.

A label is never cut: in a language with longer words it is drawn smaller, down to the slot's
smallest size, and where the slot allows it, on two lines. Each slot also lists every text the
catalogue may put in it (with its longest parameters), so that tests/rendering/test_fit.py
measures, for every language, that each of them fits its box with the shipped font. Player
names are not labels: a name too long for its place is cut with an ellipsis (the layout says
so), the words around it are not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Final

from PIL import ImageDraw

from i18n import Scoped

from .fonts import font
from .paint import Box, length, put_text, text_box
from .style import RGB

LONGEST_DEAL: Final = 88  # a deal number of two digits (the widest: 8 is DejaVu's widest digit)
LONGEST_POINTS: Final = 888
LONGEST_TARGET: Final = 8888
VARIANTS: Final = ("classic", "coinche", "bulgarian")
OUTCOMES: Final = ("made", "failed", "litige", "hanging", "passed")


@dataclass(frozen=True, slots=True)
class Slot:
    """A box ``width`` pixels wide for one label: drawn at ``size``, smaller down to
    ``smallest`` if it must, and on up to ``lines`` lines (split at spaces) at the smallest
    size as a last resort."""

    name: str
    width: int
    size: int
    smallest: int
    bold: bool = False
    lines: int = 1
    texts: Callable[[Scoped], Iterable[str]] = lambda _: ()

    def _width(self, text: str, size: int) -> float:
        return length(text, font(size, self.bold))

    def fit(self, text: str) -> tuple[int, tuple[str, ...]] | None:
        """The size and lines ``text`` is drawn in, or None if it cannot fit (a label too long
        for every size: test_fit.py fails on it)."""
        for size in range(self.size, self.smallest - 1, -1):
            if self._width(text, size) <= self.width:
                return size, (text,)
        if self.lines > 1:
            wrapped = self._wrap(text, self.smallest)
            if wrapped is not None:
                return self.smallest, wrapped
        return None

    def _wrap(self, text: str, size: int) -> tuple[str, ...] | None:
        lines: list[str] = []
        line = ""
        for word in text.split(" "):
            candidate = f"{line} {word}" if line else word
            if self._width(candidate, size) <= self.width:
                line = candidate
                continue
            if not line or self._width(word, size) > self.width:
                return None
            lines.append(line)
            line = word
        lines.append(line)
        return tuple(lines) if len(lines) <= self.lines else None

    def fits(self, text: str) -> bool:
        return self.fit(text) is not None

    def drawn_width(self, text: str) -> int:
        """How far right of its start ``text`` is drawn in this slot (its widest line's ink,
        as the box ``draw`` returns)."""
        size, lines = self.fit(text) or (self.smallest, (text,))
        f = font(size, self.bold)
        return max(int(f.getbbox(line)[2]) for line in lines)

    def draw(self, d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill: RGB, *,
             anchor: str = "la", line_gap: int = 2) -> Box:
        """Draw ``text`` fitted to the slot and return the box it covers. One line is drawn
        at ``xy`` with ``anchor`` as Pillow reads it; several lines make a block whose top
        (anchor ?a), middle (?m) or bottom (?s/?d) is at ``xy``. A text that fits no size (a
        bug the tests catch) is drawn whole at the smallest size."""
        size, lines = self.fit(text) or (self.smallest, (text,))
        f = font(size, self.bold)
        if len(lines) == 1:
            put_text(d, xy, text, f, fill, anchor)
            return text_box(xy, text, f, anchor)
        step = size + line_gap
        block = step * (len(lines) - 1)
        x, y = xy
        top = {"a": y, "m": y - block / 2}.get(anchor[1], y - block)
        boxes = []
        for k, line in enumerate(lines):
            at = (x, top + k * step)
            put_text(d, at, line, f, fill, anchor)
            boxes.append(text_box(at, line, f, anchor))
        return (int(min(b[0] for b in boxes)), int(min(b[1] for b in boxes)),
                int(max(b[2] for b in boxes)), int(max(b[3] for b in boxes)))

    def with_width(self, width: int) -> Slot:
        """The slot in a box of ``width`` (a box whose room depends on what is beside it)."""
        return replace(self, width=width)


def _each(lab: Scoped, key: str, **params: object) -> list[str]:
    return [lab(key, **params)]


# ---- the table image -----------------------------------------------------------------------------
# The first line of the contract panel: "Deal 3 · Classic Belote". The deal number (bold) keeps
# its size longest; the variant name shrinks first, then wraps onto two lines.
PANEL_DEAL: Final = Slot("panel.deal", 120, 16, 13, bold=True,
                         texts=lambda lab: _each(lab, "deal", n=LONGEST_DEAL))
PANEL_ROOM: Final = 220  # the panel's inner width, shared by the two
PANEL_GAP: Final = 9  # "  " at 14 px: the deal number, two spaces, "·  Classic Belote"


def panel_variant(deal: str | None) -> Slot:
    """The slot of the variant name ("· Classic Belote"): what the deal number ``deal`` (as
    PANEL_DEAL draws it; None before the first deal) leaves of the panel's first line."""
    used = 0 if deal is None else PANEL_DEAL.drawn_width(deal) + PANEL_GAP
    return Slot("panel.variant", PANEL_ROOM - used, 14, 11, lines=2)


def panel_variant_text(lab: Scoped, variant: str, deal: str | None,
                       room: int | None = None) -> tuple[Slot, str]:
    """The variant name's slot and text after ``deal`` ("·  Classic Belote" on one line), or
    the bare name on two lines beside the deal number when one line is not enough.
    ``room``: the width actually left (the drawn deal number's box), else measured."""
    slot = panel_variant(deal) if room is None else panel_variant(deal).with_width(room)
    name = lab(f"variant.{variant}")
    if deal is None:
        return slot, name
    one_line = f"·  {name}"
    fitted = slot.fit(one_line)
    if fitted is not None and len(fitted[1]) == 1:
        return slot, one_line
    return slot, name


PANEL_BIDDING: Final = Slot("panel.bidding", 220, 22, 16, bold=True,
                            texts=lambda lab: _each(lab, "bidding"))
PANEL_LABEL: Final = Slot("panel.label", 220, 13, 11,
                          texts=lambda lab: [lab("contract"), lab("high_bid")])
LAST_TRICK: Final = Slot("last_trick", 162, 14, 11, texts=lambda lab: _each(lab, "last_trick"))
DEALER: Final = Slot("dealer", 20, 16, 12, bold=True, texts=lambda lab: _each(lab, "dealer"))
# The score panel's foot: "to 1001" on the left, "Held: 162" on the right, on one line.
TARGET: Final = Slot("score.target", 96, 14, 11,
                     texts=lambda lab: _each(lab, "target", n=LONGEST_TARGET))
HELD: Final = Slot("score.held", 106, 15, 11, bold=True,
                   texts=lambda lab: _each(lab, "held", n=LONGEST_POINTS))
# After a seat's name on its plate: "(you)". The name is cut to leave room for it.
YOU: Final = Slot("seat.you", 90, 19, 19, bold=True, texts=lambda lab: [f" ({lab('you')})"])
BANNER_TITLE: Final = Slot(
    "banner.title", 320, 24, 16, bold=True, lines=2,
    texts=lambda lab: [lab("banner.first"), lab("match.over"), *(
        lab("banner.deal_over", n=LONGEST_DEAL, result=lab(f"result.{r}")) for r in OUTCOMES)])

# ---- the hand image ------------------------------------------------------------------------------
HAND_PROMPT: Final = Slot("hand.prompt", 768, 19, 14, bold=True,
                          texts=lambda lab: [lab("your_turn"), lab("your_bid")])

# ---- the deal sheet ------------------------------------------------------------------------------
SHEET_BADGE: Final = Slot("sheet.badge", 220, 26, 18, bold=True,
                          texts=lambda lab: [lab(f"result.{r}") for r in OUTCOMES])
# The title keeps clear of the widest badge: 800 - 28 (left) - 24 (right) - 32 (badge padding)
# - 220 (badge text) - 16 (gap).
SHEET_TITLE: Final = Slot("sheet.title", 480, 28, 18, bold=True, texts=lambda lab: [
    lab("sheet.title", n=LONGEST_DEAL), lab("sheet.passed_title", n=LONGEST_DEAL)])
# A row's label, left of the first team's column (its numbers are centred at x 560).
SHEET_ROW: Final = Slot("sheet.row", 470, 18, 18, bold=True, texts=lambda lab: [
    lab(f"sheet.{k}") for k in ("card_points", "last_trick", "belote", "capot", "valat", "raw",
                                "held_created", "collected", "deal_score", "totals")
] + ["→ " + lab("sheet.rounded") + " ×4"])
SHEET_HELD: Final = Slot("sheet.held", 740, 18, 14, bold=True,
                         texts=lambda lab: _each(lab, "held", n=LONGEST_POINTS))
# The analysis strip at the foot of an analysed match's sheet. Its first line: the title, then
# the note in what the widest title leaves of the line (740 - 130 - a gap of 14).
STRIP_TITLE: Final = Slot("sheet.analysis.title", 130, 20, 16, bold=True,
                          texts=lambda lab: _each(lab, "sheet.analysis.title"))
STRIP_NOTE: Final = Slot("sheet.analysis.note", 596, 14, 11,
                         texts=lambda lab: _each(lab, "sheet.analysis.note"))
# The par's line: "Par", the contract (coloured runs), its taker, and right-aligned its worth.
STRIP_PAR: Final = Slot("sheet.analysis.par", 80, 18, 14,
                        texts=lambda lab: _each(lab, "sheet.analysis.par"))
STRIP_PAR_PASS: Final = Slot("sheet.analysis.par_pass", 620, 18, 14,
                             texts=lambda lab: _each(lab, "sheet.analysis.par_pass"))
STRIP_WORTH: Final = Slot("sheet.analysis.worth", 200, 18, 14, bold=True, texts=lambda lab: [
    lab("sheet.analysis.worth", score=f"-{LONGEST_TARGET}")])
# The players' columns (centred 128 apart): a heading, all of them in one size, on two lines
# where one is not enough; then per player their accuracy, or one text across the card columns.
STRIP_COLUMN: Final = Slot("sheet.analysis.column", 120, 13, 13, lines=2, texts=lambda lab: [
    lab(f"sheet.analysis.{k}") for k in ("accuracy", "played", "best", "cost")])
STRIP_ACCURACY: Final = Slot("sheet.analysis.accuracy", 120, 18, 14, bold=True,
                             texts=lambda lab: [lab("sheet.analysis.percent", n=100)])
STRIP_SPAN: Final = Slot("sheet.analysis.span", 360, 16, 12, texts=lambda lab: [
    lab("sheet.analysis.exact"), lab("sheet.analysis.no_choice")])

# ---- the match result and the leaderboard --------------------------------------------------------
RESULT_TITLE: Final = Slot("result.title", 740, 30, 20, bold=True,
                           texts=lambda lab: _each(lab, "match.over"))
RESULT_DRAW: Final = Slot("result.draw", 740, 28, 18, bold=True,
                          texts=lambda lab: _each(lab, "match.draw"))
RESULT_SUBTITLE: Final = Slot("result.subtitle", 740, 16, 12, texts=lambda lab: [
    f"{lab(f'variant.{v}')} · {lab('target', n=LONGEST_TARGET)}" for v in VARIANTS])
RESULT_DEALS: Final = Slot("result.deals", 300, 16, 12, texts=lambda lab: _each(lab, "match.deals"))
# Column headings: each right-aligned on its column's right edge, in the room left by the
# column before it (the name column ends at x 430; the numbers' columns are 110 wide).
BOARD_RANK: Final = Slot("board.rank", 40, 16, 12, bold=True,
                         texts=lambda lab: _each(lab, "board.rank"))
BOARD_NAME: Final = Slot("board.name", 330, 16, 12, bold=True,
                         texts=lambda lab: _each(lab, "board.name"))
BOARD_NUMBER: Final = Slot("board.number", 100, 16, 12, bold=True, texts=lambda lab: [
    lab("board.rating"), lab("board.games"), lab("board.wins")])
BOARD_EMPTY: Final = Slot("board.empty", 740, 20, 14, texts=lambda lab: _each(lab, "board.empty"))

SLOTS: Final[tuple[Slot, ...]] = (
    PANEL_DEAL, PANEL_BIDDING, PANEL_LABEL, LAST_TRICK, DEALER, TARGET, HELD, YOU, BANNER_TITLE,
    HAND_PROMPT, SHEET_BADGE, SHEET_TITLE, SHEET_ROW, SHEET_HELD, STRIP_TITLE, STRIP_NOTE,
    STRIP_PAR, STRIP_PAR_PASS, STRIP_WORTH, STRIP_COLUMN, STRIP_ACCURACY, STRIP_SPAN,
    RESULT_TITLE, RESULT_DRAW, RESULT_SUBTITLE, RESULT_DEALS, BOARD_RANK, BOARD_NAME,
    BOARD_NUMBER, BOARD_EMPTY)

