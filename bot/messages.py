"""What the bot's messages say. No Discord calls here.

Every word comes from the catalogue (``i18n/locales/<lang>/LC_MESSAGES/messages.po``); each
builder takes the ``language`` to write in (English unless told). Public texts are built from the
public view only (game.view with no seat), so they cannot name a hidden card. The hand text and
controls are built for one seat and go to that player only. Which controls a message carries
is bot/layout.py's; the controls themselves (custom_id, look, handler) are bot/controls/'s.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from game.announcements import Announcement
from game.cards import SUIT_SYMBOLS, parse_card
from game.choices import (
    DROPPED,
    PASS_AHEAD,
    announce_choices,
    best_of,
    holds_belote,
    may_announce,
)
from game.claim import claim_plan
from game.deal import Trick
from game.rules import OPTION_NAMES, SUGGESTED_TARGETS, Options, Variant
from game.scoring import DealResult
from game.view import Stage, TableView, shown_order
from i18n import (
    DEFAULT_LANGUAGE,
    Level,
    Number,
    Seat,
    Team,
    Words,
    action_label,
    announcement_text,
    card_label,
    contract_text,
    faces,
    words,
)
from service.computers import computer_label
from service.markup import as_text, names_as_text
from service.tables import LiveTable, SeatChoice

# What the bot's messages may notify: nobody (a name in a message never pings its member).
NO_MENTIONS = discord.AllowedMentions.none()
# Discord refuses a message whose content is longer than this.
MESSAGE_LIMIT = 2000
EN = DEFAULT_LANGUAGE


def variant_title(variant: Variant, language: str = EN) -> str:
    return words(language)(f"table.variant.{variant.value}")


VARIANT_TITLES = {v: variant_title(v) for v in Variant}  # English, for the command choices


def header(live: LiveTable, language: str = EN) -> str:
    w = words(language)
    target = live.options.target
    return w.plural("table.header_private" if live.row.private else "table.header", target,
                    table=live.id, variant=variant_title(live.variant, language), target=target)


def timer_text(seconds: int | None, language: str = EN) -> str:
    """``off``, ``45 s``, ``2 min``."""
    w = words(language)
    if not seconds:
        return w("table.timer.off")
    if seconds % 60 == 0:
        return w("table.timer.minutes", minutes=seconds // 60)
    return w("table.timer.seconds", seconds=seconds)


def deadline_text(live: LiveTable) -> str:
    """When the turn timer runs out, as Discord's relative timestamp (each reader's clock)."""
    return f"<t:{int(live.deadline)}:R>" if live.deadline is not None else ""


def seat_label(live: LiveTable, seat: int, language: str = EN) -> str:
    """Who sits at ``seat`` as the lobby and the rules card say it: a computer with its level
    ("⚙ Remy (hard)"); the images and the deal sheets name it without ("⚙ Remy")."""
    s = live.seats.get(seat)
    if s is not None and s.computer is not None and s.user_id is None:
        return computer_label(seat, Level(s.computer).text(words(language)))
    return live.names(language)[seat]


def seat_line(live: LiveTable, seat: int, w: Words, *, markdown: bool = True) -> str:
    """``North: ana``; ``markdown``: for a message's text (the name escaped, service/markup.py),
    else for a button's label (shown as it is)."""
    who = seat_label(live, seat, w.language) if live.seats.get(seat) is not None \
        else w("lobby.empty")
    return w("table.seat", seat=Seat(seat), who=as_text(who) if markdown else who)


# ---- the table message -------------------------------------------------------------------
def lobby_text(live: LiveTable, language: str = EN) -> str:
    w = words(language)
    lines = [header(live, language), w("lobby.host", host=f"<@{live.row.host_id}>")]
    for team, seats in ((0, (0, 2)), (1, (1, 3))):
        lines.append(w("lobby.team", team=Team(team),
                       seats=" · ".join(seat_line(live, s, w) for s in seats)))
    lines.append(options_line(live.variant, live.options, language))
    lines.append(w("lobby.timer", timer=timer_text(live.turn_timer, language),
                   level=Level(live.level)))
    if live.row.stake:
        lines.append(w("credits.stake_line", stake=w.plural("credits.amount", live.row.stake)))
    lines.append(w("lobby.help"))
    return "\n".join(lines)


def _turn_line(live: LiveTable, view: TableView, w: Words) -> str:
    names = names_as_text(view.players)
    assert view.to_act is not None
    seat = live.seats.get(view.to_act)
    human = seat is not None and seat.is_human
    closed = seat is not None and seat.is_human and seat.dm_closed
    line = w("table.to_bid" if view.stage is Stage.BIDDING else "table.to_play",
             name=names[view.to_act])
    if closed:
        line = w("table.uses_hand", turn=line)
    if human and live.deadline is not None:
        line = w("table.time_runs_out", turn=line, deadline=deadline_text(live))
    return line


