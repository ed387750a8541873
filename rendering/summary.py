"""The match result and the leaderboard images, with the small records they are drawn from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from game.rules import Variant
from game.scoring import DealResult

from . import slots
from .layout import Layout
from .paint import draw_text
from .style import (
    DEFAULT_STYLE,
    FELT_DARK,
    GOLD,
    INK,
    PANEL,
    PANEL_LINE,
    PAPER,
    TEAM,
    TEXT,
    TEXT_DIM,
    Style,
)

W: Final = 800


@dataclass(frozen=True, slots=True)
class MatchResult:
    variant: Variant
    players: tuple[str, str, str, str]
    totals: tuple[int, int]
    winner: int | None  # the winning team, None if the match was stopped without one
    target: int
    deal_scores: tuple[tuple[int, int], ...]  # what each team scored in each deal

    @staticmethod
    def from_results(variant: Variant, players: Sequence[str], target: int,
                     results: Sequence[DealResult], winner: int | None) -> MatchResult:
        totals = results[-1].totals if results else (0, 0)
        return MatchResult(variant, (players[0], players[1], players[2], players[3]), totals,
                           winner, target, tuple(r.score for r in results))


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    name: str
    rating: float
    games: int
    wins: int


MAX_DEALS_SHOWN: Final = 20  # two columns of ten; a longer match shows its last twenty deals


def draw_match_result(result: MatchResult,
                      style: Style = DEFAULT_STYLE) -> tuple[Image.Image, Layout]:
    lab = style.labels
    deals = result.deal_scores[-MAX_DEALS_SHOWN:]
    first = len(result.deal_scores) - len(deals) + 1
    rows = min(len(deals), MAX_DEALS_SHOWN // 2)
    height = 250 + (44 + rows * 30 if deals else 0)
    img = Image.new("RGB", (W, height), FELT_DARK)
    d = ImageDraw.Draw(img)
    lay = Layout((W, height))
    p = result.players
    lay.add("title", slots.RESULT_TITLE.draw(d, (W // 2, 40), lab("match.over"), TEXT,
                                             anchor="mm"))
    slots.RESULT_SUBTITLE.draw(d, (W // 2, 76), f"{lab(f'variant.{result.variant.value}')} · "
                               f"{lab('target', n=result.target)}", TEXT_DIM, anchor="mm")
    if result.winner is not None:
        t = result.winner
        line = lab("match.wins", team=lab("team", a=p[t], b=p[t + 2]))
        lay.add(f"winner:{t}", draw_text(d, (W // 2, 118), line, 28, TEAM[t], bold=True,
                                         anchor="mm", width=W - 60))
    else:
        lay.add("winner:none", slots.RESULT_DRAW.draw(d, (W // 2, 118), lab("match.draw"), TEXT,
                                                      anchor="mm"))
    for team in (0, 1):
        cx = W // 2 + (-170 if team == 0 else 170)
        box = (cx - 150, 150, cx + 150, 232)
        won = result.winner == team
        d.rounded_rectangle(box, 14, fill=PANEL, outline=GOLD if won else PANEL_LINE,
                            width=4 if won else 2)
        draw_text(d, (cx, 172), lab("team", a=p[team], b=p[team + 2]), 17, TEAM[team],
                  bold=True, anchor="mm", width=280)
        draw_text(d, (cx, 208), style.number(result.totals[team]), 34, TEXT, bold=True, anchor="mm")
        lay.add(f"total:{team}", box)
    if deals:
        y0 = 262
        slots.RESULT_DEALS.draw(d, (40, y0), lab("match.deals"), TEXT_DIM, anchor="lm")
        for i, (a, b) in enumerate(deals):
            col, row = divmod(i, rows)
            x = 40 + col * 380
            y = y0 + 30 + row * 30
            draw_text(d, (x, y), f"{first + i}.", 17, TEXT_DIM, anchor="lm")
            draw_text(d, (x + 150, y), style.number(a), 19, TEAM[0], bold=True, anchor="rm")
            draw_text(d, (x + 250, y), style.number(b), 19, TEAM[1], bold=True, anchor="rm")
        lay.add("deals", (30, y0 - 12, W - 30, height - 8))
    return img, lay


def draw_leaderboard(rows: Sequence[LeaderboardRow], title: str,
                     style: Style = DEFAULT_STYLE) -> tuple[Image.Image, Layout]:
    lab = style.labels
    row_h = 42
    height = 118 + max(1, len(rows)) * row_h + 16
    img = Image.new("RGB", (W, height), FELT_DARK)
    d = ImageDraw.Draw(img)
    lay = Layout((W, height))
    lay.add("title", draw_text(d, (32, 38), title, 28, TEXT, bold=True, anchor="lm",
                               width=W - 64))
    cols = (("board.rank", 56, "mm", slots.BOARD_RANK), ("board.name", 100, "lm",
                                                          slots.BOARD_NAME),
            ("board.rating", 540, "rm", slots.BOARD_NUMBER),
            ("board.games", 650, "rm", slots.BOARD_NUMBER),
            ("board.wins", 760, "rm", slots.BOARD_NUMBER))
    for key, x, anchor, slot in cols:
        lay.add(f"heading:{key}", slot.draw(d, (x, 96), lab(key), TEXT_DIM, anchor=anchor))
    if not rows:
        lay.add("empty", slots.BOARD_EMPTY.draw(d, (W // 2, 118 + row_h // 2), lab("board.empty"),
                                                TEXT, anchor="mm"))
    medal = {1: GOLD, 2: (200, 205, 212), 3: (205, 127, 50)}
    y = 118
    for i, r in enumerate(rows):
        cy = y + row_h // 2
        if i % 2 == 0:
            d.rounded_rectangle((20, y + 2, W - 20, y + row_h - 2), 8, fill=PANEL)
        if r.rank in medal:
            d.ellipse((56 - 16, cy - 16, 56 + 16, cy + 16), fill=medal[r.rank])
            draw_text(d, (56, cy), str(r.rank), 18, INK, bold=True, anchor="mm")
        else:
            draw_text(d, (56, cy), str(r.rank), 18, TEXT, bold=True, anchor="mm")
        draw_text(d, (100, cy), r.name, 20, TEXT, bold=True, anchor="lm", width=330)
        draw_text(d, (540, cy), style.number(round(r.rating)), 20, PAPER, bold=True, anchor="rm")
        draw_text(d, (650, cy), style.number(r.games), 20, TEXT, anchor="rm")
        draw_text(d, (760, cy), style.number(r.wins), 20, TEXT, anchor="rm")
        lay.add(f"row:{r.rank}", (20, y, W - 20, y + row_h))
        y += row_h
    return img, lay
