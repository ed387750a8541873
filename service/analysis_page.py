"""What a match's analysis page says, one deal's par, the bids that left points on the table
and the costly cards, biggest first, and each player's accuracy over the match; or, while the
match is analysed, how far it has got. The replay's Analysis page in Discord
(bot/controls/analysis.py) and the match's web page (web/site.py) say the same: the lines are
made here from plain names (each caller escapes them for where they go: markdown, HTML).

The deal sheet's analysis strip (rendering/sheet.py) is made here too (:func:`sheet_analysis`):
the par, and per player their accuracy over the deal and their costliest card.

Everything comes from what service/analysis.py stored: each deal's analysis as `belote
analyse` prints it (docs/game-record.md) and what each player's cards cost over the match.
Costs are in the deal's score (what the variant's scoring gives the side, against the best
card, both sides playing double-dummy from there) and in card points.

**Accuracy** is the share of a player's cards that cost nothing in the deal's score, over the
cards they chose: a forced card (their only legal one) is no choice and is not counted, nor is
a card played for them (a timer's, a claim's). The average cost is per counted card.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from db.analyses import DONE, FAILED, QUEUED, PlayerCost
from game.actions import CAPOT
from game.cards import parse_card
from game.contract import Contract
from game.record import action_from_json
from game.rules import Variant, parse_trump
from i18n import Number, Words
from i18n.values import bid_text, contract_text
from i18n.values import card_label as values_card_label
from rendering.sheet import CostlyCard, SeatAnalysis, SheetAnalysis

from .analysis import AnalysisRunner, Progress, counted
from .markup import as_text
from .records import Replay

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # Discord's, for a message's content

MOST_CARDS = 8  # costly cards listed on a page, biggest first (the rest are counted)
MOST_BIDS = 4


def card_label(card: str, w: Words) -> str:
    """A card as the bot's buttons write it: ``J♥``."""
    return values_card_label(parse_card(card), w.language)


def contract_of(par: dict[str, Any]) -> Contract | None:
    """The par contract a deal's analysis names (None: pass)."""
    c = par.get("contract")
    if c is None:
        return None
    value = c.get("value")
    return Contract(int(c["seat"]), parse_trump(c["suit"]),
                    CAPOT if value == "capot" else value, int(c.get("multiplier", 1)))


def _side(seat: int, names: Sequence[str], w: Words) -> str:
    return w("stats.board.pair", first=names[seat], second=names[seat ^ 2])


def par_line(par: dict[str, Any], names: Sequence[str], w: Words) -> str:
    contract = contract_of(par)
    if contract is None:
        return w("analysis.par.pass")
    return w("analysis.par.line", side=_side(contract.seat, names, w),
             taker=names[contract.seat],
             contract=contract_text(contract, w.language), score=Number(par["score"]),
             points=w.plural("analysis.card_points", int(par["points"])))


def _bid(variant: Variant, obj: Any, w: Words) -> str:
    try:
        return bid_text(action_from_json(variant, obj), w.language)
    except (ValueError, TypeError):
        return "?"


def bid_lines(variant: Variant, deal: dict[str, Any], names: Sequence[str], w: Words
              ) -> list[str]:
    """The calls that left points on the table against par, biggest first."""
    bids = [d for d in deal["decisions"] if "bid" in d["options"][0] and
            d["options"][0]["cost"] > 0]
    bids.sort(key=lambda d: (-d["options"][0]["cost"], d["action"]))
    lines = [w("analysis.bid.line", who=names[d["seat"]],
               bid=_bid(variant, d["played"], w), par=_bid(variant, d["options"][1]["bid"], w),
               cost=Number(d["options"][0]["cost"]))
             for d in bids[:MOST_BIDS]]
    if len(bids) > MOST_BIDS:
        lines.append(w.plural("analysis.more", len(bids) - MOST_BIDS))
    return lines


