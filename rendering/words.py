"""Bids, contracts and announcements as coloured runs of text, in the table's language."""

from __future__ import annotations

from game.actions import (
    CAPOT,
    BidAction,
    CoincheBid,
    ContractBid,
    Contre,
    Double,
    Pass,
    Redouble,
    Surcontre,
    Take,
)
from game.cards import RANK_LETTERS, Card
from game.contract import Contract
from game.rules import Trump, Variant
from i18n import Scoped

from .paint import Run
from .style import PIPS, RGB, Style


def trump_runs(trump: Trump, style: Style, ink: RGB) -> list[Run]:
    if trump.is_suit:
        return [(PIPS[trump], style.suit_colour(int(trump)))]
    return [(style.labels(f"trump.{trump.code}"), ink)]


def value_text(value: int, labels: Scoped) -> str:
    return labels("capot") if value == CAPOT else str(value)


def bid_runs(bid: BidAction, style: Style, ink: RGB) -> list[Run]:
    """What a seat said: 'Pass', '90 ♥', 'Take ♠', 'Contre', 'No trumps'..."""
    lab = style.labels
    if isinstance(bid, Pass):
        return [(lab("pass"), ink)]
    if isinstance(bid, Take):
        if bid.suit is None:
            return [(lab("take"), ink)]
        return [(lab("take") + " ", ink), (PIPS[bid.suit], style.suit_colour(int(bid.suit)))]
    if isinstance(bid, CoincheBid):
        return [(value_text(bid.value, lab) + " ", ink),
                (PIPS[bid.suit], style.suit_colour(int(bid.suit)))]
    if isinstance(bid, ContractBid):
        return trump_runs(bid.contract, style, ink)
    word = {Contre: "contre", Surcontre: "surcontre", Double: "double", Redouble: "redouble"}
    return [(lab(word[type(bid)]), ink)]


def multiplier_text(contract: Contract, variant: Variant, labels: Scoped) -> str | None:
    if contract.multiplier == 1:
        return None
    if variant is Variant.BULGARIAN:
        return labels("double" if contract.multiplier == 2 else "redouble")
    return labels("contre" if contract.multiplier == 2 else "surcontre")


def contract_runs(contract: Contract, variant: Variant, style: Style, ink: RGB,
                  accent: RGB) -> list[Run]:
    """'110 ♥ Contre', '♠', 'All trumps Redouble'."""
    runs: list[Run] = []
    if contract.value is not None:
        runs.append((value_text(contract.value, style.labels) + " ", ink))
    runs += trump_runs(contract.trump, style, ink)
    extra = multiplier_text(contract, variant, style.labels)
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


def announcement_name(carre_rank: int | None, length: int, labels: Scoped) -> str:
    """An announcement's name in the table's language, from what it is made of."""
    if carre_rank is not None:
        return labels("ann.carre", rank=labels(f"ann.ranks.{RANK_LETTERS[carre_rank]}"))
    if 3 <= length <= 5:
        return labels(("ann.tierce", "ann.quarte", "ann.quinte")[length - 3])
    return labels("ann.run", n=length)
