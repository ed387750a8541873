"""The deal sheet: how a finished deal was scored, line by line, for both teams.

Its input is the rules core's DealResult: every number on it comes from there, none is computed
here (the renderer never scores; it only subtracts held points collected to show the rounding).

Once a finished match is analysed (service/analysis.py), its sheets end with a strip of the
deal's double-dummy analysis (:class:`SheetAnalysis`, made by service/analysis_page.py): the
par contract and its score, and per player their accuracy over the deal and their costliest
card (the card played, the best card, the cost in the deal's score). Without one the sheet is
drawn as before, to the pixel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from game.cards import Card
from game.contract import Contract
from game.rules import Variant
from game.scoring import DealResult, Outcome
from i18n import Scoped
from i18n.values import announcement_title

from . import slots
from .layout import Layout
from .paint import Run, draw_runs, draw_text, is_cut
from .style import (
    ACCENT,
    BAD,
    DEFAULT_STYLE,
    GOOD,
    INK,
    INK_DIM,
    NEUTRAL,
    PAPER,
    PAPER_LINE,
    RGB,
    TEAM_DARK,
    Style,
)
from .words import card_runs, contract_runs

W: Final = 800
ROW: Final = 36
COL: Final = (560, 700)  # centres of the two team columns
OUTCOME_COLOUR: Final = {Outcome.MADE: GOOD, Outcome.FAILED: BAD, Outcome.LITIGE: NEUTRAL,
                         Outcome.HANGING: NEUTRAL, Outcome.PASSED: INK_DIM}


@dataclass(frozen=True, slots=True)
class CostlyCard:
    """A player's costliest chosen card of a deal: the card played, the best card there, and
    what the one played cost in the deal's score against it."""

    played: Card
    best: Card
    cost: int


@dataclass(frozen=True, slots=True)
class SeatAnalysis:
    """One player's deal: ``accuracy`` the percentage of their chosen cards that cost nothing
    (None: they chose no card, every one was forced or played for them), ``costliest`` their
    costliest chosen card (None: none cost anything)."""

    accuracy: int | None
    costliest: CostlyCard | None


@dataclass(frozen=True, slots=True)
class SheetAnalysis:
    """A deal's analysis as its sheet shows it: the par contract (None: passing is par) and its
    score for its side (that side's deal score minus the other's), and each seat's deal."""

    par: Contract | None
    par_score: int
    seats: tuple[SeatAnalysis, SeatAnalysis, SeatAnalysis, SeatAnalysis]


class _Row:
    """One line of the sheet: a label (plain or coloured runs) and a cell per team."""

    __slots__ = ("bold", "cells", "name", "runs", "struck")

    def __init__(self, name: str, runs: list[Run], cells: tuple[str, str], *,
                 bold: bool = False, struck: tuple[bool, bool] = (False, False)) -> None:
        self.name = name
        self.runs = runs
        self.cells = cells
        self.bold = bold
        self.struck = struck


def _pair(values: tuple[int, int], style: Style, blank_zero: bool = False) -> tuple[str, str]:
    return (
        "" if blank_zero and not values[0] else style.number(values[0]),
        "" if blank_zero and not values[1] else style.number(values[1]),
    )


