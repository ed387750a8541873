"""What the bot's messages say and which controls they carry. No Discord calls here.

Public texts are built from the public view only (game.view with no seat), so they cannot
name a hidden card. The hand text and controls are built for one seat and go to that player only.
"""

from __future__ import annotations

from collections import defaultdict

import discord

from db import TableStatus
from game.actions import (
    CAPOT,
    Action,
    CoincheBid,
    ContractBid,
    Contre,
    Double,
    Pass,
    Play,
    Redouble,
    Surcontre,
    Take,
)
from game.announcements import Announcement
from game.cards import Card
from game.choices import announce_choices, best_of, choice_code, holds_belote, may_announce
from game.rules import OPTION_NAMES, SUGGESTED_TARGETS, TRUMP_NAMES, Options, Variant
from game.scoring import DealResult
from game.view import Stage, TableView

from .components import TableButton, TableSelect, button_id, encode_action, select_id
from .computers import available_levels, computer_label
from .tables import SEAT_NAMES, TEAM_NAMES, LiveTable, SeatChoice

SUIT_SYMBOLS = "♣♦♥♠"
RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")
TRUMP_LABELS = ("♣", "♦", "♥", "♠", "No trumps", "All trumps")
VARIANT_TITLES = {Variant.CLASSIC: "Classic (French)", Variant.COINCHE: "Coinche (Contrée)",
                  Variant.BULGARIAN: "Bulgarian Belot"}
NO_MENTIONS = discord.AllowedMentions.none()


def card_label(c: Card) -> str:
    return RANK_LABELS[c & 7] + SUIT_SYMBOLS[c >> 3]


def action_label(action: Action) -> str:
    if isinstance(action, Pass):
        return "Pass"
    if isinstance(action, Take):
        return "Take" if action.suit is None else f"Take {SUIT_SYMBOLS[action.suit]}"
    if isinstance(action, CoincheBid):
        value = "Capot" if action.value == CAPOT else str(action.value)
        return f"{value} {SUIT_SYMBOLS[action.suit]}"
    if isinstance(action, ContractBid):
        return TRUMP_LABELS[action.contract]
    if isinstance(action, Play):
        return card_label(action.card)
    return type(action).__name__  # Contre, Surcontre, Double, Redouble


def header(live: LiveTable) -> str:
    options = live.options
    private = " · invite only" if live.row.private else ""
    return (f"**Belote table #{live.id}** · {VARIANT_TITLES[live.variant]} · "
            f"to {options.target} points{private}")


def timer_text(seconds: int | None) -> str:
    """``off``, ``45 s``, ``2 min``."""
    if not seconds:
        return "off"
    return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"


def deadline_text(live: LiveTable) -> str:
    """When the turn timer runs out, as Discord's relative timestamp (each reader's clock)."""
    return f"<t:{int(live.deadline)}:R>" if live.deadline is not None else ""


def seat_label(live: LiveTable, seat: int) -> str:
    """Who sits at ``seat`` as the lobby and the rules card say it: a computer with its level
    ("⚙ Remy (hard)"); the images and the deal sheets name it without ("⚙ Remy")."""
    s = live.seats.get(seat)
    if s is not None and s.computer is not None and s.user_id is None:
        return computer_label(seat, s.computer)
    return live.names()[seat]


def _seat_line(live: LiveTable, seat: int) -> str:
    s = live.seats.get(seat)
    return f"{SEAT_NAMES[seat]}: {seat_label(live, seat) if s is not None else '(empty)'}"


# ---- the table message -------------------------------------------------------------------
def lobby_text(live: LiveTable) -> str:
    lines = [header(live), f"Host: <@{live.row.host_id}>"]
    for team, seats in ((0, (0, 2)), (1, (1, 3))):
        lines.append(f"Team {TEAM_NAMES[team]} — " +
                     " · ".join(_seat_line(live, s) for s in seats))
    lines.append(options_line(live.variant, live.options))
    lines.append(f"Turn timer: {timer_text(live.row.turn_timer)} · computers: {live.level}")
    lines.append("Pick a seat below; partners sit opposite. The host starts when all four "
                 "seats are taken.")
    return "\n".join(lines)


