"""A finished match, step by step, for a replay a viewer steps through card by card.

``steps(record)`` replays a game record (game/record.py) through the rules and says, after the
deal's start and after every bid and every card, what the table was: each seat's hand (face up:
the match is over), the cards of the trick on the table, the contract, the card points and
tricks each team has won in the deal, and the match's totals. The card that ends a trick keeps
that trick on the table (with its winner); the action that ends a deal carries its result.

Nothing here words anything: the viewer (web/replay.py) does, from the catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import Action, Play
from .announcements import Announcement
from .cards import Card, CardSet, cards_of, shown_order
from .contract import Contract
from .deal import BeloteCall, Deal
from .match import Match
from .record import GameRecord, action_from_json, apply_json, parse_record
from .scoring import DealResult


@dataclass(frozen=True, slots=True)
class Step:
    deal: int  # the deal's index in the match, from 0
    dealer: int
    seat: int | None  # who acted; None: the deal's start (its cards just dealt)
    action: Action | None
    hands: tuple[tuple[Card, ...], ...]  # each seat's cards after the step, in showing order
    trick: tuple[tuple[int, Card], ...]  # (seat, card) on the table, from the trick's leader
    trick_winner: int | None  # when this card ended the trick: the seat that took it
    turned: Card | None  # the card turned face up for the auction (classic), while bidding
    contract: Contract | None
    card_points: tuple[int, int]  # won in tricks so far in this deal, per team
    tricks_won: tuple[int, int]
    totals: tuple[int, int]  # the match's totals (with this deal's once it is over)
    announced: tuple[Announcement, ...]  # declared with this card
    belote: BeloteCall | None  # belote or rebelote said with this card
    result: DealResult | None  # when this step ended the deal
    # Who decided the action when it was not the person's click on their turn: the record's
    # "by" (docs/game-record.md: forced, ahead, claim, computer, timeout; a newer bot's other
    # words are kept as they are); None: a click, or a record from before it said.
    by: str | None = None


# Hands already put in showing order, by (cards, trump suit, trump cards): a step changes
# one hand, so a deal's steps order each of the others once (one dict for a call of steps).
_Shown = dict[tuple[CardSet, int | None, CardSet], tuple[Card, ...]]


def _shown(hand: CardSet, suit: int | None, trumps: CardSet, shown: _Shown) -> tuple[Card, ...]:
    key = (hand, suit, trumps)
    order = shown.get(key)
    if order is None:
        order = shown[key] = shown_order(cards_of(hand), suit, trumps)
    return order


def _snapshot(match: Match, deal: Deal, index: int, seat: int | None, action: Action | None,
              before: tuple[int, int, int], by: str | None, shown: _Shown) -> Step:
    """The table after ``action``; ``before``: how many tricks, announcements and belote
    calls the deal had before it."""
    tricks, announced, calls = before
    trumps = deal.contract.trump_cards if deal.contract is not None else 0
    c = deal.contract
    suit = int(c.trump) if c is not None and c.trump.is_suit else None
    hands = tuple(_shown(h, suit, trumps, shown) for h in deal.hands)
    winner: int | None = None
    if len(deal.tricks) > tricks:  # this card ended a trick: it stays shown, with its winner
        done = deal.tricks[-1]
        trick = tuple((done.seat_of(i), c) for i, c in enumerate(done.cards))
        winner = done.winner
    else:
        trick = tuple(((deal.trick_leader + i) & 3, c) for i, c in enumerate(deal.trick))
    result = match.results[index] if deal.is_over and len(match.results) > index else None
    totals = result.totals if result is not None else (
        match.results[index - 1].totals if index > 0 else (0, 0))
    return Step(
        deal=index, dealer=deal.dealer, seat=seat, action=action, hands=hands, trick=trick,
        trick_winner=winner,
        turned=deal.turned_card if deal.contract is None and not deal.is_over else None,
        contract=deal.contract, card_points=(deal.won_points[0], deal.won_points[1]),
        tricks_won=(deal.tricks_won[0], deal.tricks_won[1]),
        totals=(totals[0], totals[1]),
        announced=tuple(deal.announcements[announced:]),
        belote=deal.belote_calls[calls] if len(deal.belote_calls) > calls else None,
        result=result, by=by)


def step_counts(record: GameRecord | Any) -> list[int]:
    """How many steps each deal has (its start, then one an action), without replaying it."""
    rec = record if isinstance(record, GameRecord) else parse_record(record)
    return [1 + len(d.actions) for d in rec.deals]


def steps(record: GameRecord | Any, deal: int | None = None, *,
          start: Match | None = None) -> list[Step]:
    """Every step of a record's match, in order; with ``deal``, only that deal's (the deals
    before it replayed without a step kept: a page shows one deal). ``start``: the match as it
    stood when ``deal`` was about to be dealt (``Match.at_deal`` of the record's replayed
    match, played on: a new one for each call): that deal is played from there, the deals
    before it not replayed again; the steps are the same. Raises ReplayError as ``replay``
    does."""
    rec = record if isinstance(record, GameRecord) else parse_record(record)
    if start is not None:
        if deal is None or len(start.deals) != deal or not 0 <= deal < len(rec.deals):
            raise ValueError(f"a start state is the match before deal {deal}: it has "
                             f"{len(start.deals)} deals, the record {len(rec.deals)}")
        match, first = start, deal
    else:
        first_dealer = rec.deals[0].dealer if rec.deals else 0
        match = Match(rec.variant, rec.options, first_dealer=first_dealer,
                      players=rec.players)
        first = 0
    out: list[Step] = []
    shown: _Shown = {}
    for i in range(first, len(rec.deals)):
        if deal is not None and i > deal:
            break
        d = rec.deals[i]
        played = match.start_deal(d.deck)
        kept = deal is None or i == deal
        if kept:
            out.append(_snapshot(match, played, i, None, None, (0, 0, 0), None, shown))
        for j, raw in enumerate(d.actions):
            before = (len(played.tricks), len(played.announcements),
                      len(played.belote_calls))
            seat = played.to_act
            apply_json(match, played, raw, deal_index=i, action_index=j)
            if kept:
                action = action_from_json(match.variant, raw)  # applied: it parses
                out.append(_snapshot(match, played, i, seat, action, before, decided_by(raw),
                                     shown))
    return out


def decided_by(raw: Any) -> str | None:
    """A logged action's "by" (who decided it when not its person's click), if it says."""
    # A dict told at once: the Mapping test (the ABC's hook) would cost more than the rest.
    by = raw.get("by") if type(raw) is dict or isinstance(raw, Mapping) else None
    return by if isinstance(by, str) and by else None


def computer_seats(record: GameRecord | Any) -> frozenset[int]:
    """The seats a computer played from start to end: every one of their actions in the record
    says "by": "computer", but for the cards a claim played out (a replay need not mark each
    of them as a computer's)."""
    rec = record if isinstance(record, GameRecord) else parse_record(record)
    seen: dict[int, bool] = {}
    for d in rec.deals:
        for raw in d.actions:
            seat = raw.get("seat") if type(raw) is dict or isinstance(raw, Mapping) else None
            if isinstance(seat, int) and (by := decided_by(raw)) != "claim":
                seen[seat] = seen.get(seat, True) and by == "computer"
    return frozenset(seat for seat, computer in seen.items() if computer)


@dataclass(frozen=True, slots=True)
class Decided:
    """Who decided a deal's actions when not their person's click: how many each "by" of the
    record (forced, ahead, computer, timeout, a newer bot's others; a computer's seat's moves
    left out), and the claim's claimant and cards."""

    counts: dict[str, int]
    claimant: int | None
    claimed: int  # cards the claim played out


def decided(record: GameRecord | Any, deal: int) -> Decided:
    """The actions of deal ``deal`` (from 0) of the record not clicked by their person."""
    rec = record if isinstance(record, GameRecord) else parse_record(record)
    computers = computer_seats(rec)
    counts: dict[str, int] = {}
    who: int | None = None
    claimed = 0
    for raw in rec.deals[deal].actions:
        by = decided_by(raw)
        seat = raw.get("seat") if isinstance(raw, Mapping) else None
        if by is None or (by == "computer" and seat in computers):
            continue
        if by == "claim":
            claimed += 1
            if who is None and isinstance(seat, int):
                who = seat
            continue
        counts[by] = counts.get(by, 0) + 1
    return Decided(counts, who, claimed)


def is_card(step: Step) -> bool:
    return isinstance(step.action, Play)