def card_lines(deal: dict[str, Any], actions: Sequence[dict[str, Any]], names: Sequence[str],
               w: Words) -> list[str]:
    """Each player's chosen cards that cost something, biggest first."""
    costly: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []
    for d in deal["decisions"]:
        options = d["options"]
        if "card" not in options[0]:
            continue
        by = actions[d["action"]].get("by") if d["action"] < len(actions) else None
        chosen = next(o for o in options if o["card"] == d["played"])
        if chosen["cost"] > 0 and counted(options, by):
            best = min(options, key=lambda o: (o["cost"], o["cost_points"]))
            costly.append((d, chosen, best))
    costly.sort(key=lambda c: (-c[1]["cost"], -c[1]["cost_points"], c[0]["action"]))
    lines = [w("analysis.card.line", who=names[d["seat"]],
               trick=d_trick(deal, d), played=card_label(d["played"], w),
               best=card_label(best["card"], w),
               cost=Number(chosen["cost"]),
               points=w.plural("analysis.card_points", int(chosen["cost_points"])))
             for d, chosen, best in costly[:MOST_CARDS]]
    if len(costly) > MOST_CARDS:
        lines.append(w.plural("analysis.more", len(costly) - MOST_CARDS))
    return lines


def d_trick(deal: dict[str, Any], decision: dict[str, Any]) -> int:
    """The trick (from 1) a card decision was in: its place among the deal's cards."""
    cards = [d["action"] for d in deal["decisions"] if "card" in d["options"][0]]
    return sorted(cards).index(decision["action"]) // 4 + 1


def _average(total: int, cards: int) -> float:
    return round(total / cards, 1) if cards else 0.0


def player_lines(players: Sequence[PlayerCost], names: Sequence[str], w: Words) -> list[str]:
    """A line per player for the match: accuracy and average cost per card."""
    people = {p.seat for p in players if p.user_id}
    lines: list[str] = []
    for p in players:
        name = names[p.seat]
        if not p.user_id and p.seat in people:  # a computer took this person's seat
            name = w("analysis.player.computer_for", name=name)
        if not p.cards:
            continue
        lines.append(w("analysis.player.line", who=name,
                       accuracy=round(100 * p.exact / p.cards), cards=Number(p.cards),
                       cost=w.number(_average(p.cost, p.cards)),
                       points=w.number(_average(p.cost_points, p.cards))))
    return lines


def sheet_analysis(deal: dict[str, Any], actions: Sequence[dict[str, Any]]) -> SheetAnalysis:
    """What the deal sheet shows of a deal's stored analysis (``deal``, deal_json's shape;
    ``actions`` the record's actions of that deal, for who played each card): the par, and
    each seat's accuracy over its chosen cards of the deal and its costliest chosen card
    (the biggest cost in the deal's score, then in card points; the earlier on a tie)."""
    cards: list[list[int]] = [[0, 0] for _ in range(4)]  # chosen, exact
    costliest: list[tuple[dict[str, Any], dict[str, Any]] | None] = [None] * 4
    for d in deal["decisions"]:
        options = d["options"]
        if "card" not in options[0]:
            continue
        by = actions[d["action"]].get("by") if d["action"] < len(actions) else None
        if not counted(options, by):
            continue
        seat = d["seat"]
        chosen = next(o for o in options if o["card"] == d["played"])
        cards[seat][0] += 1
        cards[seat][1] += chosen["cost"] == 0
        top = costliest[seat]
        if chosen["cost"] > 0 and (top is None or (chosen["cost"], chosen["cost_points"]) >
                                   (top[1]["cost"], top[1]["cost_points"])):
            costliest[seat] = (d, chosen)
    seats: list[SeatAnalysis] = []
    for seat in range(4):
        chosen_cards, exact = cards[seat]
        top = costliest[seat]
        worst = None
        if top is not None:
            d, chosen = top
            best = min(d["options"], key=lambda o: (o["cost"], o["cost_points"]))
            worst = CostlyCard(parse_card(d["played"]), parse_card(best["card"]),
                               int(chosen["cost"]))
        seats.append(SeatAnalysis(round(100 * exact / chosen_cards) if chosen_cards else None,
                                  worst))
    par = deal["par"]
    contract = contract_of(par)
    return SheetAnalysis(contract, int(par["score"]) if contract is not None else 0,
                         (seats[0], seats[1], seats[2], seats[3]))