def _bidding_line(view: TableView, w: Words, language: str) -> str:
    """The calls so far (and in classic the card turned up)."""
    names = names_as_text(view.players)
    bids = ", ".join(w("table.bid", name=names[s], bid=action_label(a, language).lower())
                     for s, a in view.bids) or w("table.no_bid")
    if view.turned_card is not None:
        return w("table.bidding_turned", card=card_label(view.turned_card, language), bids=bids)
    return w("table.bidding", bids=bids)


def _played(trick: Trick, names: Sequence[str], w: Words, language: str) -> str:
    """The cards of a trick and who played them (``names`` already as text)."""
    return ", ".join(w("table.bid", name=names[trick.seat_of(i)], bid=card_label(c, language))
                     for i, c in enumerate(trick.cards))


def table_text(live: LiveTable, view: TableView, language: str = EN) -> str:
    w = words(language)
    names = names_as_text(view.players)  # every name in a message's text is escaped
    title = header(live, language)
    lines = [w("table.title", header=title, deal=view.deal_number) if view.deal_number
             else title]
    lines.append(" · ".join(w("table.seat", seat=Seat(i), who=names[i])
                            for i in range(4)))
    if view.stage is Stage.BIDDING:
        lines.append(_bidding_line(view, w, language))
    if view.contract is not None:
        c = view.contract
        lines.append(w("table.contract", contract=contract_text(c, language),
                       name=names[c.seat], team=Team(c.team)))
    if view.trick is not None and view.trick.cards:
        lines.append(w("table.trick", cards=_played(view.trick, names, w, language)))
    scores = {"team0": Team(0), "score0": Number(view.totals[0]), "team1": Team(1),
              "score1": Number(view.totals[1])}
    lines.append(w.plural("table.score_held", view.hanging, held=view.hanging, **scores)
                 if view.hanging else w("table.score", **scores))
    if view.winner is not None:
        lines.append(w("table.winner", team=Team(view.winner),
                       won=Number(view.totals[view.winner]),
                       lost=Number(view.totals[1 - view.winner])))
    elif live.paused:
        lines.append(w("table.paused"))
    elif view.to_act is not None:
        lines.append(_turn_line(live, view, w))
    for seat, card in sorted(live.forced.items()):
        if view.winner is None:  # the rules left them this card: the bot played it
            lines.append(w("table.forced", name=names[seat], card=card_label(card, language)))
    for s in live.seats.values():
        if s.timed_out and s.computer is not None and view.winner is None:
            lines.append(w("table.timed_out", name=as_text(s.name)))
    return "\n".join(lines)


# ---- a player's hand ----------------------------------------------------------------------
def announcement_label(a: Announcement, language: str = EN) -> str:
    w = words(language)
    if a.carre_rank is not None:
        return w("hand.carre", name=announcement_text(a, language), points=a.points)
    return w("hand.sequence", name=announcement_text(a, language), suit=SUIT_SYMBOLS[a.suit or 0],
             top=faces(language)[a.top], points=a.points)


def declaration_label(anns: list[Announcement], language: str = EN) -> str:
    if not anns:
        return words(language)("hand.nothing")
    return " + ".join(announcement_label(a, language) for a in anns)


def announce_options(view: TableView, language: str = EN) -> list[tuple[str, str]]:
    """(code, label) of the announcements the viewer may choose (game.choices says which),
    as the select offers them: the best, at most 23 others, nothing."""
    w = words(language)
    choices = announce_choices(view)
    if not choices:
        return []
    best, others, nothing = choices[0], choices[1:-1], choices[-1]
    out = [(best.code, w("controls.announce_best", what=declaration_label(
        list(best.announcements), language))[:100])]
    out += [(c.code, w("controls.announce_only", what=declaration_label(
        list(c.announcements), language))[:100]) for c in others[:23]]
    out.append((nothing.code, w("controls.announce_nothing")))
    return out


def choice_lines(view: TableView, choice: SeatChoice, language: str = EN) -> list[str]:
    w = words(language)
    lines = []
    if may_announce(view) and best_of(view):
        if choice.declare is None:
            what = declaration_label(best_of(view), language)
        else:
            what = " + ".join(" ".join(card_label(c, language) for c in g)
                              for g in choice.declare) or w("hand.nothing")
        lines.append(w("hand.announce", what=what))
    if holds_belote(view):
        lines.append(w("hand.belote_on" if choice.belote else "hand.belote_off"))
    return lines


