"""Bids, contracts and announcements as coloured runs of text, in the table's language."""

from __future__ import annotations

from game.actions import BidAction
from game.cards import Card
from game.contract import Contract
from game.rules import Trump, Variant
from i18n.values import Piece, multiplier_said, said_pieces, trump_pieces, value_said

from .paint import Run
from .style import PIPS, RGB, Style


def _runs(pieces: list[Piece], style: Style, ink: RGB) -> list[Run]:
    """Pieces of words (i18n/values.py) as coloured runs: a suit in its colour."""
    return [(p, ink) if isinstance(p, str) else (PIPS[p], style.suit_colour(int(p)))
            for p in pieces]


def trump_runs(trump: Trump, style: Style, ink: RGB) -> list[Run]:
    return _runs(trump_pieces(trump, style.language), style, ink)


def bid_runs(bid: BidAction, style: Style, ink: RGB) -> list[Run]:
    """What a seat said: 'Pass', '90 ♥', 'Take ♠', 'Contre', 'No trumps'..."""
    return _runs(said_pieces(bid, style.language), style, ink)


def contract_runs(contract: Contract, variant: Variant, style: Style, ink: RGB,
                  accent: RGB) -> list[Run]:
    """'110 ♥ Contre', '♠', 'All trumps Redouble'."""
    runs: list[Run] = []
    if contract.value is not None:
        runs.append((value_said(contract.value, style.language) + " ", ink))
    runs += trump_runs(contract.trump, style, ink)
    extra = multiplier_said(contract, variant, style.language)
    if extra:
        runs.append(("  " + extra, accent))
    return runs


def card_runs(cards: tuple[Card, ...], style: Style) -> list[Run]:
    """Cards as text: '7♠ 8♠ 9♠', each in its suit's colour."""
    runs: list[Run] = []
    for i, c in enumerate(cards):
        runs.append(((" " if i else "") + style.ranks[c & 7] + PIPS[c >> 3],
                     style.suit_colour(c >> 3)))
    return runs