def _rows(r: DealResult, variant: Variant, players: Sequence[str], style: Style) -> list[_Row]:
    lab = style.labels
    rows: list[_Row] = []
    if r.outcome is Outcome.PASSED:
        return [_Row("totals", [(lab("sheet.totals"), INK)], _pair(r.totals, style), bold=True)]
    rows.append(_Row("card_points", [(lab("sheet.card_points"), INK)], _pair(r.card_points, style)))
    if r.last_trick is not None:
        cells = ("✓", "") if r.last_trick == 0 else ("", "✓")
        rows.append(_Row("last_trick", [(lab("sheet.last_trick"), INK_DIM)], cells))
    for i, a in enumerate(r.announcements):
        scored = r.scored[i] if i < len(r.scored) else False
        colour = INK if scored else INK_DIM
        name = announcement_title(a.carre_rank, a.length, style.language)
        runs: list[Run] = [(f"{name} · {players[a.seat]}  ", colour)]
        runs += card_runs(a.cards, style) if scored else [("  ".join(
            "".join(t for t, _ in card_runs((c,), style)) for c in a.cards), INK_DIM)]
        team = a.seat & 1
        cells = (style.number(a.points), "") if team == 0 else ("", style.number(a.points))
        struck = (not scored and team == 0, not scored and team == 1)
        rows.append(_Row(f"announcement:{i}:{'scored' if scored else 'not_scored'}", runs, cells,
                         struck=struck))
    if any(r.belote):
        rows.append(_Row("belote", [(lab("sheet.belote"), INK)],
                         _pair(r.belote, style, blank_zero=True)))
    if r.sweep is not None:
        word = "sheet.valat" if variant is Variant.BULGARIAN else "sheet.capot"
        cells = ("✓", "") if r.sweep == 0 else ("", "✓")
        rows.append(_Row("sweep", [(lab(word), INK)], cells, bold=True))
    collected = r.collected
    if r.raw is not None:
        rows.append(_Row("raw", [(lab("sheet.raw"), INK)], _pair(r.raw, style)))
        rounded = (r.score[0] - collected[0], r.score[1] - collected[1])
        label = "→ " + lab("sheet.rounded")
        if r.contract is not None and r.contract.multiplier > 1:
            label += f" ×{r.contract.multiplier}"
        rows.append(_Row("rounded", [(label, INK)], _pair(rounded, style)))
    if r.held_created and r.contract is not None:
        t = r.contract.team
        cells = (style.number(r.held_created), "") if t == 0 \
            else ("", style.number(r.held_created))
        rows.append(_Row("held_created", [(lab("sheet.held_created"), NEUTRAL)], cells))
    if any(collected):
        rows.append(_Row("collected", [(lab("sheet.collected"), INK)],
                         _pair(collected, style, blank_zero=True)))
    rows.append(_Row("deal_score", [(lab("sheet.deal_score"), INK)], _pair(r.score, style),
                     bold=True))
    rows.append(_Row("totals", [(lab("sheet.totals"), INK)], _pair(r.totals, style), bold=True))
    return rows


def draw_deal_sheet(result: DealResult, variant: Variant, players: Sequence[str],
                    deal_number: int, style: Style = DEFAULT_STYLE,
                    analysis: SheetAnalysis | None = None) -> tuple[Image.Image, Layout]:
    """The sheet of deal ``deal_number`` (1-based) of a match between ``players``, with the
    deal's ``analysis`` at its foot when the match is analysed."""
    lab = style.labels
    rows = _rows(result, variant, players, style)
    head = 150
    foot = head + ROW * len(rows) + (34 if result.hanging else 0)
    height = foot + 24 + (STRIP_HEIGHT if analysis is not None else 0)
    img = Image.new("RGB", (W, height), PAPER)
    d = ImageDraw.Draw(img)
    lay = Layout((W, height))
    _title(d, result, variant, players, deal_number, style, lab, lay)
    # the team header
    y = 118
    names = [lab("team", a=players[team], b=players[team + 2]) for team in (0, 1)]
    size = 16
    while size > 12 and any(is_cut(name, size, 136, bold=True) for name in names):
        size -= 1  # two names in a column: smaller (both teams alike) before cut
    for team, name in enumerate(names):
        box = draw_text(d, (COL[team], y), name, size, TEAM_DARK[team], bold=True,
                        anchor="mm", width=136)
        if is_cut(name, size, 136, bold=True):
            lay.add(f"cut:team:{team}", box)
    d.line((24, head - 8, W - 24, head - 8), fill=PAPER_LINE, width=2)
    y = head
    for row in rows:
        cy = y + ROW // 2
        if row.bold:
            d.line((24, y + 1, W - 24, y + 1), fill=PAPER_LINE, width=1)
        draw_runs(d, (28, cy), row.runs, 18, bold=row.bold)
        for team in (0, 1):
            text = row.cells[team]
            if not text:
                continue
            colour: RGB = INK_DIM if row.struck[team] else INK
            box = draw_text(d, (COL[team], cy), text, 22 if row.bold else 20, colour,
                            bold=row.bold, anchor="mm")
            if row.struck[team]:
                d.line((box[0] - 4, cy, box[2] + 4, cy), fill=ACCENT, width=2)
        lay.add(row.name, (24, y, W - 24, y + ROW))
        y += ROW
    if result.hanging:
        box = slots.SHEET_HELD.draw(d, (28, y + 16), lab("held", n=result.hanging), NEUTRAL,
                                    anchor="lm")
        lay.add("hanging", box)
    if analysis is not None:
        _strip(d, foot + 8, analysis, variant, players, style, lab, lay)
    return img, lay