def ahead_lines(live: LiveTable, seat: int, language: str = EN) -> list[str]:
    """What the seat chose ahead of its turn, or that it was dropped (game/choices.py)."""
    w = words(language)
    status, code = live.ahead(seat)
    if status is None or code is None:
        return []
    if code == PASS_AHEAD:
        return [w("hand.ahead_dropped_pass" if status == DROPPED else "hand.ahead_pass")]
    card = card_label(parse_card(code), language)
    return [w("hand.ahead_dropped_card" if status == DROPPED else "hand.ahead_card",
              card=card)]


def _turn_in_hand(live: LiveTable, view: TableView, w: Words) -> str:
    bidding = view.stage is Stage.BIDDING
    if live.deadline is None:
        return w("hand.turn_bid" if bidding else "hand.turn_play")
    return w("hand.turn_bid_timed" if bidding else "hand.turn_play_timed",
             deadline=deadline_text(live))


def _table_for_the_turn(view: TableView, w: Words, language: str) -> list[str]:
    """What the player to act needs from the table, in their own hand message: the calls so
    far, the trick so far, or (leading) the trick just taken. Their hand is edited when their
    turn comes anyway, so this costs no call, and they need not wait for the table message,
    which a busy bot edits less often than it changes (or open the channel, on a phone)."""
    if view.stage is Stage.BIDDING:
        return [_bidding_line(view, w, language)]
    names = names_as_text(view.players)
    if view.trick is not None and view.trick.cards:
        return [w("table.trick", cards=_played(view.trick, names, w, language))]
    last = view.last_trick
    if last is not None and last.winner is not None:  # a completed trick has its winner
        return [w("hand.last_trick", cards=_played(last, names, w, language),
                  name=names[last.winner])]
    return []


def hand_text(live: LiveTable, view: TableView, language: str = EN) -> str:
    w = words(language)
    lines = [w("hand.title", table=live.id, variant=variant_title(live.variant, language),
               deal=view.deal_number, channel=f"<#{live.row.home_id}>")]
    lines.append(" ".join(card_label(c, language) for c in shown_order(view)) or
                 w("hand.no_cards"))
    if live.lost is not None:
        lines.append(w("hand.lost", lost=live.lost))
    seat = live.seats.get(view.viewer) if view.viewer is not None else None
    if seat is not None and seat.computer is not None:
        if seat.user_id in live.kicked:
            lines.append(w("sweeper.kicked.no_back", table=live.id))
        else:
            lines.append(w("hand.computer_timed_out" if seat.timed_out
                           else "hand.computer_left" if live.may_take_back(seat)
                           else "hand.computer_for_good"))
    elif view.winner is not None:
        lines.append(w("hand.over"))
    else:
        if view.viewer is not None:
            lines += choice_lines(view, live.choice(view.viewer), language)
            lines += ahead_lines(live, view.viewer, language)
        if view.is_my_turn:
            lines += _table_for_the_turn(view, w, language)
            lines.append(_turn_in_hand(live, view, w))
            if claim_plan(view) is not None:
                lines.append(w("hand.claim"))
        elif view.to_act is not None:
            lines.append(w("hand.waiting", name=as_text(view.players[view.to_act])))
    return "\n".join(lines)


# ---- rules and results ----------------------------------------------------------------------
def options_line(variant: Variant, options: Options, language: str = EN) -> str:
    w = words(language)
    parts = [w("table.options.target", target=options.target)]
    if "announcements" in OPTION_NAMES[variant]:
        parts.append(w("table.options.announcements_on" if options.announcements
                       else "table.options.announcements_off"))
    if "must_undertrump" in OPTION_NAMES[variant]:
        parts.append(w("table.options.undertrump_on" if options.must_undertrump
                       else "table.options.undertrump_off"))
    parts.append(w("table.options.shuffle", shuffle=w(f"table.shuffle.{options.shuffle.value}")))
    return w("table.options", options=", ".join(parts))


def variant_rules_text(variant: Variant, language: str = EN) -> str:
    return words(language)(f"table.rules.{variant.value}")