def lobby_view(live: LiveTable) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for seat in range(4):
        s = live.seats.get(seat)
        label = f"{SEAT_NAMES[seat]}: {seat_label(live, seat)}" if s else f"Sit {SEAT_NAMES[seat]}"
        style = discord.ButtonStyle.primary if s is None else discord.ButtonStyle.secondary
        view.add_item(TableButton(button_id("sit", live.id, seat), label=label[:80],
                                  style=style, row=0))
    view.add_item(TableButton(button_id("start", live.id), label="Start",
                              style=discord.ButtonStyle.success, row=1))
    view.add_item(TableButton(button_id("leave", live.id), label="Leave",
                              style=discord.ButtonStyle.danger, row=1))
    view.add_item(TableButton(button_id("rules", live.id), label="Rules", row=1))
    # A row of "add a computer" buttons per level, the table's own first (its custom_id names
    # no level); two levels fill rows 2 and 3 of Discord's 5.
    levels = [live.level] + [lv for lv in available_levels() if lv != live.level]
    for row, level in enumerate(levels[:3], start=2):
        for seat in range(4):
            if seat not in live.seats:
                args = (seat,) if level == live.level else (seat, level)
                view.add_item(TableButton(button_id("cpu", live.id, *args),
                                          label=f"{level.title()} → {SEAT_NAMES[seat]}",
                                          emoji="🤖", row=row))
    return view


def table_text(live: LiveTable, view: TableView) -> str:
    names = view.players
    lines = [header(live) + (f" · deal {view.deal_number}" if view.deal_number else "")]
    lines.append(" · ".join(f"{SEAT_NAMES[i]}: {names[i]}" for i in range(4)))
    if view.stage is Stage.BIDDING:
        bids = ", ".join(f"{names[s]} {action_label(a).lower()}" for s, a in view.bids)
        turned = f" · turned card {card_label(view.turned_card)}" \
            if view.turned_card is not None else ""
        lines.append(f"Bidding{turned}: {bids or 'no bid yet'}")
    if view.contract is not None:
        c = view.contract
        lines.append(f"Contract: {c.describe()} by {names[c.seat]} "
                     f"({TEAM_NAMES[c.team]})")
    if view.trick is not None and view.trick.cards:
        played = ", ".join(f"{names[view.trick.seat_of(i)]} {card_label(c)}"
                           for i, c in enumerate(view.trick.cards))
        lines.append(f"Trick: {played}")
    score = (f"Score: {TEAM_NAMES[0]} {view.totals[0]} · {TEAM_NAMES[1]} {view.totals[1]}")
    if view.hanging:
        score += f" · {view.hanging} held for the next deal"
    lines.append(score)
    if view.winner is not None:
        lines.append(f"🏆 **{TEAM_NAMES[view.winner]}** win the match "
                     f"({view.totals[view.winner]} to {view.totals[1 - view.winner]}).")
    elif live.paused:
        lines.append("⏸ **Paused**: every player ran out of time. **Take my seat back** to "
                     "go on.")
    elif view.to_act is not None:
        what = "bid" if view.stage is Stage.BIDDING else "play"
        seat = live.seats.get(view.to_act)
        human = seat is not None and seat.is_human
        closed = seat is not None and seat.is_human and seat.dm_closed
        lines.append(f"▶ **{names[view.to_act]}** to {what}" +
                     (" (uses **My hand**)" if closed else "") +
                     (f" · time runs out {deadline_text(live)}"
                      if human and live.deadline is not None else ""))
    for s in live.seats.values():
        if s.timed_out and s.computer is not None and view.winner is None:
            lines.append(f"⏱ {s.name} ran out of time: a computer plays for them until they "
                         "take their seat back.")
    return "\n".join(lines)


def table_view_controls(live: LiveTable) -> discord.ui.View | None:
    if live.row.status != TableStatus.PLAYING:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(button_id("hand", live.id), label="My hand", emoji="🂠",
                              style=discord.ButtonStyle.primary))
    view.add_item(TableButton(button_id("rules", live.id), label="Rules"))
    if any(s.user_id is not None and s.computer is not None for s in live.seats.values()):
        view.add_item(TableButton(button_id("back", live.id), label="Take my seat back"))
    return view


# ---- a player's hand ----------------------------------------------------------------------
def announcement_label(a: Announcement) -> str:
    if a.carre_rank is not None:
        return f"{a.name()} ({a.points})"
    return f"{a.name()} {SUIT_SYMBOLS[a.suit or 0]} to {RANK_LABELS[a.top]} ({a.points})"


def declaration_label(anns: list[Announcement]) -> str:
    return " + ".join(announcement_label(a) for a in anns) if anns else "nothing"


def announce_options(view: TableView) -> list[tuple[str, str]]:
    """(code, label) of the announcements the viewer may choose (game.choices says which),
    as the select offers them: the best, at most 23 others, nothing."""
    choices = announce_choices(view)
    if not choices:
        return []
    best, others, nothing = choices[0], choices[1:-1], choices[-1]
    out = [(best.code, f"Announce the best: {declaration_label(list(best.announcements))}"[:100])]
    out += [(c.code, f"Only {declaration_label(list(c.announcements))}"[:100])
            for c in others[:23]]
    out.append((nothing.code, "Announce nothing"))
    return out