# The analysis strip: its rows' heights, and its columns' centres (each player's name is left
# of the first one, cut to the room left).
STRIP_LINE: Final = 36
STRIP_HEADINGS: Final = 38
STRIP_ROW: Final = 32
STRIP_HEIGHT: Final = 2 * STRIP_LINE + STRIP_HEADINGS + 4 * STRIP_ROW + 16
ACCURACY_X, PLAYED_X, BEST_X, COST_X = 340, 468, 596, 712
NAME_WIDTH: Final = ACCURACY_X - slots.STRIP_COLUMN.width // 2 - 12 - 28
SEATS_SHOWN: Final = (0, 2, 1, 3)  # team by team, as the columns above


def _strip(d: ImageDraw.ImageDraw, top: int, a: SheetAnalysis, variant: Variant,
           players: Sequence[str], style: Style, lab: Scoped, lay: Layout) -> None:
    """The deal's analysis under the sheet's rows, from ``top``."""
    d.line((24, top, W - 24, top), fill=PAPER_LINE, width=2)
    lay.add("analysis", (24, top, W - 24, top + STRIP_HEIGHT))
    # The title and what the analysis is, on one baseline.
    base = top + 25
    title = slots.STRIP_TITLE.draw(d, (28, base), lab("sheet.analysis.title"), INK, anchor="ls")
    lay.add("analysis:title", title)
    note = slots.STRIP_NOTE.with_width(W - 24 - title[2] - 14)
    lay.add("analysis:note", note.draw(d, (title[2] + 14, base), lab("sheet.analysis.note"),
                                       INK_DIM, anchor="ls"))
    # The par: its contract and taker, its worth right-aligned.
    cy = top + STRIP_LINE + STRIP_LINE // 2
    word = slots.STRIP_PAR.draw(d, (28, cy), lab("sheet.analysis.par"), INK, anchor="lm")
    c = a.par
    if c is None:
        lay.add("analysis:par:pass", slots.STRIP_PAR_PASS.draw(
            d, (word[2] + 14, cy), lab("sheet.analysis.par_pass"), INK_DIM, anchor="lm"))
    else:
        worth = slots.STRIP_WORTH.draw(
            d, (W - 40, cy), lab("sheet.analysis.worth", score=style.number(a.par_score)), INK,
            anchor="rm")
        lay.add("analysis:par:worth", worth)
        contract = draw_runs(d, (word[2] + 14, cy), contract_runs(c, variant, style, INK, ACCENT),
                             20, bold=True)
        lay.add("analysis:par:contract", contract)
        by = lab("by", name=players[c.seat])
        room = worth[0] - 20 - contract[2] - 12
        taker = draw_text(d, (contract[2] + 12, cy), by, 18, TEAM_DARK[c.team], bold=True,
                          anchor="lm", width=room)
        lay.add(f"analysis:par:taker:{c.seat}", taker)
        if is_cut(by, 18, room, bold=True):
            lay.add("cut:analysis:taker", taker)
    # The columns' headings, then a row per player.
    y = top + 2 * STRIP_LINE
    d.line((24, y, W - 24, y), fill=PAPER_LINE, width=1)
    for key, x in (("accuracy", ACCURACY_X), ("played", PLAYED_X), ("best", BEST_X),
                   ("cost", COST_X)):
        lay.add(f"analysis:heading:{key}", slots.STRIP_COLUMN.draw(
            d, (x, y + STRIP_HEADINGS // 2), lab(f"sheet.analysis.{key}"), INK_DIM,
            anchor="mm"))
    y += STRIP_HEADINGS
    for seat in SEATS_SHOWN:
        cy = y + STRIP_ROW // 2
        name = players[seat]
        box = draw_text(d, (28, cy), name, 18, TEAM_DARK[seat & 1], bold=True, anchor="lm",
                        width=NAME_WIDTH)
        if is_cut(name, 18, NAME_WIDTH, bold=True):
            lay.add(f"cut:analysis:name:{seat}", box)
        _seat(d, cy, seat, a.seats[seat], style, lab, lay)
        lay.add(f"analysis:seat:{seat}", (24, y, W - 24, y + STRIP_ROW))
        y += STRIP_ROW


def _seat(d: ImageDraw.ImageDraw, cy: int, seat: int, s: SeatAnalysis, style: Style,
          lab: Scoped, lay: Layout) -> None:
    """One player's accuracy and costliest card, on the row centred at ``cy``."""
    span = ((PLAYED_X + COST_X) // 2, cy)
    if s.accuracy is None:
        draw_text(d, (ACCURACY_X, cy), "–", 18, INK_DIM, bold=True, anchor="mm")
        lay.add(f"analysis:no_choice:{seat}", slots.STRIP_SPAN.draw(
            d, span, lab("sheet.analysis.no_choice"), INK_DIM, anchor="mm"))
        return
    colour = GOOD if s.accuracy == 100 else INK
    lay.add(f"analysis:accuracy:{seat}", slots.STRIP_ACCURACY.draw(
        d, (ACCURACY_X, cy), lab("sheet.analysis.percent", n=s.accuracy), colour, anchor="mm"))
    c = s.costliest
    if c is None:
        lay.add(f"analysis:exact:{seat}", slots.STRIP_SPAN.draw(
            d, span, lab("sheet.analysis.exact"), GOOD, anchor="mm"))
        return
    lay.add(f"analysis:played:{seat}",
            draw_runs(d, (PLAYED_X, cy), card_runs((c.played,), style), 20, bold=True,
                      anchor="mm"))
    lay.add(f"analysis:best:{seat}",
            draw_runs(d, (BEST_X, cy), card_runs((c.best,), style), 20, bold=True, anchor="mm"))
    lay.add(f"analysis:cost:{seat}", draw_text(d, (COST_X, cy), style.number(-c.cost), 20, BAD,
                                               bold=True, anchor="mm"))


def _title(d: ImageDraw.ImageDraw, r: DealResult, variant: Variant, players: Sequence[str],
           deal_number: int, style: Style, lab: Scoped, lay: Layout) -> None:
    # the outcome badge, top right, first: the title takes the room it leaves
    word = lab(f"result.{r.outcome.value}")
    colour = OUTCOME_COLOUR[r.outcome]
    size = (slots.SHEET_BADGE.fit(word) or (slots.SHEET_BADGE.smallest, ()))[0]
    f_box = draw_text(d, (W - 40, 36), word, size, PAPER, bold=True, anchor="rm")
    badge = (f_box[0] - 16, 14, W - 24, 58)
    d.rounded_rectangle(badge, 12, fill=colour)
    draw_text(d, (W - 40, 36), word, size, PAPER, bold=True, anchor="rm")
    lay.add(f"outcome:{r.outcome.value}", badge)
    key = "sheet.passed_title" if r.outcome is Outcome.PASSED else "sheet.title"
    title = slots.SHEET_TITLE.with_width(badge[0] - 16 - 28)
    lay.add("title", title.draw(d, (28, 36), lab(key, n=deal_number), INK, anchor="lm"))
    c = r.contract
    if c is None:
        return
    runs = contract_runs(c, variant, style, INK, ACCENT)
    box = draw_runs(d, (28, 80), runs, 24, bold=True)
    lay.add("contract", box)
    by = lab("by", name=players[c.seat])
    holder = draw_text(d, (box[2] + 14, 80), by, 18, TEAM_DARK[c.team], bold=True,
                       anchor="lm", width=W - box[2] - 40)
    lay.add(f"holder:{c.seat}", holder)
    if is_cut(by, 18, W - box[2] - 40, bold=True):
        lay.add("cut:holder", holder)
