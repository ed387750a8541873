"""The match page's replay: every step of a finished match (game/steps.py), card by card, hands
face up (the match is over), drawn as HTML.

The page holds the steps of one deal, each an ``<article class="step">`` (all but one hidden),
and each with links to the first, previous, next and last step of the match (``?step=N``): it
works without a script. web/static/replay.js turns those links into instant steps within the
deal, and the keys ←, →, Home and End into the same links. The last step shows the posted
score (the match's row), whatever ended the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from hashlib import sha256
from html import escape
from importlib.resources import files
from typing import TYPE_CHECKING, Final

from game.actions import Play
from game.cards import Card
from game.steps import Step
from i18n import Words, announcement_text, bid_text, card_label, contract_text

if TYPE_CHECKING:
    from db.results import MatchRow

# Cached for a day: the script's address changes with its content.
SCRIPT: Final = "/static/replay.js?v=" + sha256(
    files("web").joinpath("static", "replay.js").read_bytes()).hexdigest()[:10]
# Where each seat sits, from the public table image's point of view (rendering/table.py): seat 0
# at the bottom, play going round counter-clockwise (the next seat on the right).
PLACES: Final = ("s", "e", "n", "w")
RED: Final = (1, 2)  # diamonds, hearts




def label(c: Card, w: Words) -> str:
    """A card as the bot's buttons write it: its rank's letter, its suit's symbol."""
    return card_label(c, w.language)


_CARDS: dict[str, tuple[str, ...]] = {}


def card(c: Card, w: Words) -> str:
    """A card as HTML (the 32 of a language made once)."""
    made = _CARDS.get(w.language)
    if made is None:
        made = _CARDS[w.language] = tuple(
            f'<span class="card {"red" if d >> 3 in RED else "black"}">'
            f"{escape(label(d, w))}</span>" for d in range(32))
    return made[c]


def _hand(cards: Sequence[Card], w: Words) -> str:
    return '<span class="hand">' + "".join(card(c, w) for c in cards) + "</span>"


class _Said(Words):
    """A language's words for one deal's replay, each message (with its parameters) worded
    once: its steps say the same labels, scores and totals over and over, and wording them
    again was most of drawing the page. Only the replay of one deal keeps it: what it holds
    is bounded by that deal's steps."""

    __slots__ = ("_said",)

    def __init__(self, w: Words) -> None:
        super().__init__(w.language)
        self._said: dict[tuple[object, ...], str] = {}

    def __call__(self, message_id: str, **params: object) -> str:
        key = (message_id, *params.items())
        text = self._said.get(key)
        if text is None:
            text = self._said[key] = super().__call__(message_id, **params)
        return text


# Who decided an action when not its person's click (the record's "by"), as the replay marks it:
# each has its words (web.replay.by.*) and its look (site.css ``.by-<kind>``: a badge after the
# action's sentence, the card's dashed border in the trick); a newer bot's other words are
# marked as not clicked.
BY: Final = ("forced", "ahead", "claim", "computer", "timeout")


def by_kind(step: Step, computers: frozenset[int]) -> str | None:
    """How the replay marks who decided this step's action: None, their click (or a computer
    playing a computer's seat, said by its name); else one of BY, or "other"."""
    if step.by is None or step.seat is None or \
            (step.by == "computer" and step.seat in computers):
        return None
    return step.by if step.by in BY else "other"


def _by_tag(kind: str, w: Words) -> str:
    return f' <span class="by by-{kind}">{escape(w(f"web.replay.by.{kind}"))}</span>'


def _score(pair: Sequence[int], w: Words) -> str:
    return f"{w.number(pair[0])}–{w.number(pair[1])}"