def choice_lines(view: TableView, choice: SeatChoice) -> list[str]:
    lines = []
    if may_announce(view) and best_of(view):
        if choice.declare is None:
            what = declaration_label(best_of(view))
        else:
            what = " + ".join(" ".join(card_label(c) for c in g) for g in choice.declare) \
                or "nothing"
        lines.append(f"With your first card you announce: **{what}** (change it below).")
    if holds_belote(view):
        lines.append("Belote: " + ("announced when you play the king or queen of trumps."
                                   if choice.belote else "**not** announced."))
    return lines


def hand_text(live: LiveTable, view: TableView) -> str:
    where = f"<#{live.row.home_id}>"
    lines = [f"**Your hand** at table #{live.id} ({VARIANT_TITLES[live.variant]}, "
             f"deal {view.deal_number}) in {where}"]
    lines.append(" ".join(card_label(c) for c in view.hand) or "(no cards)")
    if live.lost is not None:
        lines.append(f"⚠ {live.lost}. Your game is saved and goes on here: use "
                     "`/belote show` in a channel where I may post to bring the table there.")
    seat = live.seats.get(view.viewer) if view.viewer is not None else None
    if seat is not None and seat.computer is not None:
        why = "your time ran out" if seat.timed_out else "you left"
        lines.append(f"A computer plays this seat since {why}: **Take my seat back** below "
                     "(or on the table message) to play again.")
    elif view.winner is not None:
        lines.append("The match is over.")
    else:
        if view.viewer is not None:
            lines += choice_lines(view, live.choice(view.viewer))
        if view.is_my_turn:
            lines.append("▶ **Your turn**: " + ("bid or pass" if view.stage is Stage.BIDDING
                                               else "play a card") +
                         (f" (time runs out {deadline_text(live)}; then a computer plays for "
                          "you)." if live.deadline is not None else "."))
        elif view.to_act is not None:
            lines.append(f"Waiting for {view.players[view.to_act]}.")
    return "\n".join(lines)


