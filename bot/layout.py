"""Which controls each message carries, and in which rows: the lobby's, the table message's
during a game, and a player's hand (bids on their turn, cards, the announcement and belote
choices, a claim). No Discord calls here; each control's look is its class's
(bot/controls/), each word the catalogue's.
"""

from __future__ import annotations

from collections import defaultdict

import discord

from db import TableStatus
from game.actions import Action, CoincheBid, ContractBid, Take
from game.cards import card_str
from game.choices import PASS_AHEAD, WAITING, choice_code, holds_belote
from game.claim import claim_plan
from game.view import Stage, TableView, shown_order
from i18n import DEFAULT_LANGUAGE, words
from service.computers import available_levels
from service.tables import LiveTable

from .controls import (
    ActButton,
    AheadButton,
    AnnounceSelect,
    BeloteButton,
    BidSelect,
    ClaimButton,
    ComputerButton,
    HandButton,
    LeaveButton,
    RulesButton,
    SitButton,
    StartButton,
    TakeBackButton,
    UnaheadButton,
)
from .messages import announce_options, seat_line

EN = DEFAULT_LANGUAGE
# Buttons in a row of a hand's controls: four fit a phone's width (cards and bids alike).
ROW = 4


def lobby_view(live: LiveTable, language: str = EN) -> discord.ui.View:
    w = words(language)
    view = discord.ui.View(timeout=None)
    for seat in range(4):
        taken = seat_line(live, seat, w, markdown=False) if seat in live.seats else None
        view.add_item(SitButton.shown(live.id, seat, w, taken, row=0))
    view.add_item(StartButton.shown(live.id, w, row=1))
    view.add_item(LeaveButton.shown(live.id, w, row=1))
    view.add_item(RulesButton.shown(live.id, w, row=1))
    # A row of "add a computer" buttons per level, the table's own first (its custom_id names
    # no level); two levels fill rows 2 and 3 of Discord's 5.
    levels = [live.level] + [lv for lv in available_levels() if lv != live.level]
    for row, level in enumerate(levels[:3], start=2):
        for seat in range(4):
            if seat not in live.seats:
                view.add_item(ComputerButton.shown(live.id, seat, level, live.level, w,
                                                   row=row))
    return view


def table_view_controls(live: LiveTable, language: str = EN) -> discord.ui.View | None:
    if live.row.status != TableStatus.PLAYING:
        return None
    w = words(language)
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton.shown(live.id, w))
    view.add_item(RulesButton.shown(live.id, w))
    if any(s.user_id is not None and s.computer is not None and live.may_take_back(s)
           for s in live.seats.values()):
        view.add_item(TakeBackButton.shown(live.id, w))
    return view


def _bidding_controls(live: LiveTable, view: TableView, out: discord.ui.View,
                      language: str) -> None:
    seq = live.seq
    by_suit: dict[int, list[CoincheBid]] = defaultdict(list)
    buttons: list[Action] = []
    for a in view.legal_actions:
        if isinstance(a, CoincheBid):
            by_suit[a.suit].append(a)
        else:
            buttons.append(a)
    row = 0
    for suit, bids in sorted(by_suit.items()):
        out.add_item(BidSelect.shown(live.id, seq, suit, bids, language, row=row))
        row += 1
    # Rows of at most four buttons, as a phone shows them without wrapping: a short choice on
    # one row; more, the contracts in rows of four and the calls (pass, double...) below.
    # Coinche's four suits' selects leave one row, for its two calls at most; bulgarian's six
    # contracts and two calls take three: the controls never pass Discord's five rows.
    rows: list[list[Action]] = [buttons]
    if len(buttons) > ROW:
        contracts: list[Action] = [a for a in buttons if isinstance(a, Take | ContractBid)]
        calls: list[Action] = [a for a in buttons if not isinstance(a, Take | ContractBid)]
        rows = [contracts[i:i + ROW] for i in range(0, len(contracts), ROW)]
        rows += [calls[i:i + ROW] for i in range(0, len(calls), ROW)]
    for k, line in enumerate(rows):
        for a in line:
            out.add_item(ActButton.bid(live.id, seq, a, language, row=min(4, row + k)))


def hand_controls(live: LiveTable, view: TableView,
                  language: str = EN) -> discord.ui.View | None:
    """Bidding controls on the holder's turn; card buttons during the play, with the
    announcement and belote choices when they apply; "take my seat back" after leaving."""
    w = words(language)
    out = discord.ui.View(timeout=None)
    seat = live.seats.get(view.viewer) if view.viewer is not None else None
    if view.winner is not None or seat is None:
        return None
    if seat.computer is not None:
        if not live.may_take_back(seat):  # the seat is the computer's to the end
            return None
        out.add_item(TakeBackButton.shown(live.id, w, on_hand=True))
        return out
    status, code = live.ahead(seat.seat)
    chosen = code if status == WAITING else None  # marked: a press cancels it
    if view.stage is Stage.BIDDING:
        if view.is_my_turn:
            _bidding_controls(live, view, out, language)
        elif chosen == PASS_AHEAD:
            out.add_item(UnaheadButton.pass_(live.id, view.deal_number, w))
        else:  # a pass chosen ahead of the turn
            out.add_item(AheadButton.pass_(live.id, view.deal_number, w))
        return out
    if view.stage is not Stage.PLAY:
        return None
    legal = set(view.legal_cards)
    for i, c in enumerate(shown_order(view)):  # as the hand image shows them
        if view.is_my_turn:
            out.add_item(ActButton.card(live.id, live.seq, c, language, legal=c in legal,
                                        row=i // ROW))
        elif chosen == card_str(c):  # the card chosen ahead: a press cancels it
            out.add_item(UnaheadButton.card(live.id, view.deal_number, c, language,
                                            row=i // ROW))
        else:  # while the others play: the card to play next, chosen ahead
            out.add_item(AheadButton.card(live.id, view.deal_number, c, language,
                                          row=i // ROW))
    choice = live.choice(seat.seat)
    choices = announce_options(view, language)
    if choices:
        out.add_item(AnnounceSelect.shown(live.id, view.deal_number, choices,
                                          choice_code(choice.declare), w, row=2))
    if view.is_my_turn and claim_plan(view) is not None:
        out.add_item(ClaimButton.shown(live.id, live.seq, w, row=4))
    if holds_belote(view):
        # The button turns belote the other way: its custom_id says to what.
        out.add_item(BeloteButton.shown(live.id, view.deal_number, choice.belote, w, row=3))
    return out
