"""A tournament's bracket: one column per round, one box per table with its two pairs, the
winning pair marked once the table has finished; rounds not drawn yet are empty boxes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from .layout import Layout
from .paint import draw_text
from .style import DEFAULT_STYLE, FELT_DARK, GOLD, PANEL, PANEL_LINE, TEXT, TEXT_DIM, Style

COLUMN: Final = 300  # a round's width
BOX_W: Final = 260
BOX_H: Final = 76
GAP: Final = 20
TOP: Final = 96


@dataclass(frozen=True, slots=True)
class BracketTable:
    """One table of a round: the pairs (seats 0 and 2 against 1 and 3) as names, and the
    winning pair once it finished (None: still playing)."""

    pairs: tuple[tuple[str, str], tuple[str, str]]
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    tables: tuple[BracketTable, ...]  # empty: not drawn yet


def draw_bracket(rounds: Sequence[BracketRound], title: str, tables_per_round: Sequence[int],
                 style: Style = DEFAULT_STYLE) -> tuple[Image.Image, Layout]:
    """``tables_per_round``: how many tables each round has (8 players: 2 then 1), so the
    rounds still to come are drawn as empty boxes."""
    lab = style.labels
    tallest = max(tables_per_round, default=1)
    width = max(COLUMN * len(tables_per_round) + 2 * GAP, 640)
    height = TOP + tallest * (BOX_H + GAP) + GAP
    img = Image.new("RGB", (width, height), FELT_DARK)
    d = ImageDraw.Draw(img)
    lay = Layout((width, height))
    lay.add("title", draw_text(d, (GAP + 4, 34), title, 26, TEXT, bold=True, anchor="lm",
                               width=width - 2 * GAP))
    drawn = {r.number: r for r in rounds}
    for index, count in enumerate(tables_per_round):
        number = index + 1
        x = GAP + index * COLUMN
        lay.add(f"round:{number}", draw_text(d, (x + 4, TOP - 22),
                                             lab("bracket.round", n=number), 18, TEXT_DIM,
                                             bold=True, anchor="lm", width=BOX_W))
        # Each round's boxes centred against the tallest round's.
        top = TOP + (tallest - count) * (BOX_H + GAP) // 2
        tables = drawn[number].tables if number in drawn else ()
        for position in range(count):
            y = top + position * (BOX_H + GAP)
            box = (x, y, x + BOX_W, y + BOX_H)
            d.rounded_rectangle(box, 8, fill=PANEL, outline=PANEL_LINE)
            lay.add(f"table:{number}:{position}", box)
            table = tables[position] if position < len(tables) else None
            if table is None:
                lay.add(f"waiting:{number}:{position}", draw_text(
                    d, (x + BOX_W // 2, y + BOX_H // 2), lab("bracket.to_come"), 16,
                    TEXT_DIM, anchor="mm", width=BOX_W - 20))
                continue
            for team, (a, b) in enumerate(table.pairs):
                won = table.winner == team
                lost = table.winner is not None and not won
                cy = y + 22 + team * 32
                colour = GOLD if won else TEXT_DIM if lost else TEXT
                mark = "✓ " if won else ""
                lay.add(f"pair:{number}:{position}:{team}", draw_text(
                    d, (x + 12, cy), mark + lab("bracket.pair", a=a, b=b), 17, colour,
                    bold=won, anchor="lm", width=BOX_W - 24))
                if won:
                    lay.add(f"winner:{number}:{position}", (x, cy - 14, x + BOX_W, cy + 14))
    return img, lay
