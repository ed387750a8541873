"""Images of Belote tables: pure functions from what a viewer may see to image bytes.

No discord import, no I/O, safe to call from worker threads. Each ``render_*`` returns
``(bytes, extension)`` in the format chosen for that kind of image (see encode.py); each
``draw_*`` returns the Pillow image and the layout of what was drawn (for tests and tools).

Every ``render_*`` takes a ``language`` (``en``, ``fr``, ``bg``; an unknown one draws English):
every word and rank letter on the image comes from the catalogue (``i18n``) in that language.
Given, it overrides the style's; the cache keys of images (``keys.hand_key``, the card sprites)
include it, so a French and an English image of the same state are never confused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from game.rules import Variant
from game.scoring import DealResult
from game.view import TableView

from .bracket import BracketRound, BracketTable, draw_bracket
from .chart import draw_rating_chart
from .encode import Format, Kind, encode, encode_for
from .hand import draw_hand
from .layout import Layout
from .palette import palette
from .podium import PodiumPlace, PodiumVariant, draw_podium
from .sheet import CostlyCard, SeatAnalysis, SheetAnalysis, draw_deal_sheet
from .style import DEFAULT_STYLE, Style
from .summary import LeaderboardRow, MatchResult, draw_leaderboard, draw_match_result
from .table import draw_table

__all__ = [
    "DEFAULT_STYLE",
    "BracketRound",
    "BracketTable",
    "CostlyCard",
    "Format",
    "Kind",
    "Layout",
    "LeaderboardRow",
    "MatchResult",
    "PodiumPlace",
    "PodiumVariant",
    "SeatAnalysis",
    "SheetAnalysis",
    "Style",
    "draw_bracket",
    "draw_deal_sheet",
    "draw_hand",
    "draw_leaderboard",
    "draw_match_result",
    "draw_podium",
    "draw_rating_chart",
    "draw_table",
    "encode",
    "encode_for",
    "palette",
    "render_bracket",
    "render_deal_sheet",
    "render_hand",
    "render_leaderboard",
    "render_match_result",
    "render_podium",
    "render_rating_chart",
    "render_table",
    "styled",
]


def styled(style: Style, language: str | None) -> Style:
    """``style`` in ``language`` (None: the style's own, English unless it says otherwise)."""
    return style if language is None or language == style.language else \
        replace(style, language=language)


def render_table(view: TableView, style: Style = DEFAULT_STYLE,
                 language: str | None = None) -> tuple[bytes, str]:
    """The table as ``view`` shows it (public view for the channel, a seat's for that seat)."""
    return encode_for(draw_table(view, styled(style, language))[0], Kind.TABLE)


def render_hand(view: TableView, style: Style = DEFAULT_STYLE,
                language: str | None = None) -> tuple[bytes, str]:
    """The viewer's own cards; for that player only."""
    return encode_for(draw_hand(view, styled(style, language))[0], Kind.HAND)


def render_deal_sheet(result: DealResult, variant: Variant, players: Sequence[str],
                      deal_number: int, style: Style = DEFAULT_STYLE,
                      language: str | None = None,
                      analysis: SheetAnalysis | None = None) -> tuple[bytes, str]:
    """A finished deal's sheet; with its ``analysis`` strip once the match is analysed."""
    return encode_for(draw_deal_sheet(result, variant, players, deal_number,
                                      styled(style, language), analysis)[0], Kind.SHEET)


def render_match_result(result: MatchResult, style: Style = DEFAULT_STYLE,
                        language: str | None = None) -> tuple[bytes, str]:
    return encode_for(draw_match_result(result, styled(style, language))[0], Kind.RESULT)


def render_leaderboard(rows: Sequence[LeaderboardRow], title: str,
                       style: Style = DEFAULT_STYLE,
                       language: str | None = None) -> tuple[bytes, str]:
    return encode_for(draw_leaderboard(rows, title, styled(style, language))[0], Kind.BOARD)


def render_rating_chart(values: Sequence[float], title: str,
                        language: str | None = None) -> tuple[bytes, str]:
    """The chart draws no word of its own (its title comes in the reader's language); its
    ratings are written as ``language`` writes numbers (``1 180`` in French)."""
    return encode_for(draw_rating_chart(values, title, styled(DEFAULT_STYLE, language))[0],
                      Kind.BOARD)


def render_bracket(rounds: Sequence[BracketRound], title: str,
                   tables_per_round: Sequence[int], style: Style = DEFAULT_STYLE,
                   language: str | None = None) -> tuple[bytes, str]:
    """A tournament's bracket (the sign-up message shows it, updated after each game)."""
    return encode_for(draw_bracket(rounds, title, tables_per_round,
                                   styled(style, language))[0], Kind.BOARD)


def render_podium(variants: Sequence[PodiumVariant], title: str, style: Style = DEFAULT_STYLE,
                  language: str | None = None) -> tuple[bytes, str]:
    """A season's podium, each variant played on its own steps."""
    return encode_for(draw_podium(variants, title, styled(style, language))[0], Kind.BOARD)
