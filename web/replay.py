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
from i18n import Words
from i18n.rules import announcement_text, bid_text, contract_text

if TYPE_CHECKING:
    from db.results import MatchRow

# Cached for a day: the script's address changes with its content.
SCRIPT: Final = "/static/replay.js?v=" + sha256(
    files("web").joinpath("static", "replay.js").read_bytes()).hexdigest()[:10]
# Where each seat sits, from the public table image's point of view (rendering/table.py): seat 0
# at the bottom, play going round counter-clockwise (the next seat on the right).
PLACES: Final = ("s", "e", "n", "w")
RED: Final = (1, 2)  # diamonds, hearts


SUIT_SYMBOLS: Final = "♣♦♥♠"
RANKS: Final = ("7", "8", "9", "10", "jack", "queen", "king", "ace")  # controls.rank.*


def label(c: Card, w: Words) -> str:
    """A card as the bot's buttons write it: its rank's letter, its suit's symbol."""
    return w(f"controls.rank.{RANKS[c & 7]}") + SUIT_SYMBOLS[c >> 3]


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


def _score(pair: Sequence[int], w: Words) -> str:
    return f"{w.number(pair[0])}–{w.number(pair[1])}"


def _what(step: Step, before: Step | None, players: Sequence[str], w: Words) -> list[str]:
    """What happened at this step, in sentences (escaped)."""
    out: list[str] = []
    if step.seat is None:
        out.append(w("web.replay.dealt", deal=step.deal + 1, dealer=players[step.dealer]))
        if step.turned is not None:
            out.append(w("web.replay.turned", card=label(step.turned, w)))
        return [escape(t) for t in out]
    who = players[step.seat]
    action = step.action
    if isinstance(action, Play):
        out.append(w("web.replay.play", who=who, card=label(action.card, w)))
        for a in step.announced:
            out.append(w("web.replay.announce", who=who, what=announcement_text(a, w.language)))
        if step.belote is not None:
            out.append(w("web.replay.belote", who=who, word=w(f"image.{step.belote.word}")))
        if step.trick_winner is not None and before is not None:
            team = step.trick_winner & 1
            out.append(w("web.replay.trick", who=players[step.trick_winner],
                         points=w.number(step.card_points[team] - before.card_points[team])))
    elif action is not None:
        out.append(w("web.replay.bid", who=who, bid=bid_text(action, w.language)))
    if step.result is not None:
        if step.contract is None:
            out.append(w("web.replay.passed"))
        else:
            out.append(w("web.replay.deal_score", deal=step.deal + 1,
                         score=_score(step.result.score, w), totals=_score(step.totals, w)))
    return [escape(t) for t in out]


def _table(step: Step, players: Sequence[str], w: Words) -> str:
    """The four hands round the table, the trick on it in the middle."""
    played = dict(step.trick)
    seats, slots = [], []
    for seat in range(4):
        place = PLACES[seat]
        mark = " acted" if step.seat == seat else ""
        dealer = f' <i class="dealer">{escape(w("web.replay.dealer"))}</i>' \
            if step.dealer == seat else ""
        seats.append(f'<div class="seat {place} t{seat & 1}{mark}">'
                     f'<b class="who">{escape(players[seat])}</b>{dealer}'
                     f"{_hand(step.hands[seat], w)}</div>")
        took = " took" if step.trick_winner == seat else ""
        slot = card(played[seat], w) if seat in played else ""
        slots.append(f'<span class="slot {place}{took}">{slot}</span>')
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


def _nav(index: int, count: int, href: str, w: Words) -> str:
    def go(to: int, key: str, rel: str, shortcut: str) -> str:
        label = escape(w(f"web.replay.{key}"))
        if to == index or not 0 <= to < count:
            return f'<span class="off">{label}</span>'
        return (f'<a href="{escape(href)}?step={to}#replay" data-step="{to}" rel="{rel}"'
                f' aria-keyshortcuts="{shortcut}">{label}</a>')

    where = escape(w("web.replay.step", step=w.number(index + 1), steps=w.number(count)))
    return ('<nav class="stepper">'
            + go(0, "first", "first", "Home") + go(index - 1, "previous", "prev", "ArrowLeft")
            + f'<span class="at">{where}</span>'
            + go(index + 1, "next", "next", "ArrowRight") + go(count - 1, "last", "last", "End")
            + "</nav>")


def final_words(row: MatchRow, w: Words) -> str:
    """The posted score, as the last step says it."""
    text = w("web.replay.final", score=_score(row.totals, w))
    if row.ending != "played":
        text += " · " + w(f"stats.result.{row.ending}")
    return text


def section(deal: Sequence[Step], counts: Sequence[int], shown: int, players: Sequence[str],
            row: MatchRow, href: str, w: Words) -> str:
    """The replay of one deal (``deal``: its steps), step ``shown`` of the match visible.
    ``counts``: how many steps each deal of the match has; ``href``: the match page's address
    (without its query)."""
    total = sum(counts)
    starts = [sum(counts[:d]) for d in range(len(counts))]
    current = deal[0].deal
    choices = "".join(
        f'<a href="{escape(href)}?step={starts[d]}#replay"'
        + (' class="on" aria-current="page"' if d == current else "")
        + f">{escape(w('web.match.deal', deal=d + 1))}</a>" for d in range(len(counts)))
    parts = [f'<section id="replay" class="replay" data-steps="{total}">'
             f"<h2>{escape(w('web.replay.title'))}</h2>"
             f'<nav class="choices">{choices}</nav>'
             f'<p class="keys">{escape(w("web.replay.keys"))}</p>']
    auction: list[str] = []
    for k, step in enumerate(deal):
        i = starts[current] + k
        bid = step.action is not None and not isinstance(step.action, Play)
        if bid and step.seat is not None and step.action is not None:
            auction.append(w("web.replay.bid", who=players[step.seat],
                             bid=bid_text(step.action, w.language)))
        before = deal[k - 1] if k > 0 else None
        final = final_words(row, w) if i == total - 1 else None
        hidden = "" if i == shown else " hidden"
        what = "".join(f"<p>{t}</p>" for t in _what(step, before, players, w))
        parts.append(f'<article class="step" id="step-{i}" data-step="{i}"{hidden}>'
                     f"{_nav(i, total, href, w)}"
                     f'<div class="what" aria-live="polite">{what}</div>'
                     f"{_table(step, players, w)}"
                     f"{_facts(step, players, w, final, auction if bid else ())}</article>")
    parts.append(f'<script src="{SCRIPT}" defer></script></section>')
    return "".join(parts)