def hand_controls(live: LiveTable, view: TableView) -> discord.ui.View | None:
    """Bidding controls on the holder's turn; card buttons during the play, with the
    announcement and belote choices when they apply; "take my seat back" after leaving."""
    seq = live.seq
    out = discord.ui.View(timeout=None)
    seat = live.seats.get(view.viewer) if view.viewer is not None else None
    if view.winner is not None or seat is None:
        return None
    if seat.computer is not None:
        out.add_item(TableButton(button_id("back", live.id), label="Take my seat back",
                                 style=discord.ButtonStyle.primary))
        return out
    if view.stage is Stage.BIDDING:
        if not view.is_my_turn:
            return None
        by_suit: dict[int, list[CoincheBid]] = defaultdict(list)
        buttons: list[Action] = []
        for a in view.legal_actions:
            if isinstance(a, CoincheBid):
                by_suit[a.suit].append(a)
            else:
                buttons.append(a)
        row = 0
        for suit, bids in sorted(by_suit.items()):
            options = [discord.SelectOption(label=action_label(b), value=encode_action(b))
                       for b in bids]
            out.add_item(TableSelect(select_id("bid", live.id, seq, suit),
                                     placeholder=f"Bid in {SUIT_SYMBOLS[suit]} "
                                                 f"{TRUMP_NAMES[suit]}…",
                                     options=options[:25], row=row))
            row += 1
        for i, a in enumerate(buttons):
            style = discord.ButtonStyle.secondary if isinstance(a, Pass) else \
                discord.ButtonStyle.danger if isinstance(a, Contre | Surcontre | Double |
                                                         Redouble) \
                else discord.ButtonStyle.primary
            out.add_item(TableButton(button_id("act", live.id, seq, encode_action(a)),
                                     label=action_label(a), style=style,
                                     row=min(4, row + i // 5)))
        return out
    if view.stage is not Stage.PLAY:
        return None
    legal = set(view.legal_cards)
    for i, c in enumerate(view.hand):
        red = (c >> 3) in (1, 2)
        out.add_item(TableButton(
            button_id("act", live.id, seq, encode_action(Play(c))), label=card_label(c),
            style=discord.ButtonStyle.danger if red else discord.ButtonStyle.secondary,
            disabled=c not in legal, row=i // 4))
    choice = live.choice(seat.seat)
    choices = announce_options(view)
    if choices:
        chosen = choice_code(choice.declare)
        options = [discord.SelectOption(label=label, value=value, default=value == chosen)
                   for value, label in choices]
        out.add_item(TableSelect(select_id("ann", live.id, view.deal_number),
                                 placeholder="Announcements with your first card…",
                                 options=options, row=2))
    if holds_belote(view):
        out.add_item(TableButton(
            button_id("blt", live.id, view.deal_number, 0 if choice.belote else 1),
            label="Belote: announce ✓" if choice.belote else "Belote: don't announce ✗",
            style=discord.ButtonStyle.success if choice.belote
            else discord.ButtonStyle.secondary, row=3))
    return out


# ---- rules and results ----------------------------------------------------------------------
def options_line(variant: Variant, options: Options) -> str:
    parts = [f"target {options.target}"]
    if "announcements" in OPTION_NAMES[variant]:
        parts.append(f"announcements {'on' if options.announcements else 'off'}")
    if "must_undertrump" in OPTION_NAMES[variant]:
        parts.append(f"must under-trump {'on' if options.must_undertrump else 'off'}")
    parts.append(f"shuffle {options.shuffle.value}")
    return "Options: " + ", ".join(parts) + "."


VARIANT_RULES = {
    Variant.CLASSIC: (
        "32 cards, two teams, partners opposite. Five cards each and one turned up: in round "
        "one take the turned suit or pass; in round two name another suit or pass. The taker's "
        "team needs more points than the defence (162 in cards, 10 for the last trick). "
        "Follow suit; trump when you cannot; over-trump when you can."),
    Variant.COINCHE: (
        "All eight cards are dealt. Bid a value (80 to 160, or capot) and a trump suit; the "
        "opponents may contre (double), the bidders surcontre. The bidders must make their "
        "bid; made contracts score the bid plus the points taken."),
    Variant.BULGARIAN: (
        "Five cards each, then bid a contract: clubs < diamonds < hearts < spades < no trumps "
        "< all trumps; double and redouble. Three more cards each after the bidding. Scores "
        "are divided by ten and rounded; equal points hang over to the next deal."),
}


def rules_card(live: LiveTable) -> str:
    o = live.options
    v = live.variant
    lines = [f"**Rules at table #{live.id}: {VARIANT_TITLES[v]}**",
             f"• Target: {o.target} points (suggested: "
             f"{', '.join(str(t) for t in SUGGESTED_TARGETS[v])})"]
    if "announcements" in OPTION_NAMES[v]:
        lines.append(f"• Announcements (sequences, carrés): {'on' if o.announcements else 'off'}"
                     "; belote/rebelote always counts")
    if "must_undertrump" in OPTION_NAMES[v]:
        lines.append(f"• Must under-trump when you cannot over-trump: "
                     f"{'yes' if o.must_undertrump else 'no'}")
    lines.append(f"• Shuffle: {o.shuffle.value}" +
                 (" (the last deal's cards are gathered and cut)" if o.shuffle.value == "cut"
                  else " (a fresh shuffle each deal)"))
    lines.append(f"• Seats: {'invite only' if live.row.private else 'open to everyone'}")
    if live.row.turn_timer:
        lines.append(f"• Turn timer: {timer_text(live.row.turn_timer)}; a player who runs out "
                     "of time is replaced by a computer and may take the seat back")
    else:
        lines.append("• Turn timer: off")
    others = [f"{SEAT_NAMES[s.seat]} {s.computer}" for s in live.seats.values()
              if s.computer is not None and s.user_id is None and s.computer != live.level]
    lines.append(f"• Computers play at level {live.level}" +
                 (f" ({', '.join(others)})" if others else "") +
                 "; they take over for players who leave")
    computers = [seat_label(live, s.seat) for s in sorted(live.seats.values(), key=lambda s: s.seat)
                 if s.computer is not None and s.user_id is None]
    if computers:
        lines.append(f"• At this table: {', '.join(computers)}")
    lines.append(VARIANT_RULES[v])
    return "\n".join(lines)


def variant_rules(variant: Variant) -> str:
    o = Options.for_variant(variant)
    return (f"**{VARIANT_TITLES[variant]}**\n{VARIANT_RULES[variant]}\n"
            f"Defaults — {options_line(variant, o)}")


def deal_sheet_text(live: LiveTable, index: int, result: DealResult) -> str:
    names = live.names()
    title = f"**Deal {index + 1}** at table #{live.id}: "
    if result.contract is None:
        return title + "everybody passed; the cards are dealt again."
    c = result.contract
    lines = [title + f"{c.describe()} by {names[c.seat]} — {result.outcome.value}"]
    lines.append(f"Card points: {TEAM_NAMES[0]} {result.card_points[0]} · "
                 f"{TEAM_NAMES[1]} {result.card_points[1]}")
    lines.append(f"Deal score: {result.score[0]} – {result.score[1]} · "
                 f"totals {result.totals[0]} – {result.totals[1]}" +
                 (f" · {result.hanging} held" if result.hanging else ""))
    return "\n".join(lines)


def match_text(live: LiveTable, winner: int, totals: tuple[int, int],
               ratings: dict[int, tuple[float, float]]) -> str:
    lines = [f"🏆 **Table #{live.id}: {TEAM_NAMES[winner]} win** "
             f"{totals[winner]} to {totals[1 - winner]}."]
    for user_id, (before, after) in ratings.items():
        lines.append(f"<@{user_id}>: rating {before:.0f} → {after:.0f}")
    return "\n".join(lines)