def _what(step: Step, before: Step | None, players: Sequence[str], w: Words,
          kind: str | None = None) -> list[str]:
    """What happened at this step, as HTML sentences (each escaped); ``kind``: who decided it
    when not its person's click (``by_kind``), marked after its action."""
    out: list[str] = []

    def say(text: str, tag: str = "") -> None:
        out.append(escape(text) + tag)

    if step.seat is None:
        say(w("web.replay.dealt", deal=step.deal + 1, dealer=players[step.dealer]))
        if step.turned is not None:
            say(w("web.replay.turned", card=label(step.turned, w)))
        return out
    who = players[step.seat]
    action = step.action
    tag = _by_tag(kind, w) if kind is not None else ""
    if kind == "claim" and (before is None or before.by != "claim"):  # the claim's first card
        say(w("web.replay.claimed", who=who))
    if isinstance(action, Play):
        say(w("web.replay.play", who=who, card=label(action.card, w)), tag)
        for a in step.announced:
            say(w("web.replay.announce", who=who, what=announcement_text(a, w.language)))
        if step.belote is not None:
            say(w("web.replay.belote", who=who, word=w(f"image.{step.belote.word}")))
        if step.trick_winner is not None and before is not None:
            team = step.trick_winner & 1
            say(w("web.replay.trick", who=players[step.trick_winner],
                  points=w.number(step.card_points[team] - before.card_points[team])))
    elif action is not None:
        say(w("web.replay.bid", who=who, bid=bid_text(action, w.language)), tag)
    if step.result is not None:
        if step.contract is None:
            say(w("web.replay.passed"))
        else:
            say(w("web.replay.deal_score", deal=step.deal + 1,
                  score=_score(step.result.score, w), totals=_score(step.totals, w)))
    return out


def _table(step: Step, players: Sequence[str], w: Words,
           trick_by: dict[int, str], drawn: dict[tuple[object, ...], str]) -> str:
    """The four hands round the table, the trick on it in the middle; ``trick_by``: the seats
    whose card in the trick was not their click, and who decided it (``by_kind``); ``drawn``:
    the seats (a name and its hand) drawn so far in this deal: a step changes one hand, the
    others are drawn once."""
    played = dict(step.trick)
    seats, slots = [], []
    for seat in range(4):
        place = PLACES[seat]
        key = (seat, step.seat == seat, step.dealer == seat, step.hands[seat])
        html = drawn.get(key)
        if html is None:
            mark = " acted" if step.seat == seat else ""
            # The dealer's label on the name's line: beside the cards it stood tight against
            # them on a phone.
            dealer = f' <i class="dealer">{escape(w("web.replay.dealer"))}</i>' \
                if step.dealer == seat else ""
            html = drawn[key] = (f'<div class="seat {place} t{seat & 1}{mark}">'
                                 f'<b class="who">{escape(players[seat])}{dealer}</b>'
                                 f"{_hand(step.hands[seat], w)}</div>")
        seats.append(html)
        took = " took" if step.trick_winner == seat else ""
        slot = card(played[seat], w) if seat in played else ""
        kind = trick_by.get(seat) if seat in played else None
        by = f' auto by-{kind}" title="{escape(w(f"web.replay.by.{kind}"))}' if kind else ""
        slots.append(f'<span class="slot {place}{took}{by}">{slot}</span>')
    if step.turned is not None:  # the card turned up for the auction lies in the middle
        slots.append(f'<span class="slot turned">{card(step.turned, w)}</span>')
    return ('<div class="felt">' + "".join(seats)
            + '<div class="trick">' + "".join(slots) + "</div></div>")


def _facts(step: Step, players: Sequence[str], w: Words, final: str | None,
           auction: Sequence[str]) -> str:
    facts = []
    if auction:
        facts.append(w("web.replay.auction", bids=" · ".join(auction)))
    if step.contract is not None:
        facts.append(w("web.replay.contract", contract=contract_text(step.contract, w.language),
                       who=players[step.contract.seat]))
        facts.append(w("web.replay.tricks", points=_score(step.card_points, w),
                       tricks=_score(step.tricks_won, w)))
    facts.append(w("web.replay.totals", score=_score(step.totals, w)))
    items = "".join(f"<li>{escape(f)}</li>" for f in facts)
    if final is not None:
        items += f'<li class="final">{escape(final)}</li>'
    return f'<ul class="facts">{items}</ul>'