def rules_card(live: LiveTable, language: str = EN) -> str:
    w = words(language).scope("rules_card")
    o = live.options
    v = live.variant
    lines = [w("title", table=live.id, variant=variant_title(v, language)),
             words(language).plural("rules_card.target", o.target, target=o.target,
                                    suggested=", ".join(str(t) for t in SUGGESTED_TARGETS[v]))]
    if "announcements" in OPTION_NAMES[v]:
        lines.append(w("announcements_on" if o.announcements else "announcements_off"))
    if "must_undertrump" in OPTION_NAMES[v]:
        lines.append(w("undertrump_yes" if o.must_undertrump else "undertrump_no"))
    lines.append(w("shuffle_cut" if o.shuffle.value == "cut" else "shuffle_fresh",
                   shuffle=words(language)(f"table.shuffle.{o.shuffle.value}")))
    lines.append(w("seats_private" if live.row.private else "seats_open"))
    if live.row.stake:
        say = words(language)
        lines.append(say("credits.stake_line",
                         stake=say.plural("credits.amount", live.row.stake)))
    if live.turn_timer:
        lines.append(w.plural("timer", live.away_turns,
                              timer=timer_text(live.turn_timer, language)))
    else:
        lines.append(w("timer_off"))
    level = Level(live.level)
    others = [words(language)("rules_card.computer_at", seat=Seat(s.seat),
                              level=Level(s.computer))
              for s in live.seats.values()
              if s.computer is not None and s.user_id is None and s.computer != live.level]
    lines.append(w("computers_others", level=level, others=", ".join(others)) if others
                 else w("computers", level=level))
    lines.append(w("ratings"))
    computers = [as_text(seat_label(live, s.seat, language))
                 for s in sorted(live.seats.values(), key=lambda s: s.seat)
                 if s.computer is not None and s.user_id is None]
    if computers:
        lines.append(w("at_table", computers=", ".join(computers)))
    lines.append(variant_rules_text(v, language))
    return "\n".join(lines)


def variant_rules(variant: Variant, language: str = EN) -> str:
    o = Options.for_variant(variant)
    return words(language)("table.variant_rules", variant=variant_title(variant, language),
                           rules=variant_rules_text(variant, language),
                           options=options_line(variant, o, language))


def deal_sheet_text(live: LiveTable, index: int, result: DealResult,
                    language: str = EN) -> str:
    w = words(language)
    names = names_as_text(live.names(language))
    if result.contract is None:
        return w("deal.passed", deal=index + 1, table=live.id)
    c = result.contract
    lines = [w("deal.title", deal=index + 1, table=live.id, contract=contract_text(c, language),
               name=names[c.seat], outcome=w(f"deal.outcome.{result.outcome.value}"))]
    lines.append(w("deal.card_points", team0=Team(0), points0=result.card_points[0],
                   team1=Team(1), points1=result.card_points[1]))
    if index in live.claimed:
        lines.append(w("deal.claimed", name=names[live.claimed[index]]))
    score = {"score0": Number(result.score[0]), "score1": Number(result.score[1]),
             "total0": Number(result.totals[0]), "total1": Number(result.totals[1])}
    lines.append(w.plural("deal.score_held", result.hanging, held=result.hanging, **score)
                 if result.hanging else w("deal.score", **score))
    return "\n".join(lines)


def match_text(live: LiveTable, winner: int, totals: tuple[int, int],
               ratings: dict[int, tuple[float, float]], language: str = EN) -> str:
    w = words(language)
    lines = [w("match.won", table=live.id, team=Team(winner), won=Number(totals[winner]),
               lost=Number(totals[1 - winner]))]
    for user_id, (before, after) in ratings.items():
        lines.append(w("match.rating", user=f"<@{user_id}>", before=f"{before:.0f}",
                       after=f"{after:.0f}"))
    # The way back to the match, as a command rather than a button: a table's thread is
    # archived and locked once this is posted, and its buttons then greyed out.
    lines.append(w("match.replay", table=live.id))
    return "\n".join(lines)


def closed_by_itself_text(live: LiveTable, why: str, minutes: int) -> str:
    """What the thread says of a table the sweeper closed (``why``: core.LOBBY_EXPIRED or
    ABANDONED): an abandoned game that moved its leavers' ratings says so, with each one."""
    w = words(live.language)
    if not live.moved:
        return w.plural(f"sweeper.notice.{why}", minutes, table=live.id)
    lines = [w.plural("sweeper.notice.abandoned_rated", minutes, table=live.id)]
    for user_id, (before, after) in live.moved.items():
        lines.append(w("match.rating", user=f"<@{user_id}>", before=f"{before:.0f}",
                       after=f"{after:.0f}"))
    return "\n".join(lines)


def pages(parts: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Sections laid out as few messages as fit Discord's limit: whole sections, a blank line
    between them, as many to a message as fit; a section longer than a message is cut between
    its lines (a line longer than a message, between characters)."""
    pieces: list[str] = []
    for part in parts:
        if len(part) <= limit:
            pieces.append(part)
            continue
        block = ""
        for line in part.split("\n"):
            while len(line) > limit:
                if block:
                    pieces.append(block)
                    block = ""
                pieces.append(line[:limit])
                line = line[limit:]
            if block and len(block) + 1 + len(line) > limit:
                pieces.append(block)
                block = line
            else:
                block = f"{block}\n{line}" if block else line
        if block:
            pieces.append(block)
    out: list[str] = []
    for piece in pieces:
        if out and len(out[-1]) + 2 + len(piece) <= limit:
            out[-1] += "\n\n" + piece
        else:
            out.append(piece)
    return out