async def sheet_analysis_of(runner: AnalysisRunner, rp: Replay, deal: int
                            ) -> SheetAnalysis | None:
    """The analysis strip of deal ``deal``'s sheet (from 1), once the match's analysis is done;
    None before (the sheet is drawn without it), or if what is stored does not read."""
    index = deal - 1
    data = await runner.done_deal(rp.row.table_id, index)
    if data is None:
        return None
    deals = rp.record.get("deals") or []
    actions = deals[index].get("actions", []) if index < len(deals) else []
    try:
        return sheet_analysis(data, actions)
    except (KeyError, ValueError, TypeError, StopIteration):
        log.exception("match %s: deal %s's stored analysis does not read; sheet without it",
                      rp.row.table_id, deal)
        return None


@dataclass(frozen=True, slots=True)
class DealPage:
    """The lines of one deal's analysis (names as the caller gave them)."""

    deal: int  # from 1 among the analysed deals
    deals: int
    par: str
    bids: list[str]
    cards: list[str]
    players: list[str]


def deal_page(variant: Variant, names: Sequence[str], record_deals: Sequence[dict[str, Any]],
              analysed: dict[int, dict[str, Any]], players: Sequence[PlayerCost], deal: int,
              w: Words) -> DealPage:
    """Deal ``deal`` (from 1 among the analysed deals; moved within them)."""
    order = sorted(analysed)
    deal = min(max(deal, 1), len(order))
    index = order[deal - 1]
    data = analysed[index]
    actions = record_deals[index]["actions"] if index < len(record_deals) else []
    return DealPage(deal, len(order), par_line(data["par"], names, w),
                    bid_lines(variant, data, names, w), card_lines(data, actions, names, w),
                    player_lines(players, names, w))


def analysis_text(table: int, variant: Variant, names: Sequence[str],
                  record_deals: Sequence[dict[str, Any]], analysed: dict[int, dict[str, Any]],
                  players: Sequence[PlayerCost], deal: int, w: Words) -> str:
    """The Analysis page of deal ``deal`` as a Discord message (names as text)."""
    p = deal_page(variant, [as_text(n) for n in names], record_deals, analysed, players,
                  deal, w)
    parts = [w("analysis.title", table=table, deal=p.deal, deals=p.deals), p.par]
    parts.append(w("analysis.bids") if p.bids else w("analysis.bids.none"))
    parts += [f"• {line}" for line in p.bids]
    parts.append(w("analysis.cards") if p.cards else w("analysis.cards.none"))
    parts += [f"• {line}" for line in p.cards]
    if p.players:
        parts.append(w("analysis.players"))
        parts += [f"• {line}" for line in p.players]
    parts.append("-# " + w("analysis.legend"))
    text = "\n".join(parts)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT - 1] + "…"


def progress_text(table: int, progress: Progress, w: Words) -> str:
    """What the page says while the match is analysed (or why it is not)."""
    title = w("analysis.title_short", table=table)
    if progress.state == QUEUED:
        return f"{title}\n{w('analysis.progress.queued')}"
    if progress.state == FAILED:
        return f"{title}\n{w('analysis.progress.failed')}"
    if progress.state == DONE:
        return f"{title}\n{w('analysis.progress.done')}"
    if not progress.deals:
        return f"{title}\n{w('analysis.progress.starting')}"
    return f"{title}\n" + w("analysis.progress.running",
                            deal=min(progress.done + 1, progress.deals), deals=progress.deals)