class _Stepper:
    """The stepper of one deal's replay (each step's links to the first, previous, next and
    last step of the match): its labels and the page's address escaped once for all steps."""

    __slots__ = ("count", "href", "labels", "w")

    def __init__(self, count: int, href: str, w: Words) -> None:
        self.count, self.href, self.w = count, escape(href), w
        self.labels = {key: escape(w(f"web.replay.{key}"))
                       for key in ("first", "previous", "next", "last")}

    def _go(self, index: int, to: int, key: str, rel: str, shortcut: str) -> str:
        label = self.labels[key]
        if to == index or not 0 <= to < self.count:
            return f'<span class="off">{label}</span>'
        return (f'<a href="{self.href}?step={to}#replay" data-step="{to}" rel="{rel}"'
                f' aria-keyshortcuts="{shortcut}">{label}</a>')

    def nav(self, index: int) -> str:
        w, go = self.w, self._go
        where = escape(w("web.replay.step", step=w.number(index + 1),
                         steps=w.number(self.count)))
        return ('<nav class="stepper">'
                + go(index, 0, "first", "first", "Home")
                + go(index, index - 1, "previous", "prev", "ArrowLeft")
                + f'<span class="at">{where}</span>'
                + go(index, index + 1, "next", "next", "ArrowRight")
                + go(index, self.count - 1, "last", "last", "End")
                + "</nav>")


def final_words(row: MatchRow, w: Words) -> str:
    """The posted score, as the last step says it."""
    text = w("web.replay.final", score=_score(row.totals, w))
    if row.ending != "played":
        text += " · " + w(f"stats.result.{row.ending}")
    return text


def section(deal: Sequence[Step], counts: Sequence[int], shown: int, players: Sequence[str],
            row: MatchRow, href: str, w: Words, computers: frozenset[int] = frozenset()) -> str:
    """The replay of one deal (``deal``: its steps), step ``shown`` of the match visible
    (-1: none, for ``unhide``).
    ``counts``: how many steps each deal of the match has; ``href``: the match page's address
    (without its query); ``computers``: the seats a computer played throughout (their moves
    are not marked as a computer's one by one: game/steps.computer_seats)."""
    w = _Said(w)
    drawn: dict[tuple[object, ...], str] = {}  # the seats drawn so far (_table)
    total = sum(counts)
    stepper = _Stepper(total, href, w)
    starts = [sum(counts[:d]) for d in range(len(counts))]
    current = deal[0].deal
    choices = "".join(
        f'<a href="{escape(href)}?step={starts[d]}#replay"'
        + (' class="on" aria-current="page"' if d == current else "")
        + f">{escape(w('web.match.deal', deal=d + 1))}</a>" for d in range(len(counts)))
    parts = [f'<section id="replay" class="replay" data-steps="{total}">'
             f"<h2>{escape(w('web.replay.title'))}</h2>"
             f'<nav class="choices">{choices}</nav>'
             f'<p class="keys">{escape(w("web.replay.keys"))} '
             f'{escape(w("web.replay.legend"))}</p>']
    auction: list[str] = []
    trick_by: dict[int, str] = {}  # the cards of the trick on the table not clicked
    for k, step in enumerate(deal):
        kind = by_kind(step, computers)
        if isinstance(step.action, Play) and step.seat is not None:
            if len(step.trick) == 1:  # a new trick
                trick_by = {}
            if kind is not None:
                trick_by[step.seat] = kind
        i = starts[current] + k
        bid = step.action is not None and not isinstance(step.action, Play)
        if bid and step.seat is not None and step.action is not None:
            auction.append(w("web.replay.bid", who=players[step.seat],
                             bid=bid_text(step.action, w.language)))
        before = deal[k - 1] if k > 0 else None
        final = final_words(row, w) if i == total - 1 else None
        hidden = "" if i == shown else " hidden"
        what = "".join(f"<p>{t}</p>" for t in _what(step, before, players, w, kind))
        parts.append(f'<article class="step" id="step-{i}" data-step="{i}"{hidden}>'
                     f"{stepper.nav(i)}"
                     f'<div class="what" aria-live="polite">{what}</div>'
                     f"{_table(step, players, w, trick_by, drawn)}"
                     f"{_facts(step, players, w, final, auction if bid else ())}</article>")
    parts.append(f'<script src="{SCRIPT}" defer></script></section>')
    return "".join(parts)


def unhide(page: str, step: int) -> str:
    """``page`` (a section drawn with no step shown: ``shown=-1``) with step ``step`` shown:
    one replacement, so a page kept built (web/page_cache.py) serves every step of its deal."""
    return page.replace(f'data-step="{step}" hidden>', f'data-step="{step}">', 1)
