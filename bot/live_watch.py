"""What the live table and tournament pages show (web/live.py, web/tournament.py), and how
the table page hears of each change.

:func:`public_state` is the public view of an open table as the table message shows it: the
seats and their names, the bids, the contract, the trick on the table and the last one taken,
the scores and whose turn it is. It is made from the public view only (``live.view()``, no
seat), so it cannot hold a card of a hand: never a hand, nothing a player's DM shows.

:class:`Watched` is the table service's listener when the pages are served: it tells the
delivery everything, as before, and the pages' feed which table changed. Telling the feed is a
lookup and, when someone watches the table, one callback scheduled: nothing is drawn or sent
under the table's lock nor before a click is answered (web/live.py's ``Feed``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Container, Iterable
from typing import TYPE_CHECKING, Any

from db import TableStatus
from game.cards import Card, card_str
from game.deal import Trick
from game.tournament import Stage as TournamentStage
from game.tournament import TournamentError
from game.view import Stage
from i18n import Seat, Team, action_label, card_label, contract_text, words
from service.tables import LiveTable, TableListener
from web.live import Feed

if TYPE_CHECKING:
    from service.tournaments import TournamentRunner

LOBBY, PLAYING, OVER, CLOSED = "lobby", "playing", "over", "closed"


def _card(card: Card, language: str) -> dict[str, Any]:
    return {"card": card_str(card), "label": card_label(card, language),
            "red": (card >> 3) in (1, 2)}


def _trick(trick: Trick, language: str) -> list[dict[str, Any]]:
    return [{"seat": trick.seat_of(i), **_card(c, language)} for i, c in enumerate(trick.cards)]


def status_of(live: LiveTable) -> str:
    status = live.row.status
    if status == TableStatus.LOBBY:
        return LOBBY
    if status == TableStatus.PLAYING:
        return PLAYING
    return OVER if status == TableStatus.FINISHED else CLOSED


def public_state(live: LiveTable, language: str) -> dict[str, Any]:
    """The table as anyone may see it, its words in ``language`` (names, cards, the
    contract); the page's sentences are web/live.py's. JSON as it is (docs/web.md)."""
    w = words(language)
    names = live.names(language)
    seats = []
    for i in range(4):
        s = live.seats.get(i)
        seats.append({"seat": i, "position": Seat(i).text(w), "team": i & 1, "name": names[i],
                      "empty": s is None,
                      "computer": s is not None and s.computer is not None})
    state: dict[str, Any] = {
        "table": live.id, "status": status_of(live), "seq": live.seq,
        "variant": live.variant.value, "variant_name": w(f"image.variant.{live.variant.value}"),
        "target": live.options.target, "seats": seats,
        "teams": [Team(0).text(w), Team(1).text(w)],
        "deal": 0, "stage": None, "dealer": None, "to_act": None, "deadline": None,
        "bids": [], "turned": None, "contract": None, "trick": [], "last_trick": None,
        "scores": [0, 0], "hanging": 0, "winner": None, "paused": False}
    view = live.view()
    if view is None:
        return state
    c = view.contract
    state.update({
        "deal": view.deal_number, "stage": view.stage.value, "dealer": view.dealer,
        "to_act": view.to_act if view.winner is None else None,
        "deadline": live.deadline if view.winner is None else None,
        "bids": [{"seat": s, "bid": action_label(a, language).lower()} for s, a in view.bids]
        if view.stage is Stage.BIDDING else [],
        "turned": _card(view.turned_card, language) if view.turned_card is not None else None,
        "contract": None if c is None else {
            "seat": c.seat, "team": c.seat & 1, "text": contract_text(c, language)},
        "trick": _trick(view.trick, language) if view.trick is not None else [],
        "last_trick": None if view.last_trick is None or view.last_trick.winner is None else {
            "cards": _trick(view.last_trick, language), "winner": view.last_trick.winner},
        "scores": list(view.totals), "hanging": view.hanging, "winner": view.winner,
        "paused": live.paused})
    return state


async def tournament_state(runner: TournamentRunner, open_tables: Container[int],
                           guild_id: int, tournament_id: int,
                           language: str) -> dict[str, Any] | None:
    """A tournament as its sign-up message and bracket show it, or None if it is not one of
    this server's. ``open_tables``: the tables in play (a link to their live page)."""
    try:
        row, t = await runner.load(tournament_id)
    except TournamentError:
        return None
    if row.guild_id != guild_id:
        return None
    w = words(language)

    def name(user_id: int) -> str:
        return runner.name_of(row, user_id) if user_id > 0 else w("tournaments.computer")

    linked = {(tb.round, tb.position): tb.table_id for tb in await runner.repo.tables(row.id)}
    rounds = []
    for rnd in t.rounds:
        tables = []
        for i, d in enumerate(rnd.draws):
            table = linked.get((rnd.number, i))
            tables.append({"position": i, "table": table,
                           "pairs": [[name(d.seats[0]), name(d.seats[2])],
                                     [name(d.seats[1]), name(d.seats[3])]],
                           "winner": rnd.winners.get(i),
                           "live": table is not None and table in open_tables})
        rounds.append({"number": rnd.number, "tables": tables})
    finished = t.stage is TournamentStage.FINISHED
    state: dict[str, Any] = {
        "tournament": row.id, "format": t.format.value, "variant": row.variant,
        "title": w(f"tournaments.title.{t.format.value}", number=row.id,
                   variant=w(f"image.variant.{row.variant}")),
        "stage": t.stage.value, "starts_at": row.starts_at, "places": t.format.players,
        "entrants": [{"user_id": str(u), "name": name(u)} for u in t.entrants],
        "rounds": rounds,
        "tables_per_round": [1 << (t.format.rounds - n) for n in range(1, t.format.rounds + 1)],
        "winners": [name(u) for u in t.winners] if finished else None,
        "runners_up": [name(u) for u in t.runners_up] if finished else None}
    # What the page compares to know it changed (web/tournament.py reloads then).
    state["version"] = hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]
    return state


class Watched:
    """The service's listener: ``inner`` (the delivery) told everything, the feed told which
    table changed (what a table message shows; hands and sheets are not the page's)."""

    def __init__(self, inner: TableListener, feed: Feed[LiveTable]) -> None:
        self.inner, self.feed = inner, feed

    def __getattr__(self, name: str) -> Any:  # the delivery's other methods (``restored``)
        return getattr(self.inner, name)

    def table_changed(self, live: LiveTable) -> None:
        self.inner.table_changed(live)
        self.feed.changed(live.id, live)

    def hands_changed(self, live: LiveTable, seats: Iterable[int]) -> None:
        self.inner.hands_changed(live, seats)

    def acted(self, live: LiveTable, seat: int) -> None:
        self.inner.acted(live, seat)

    def deal_finished(self, live: LiveTable, deal_index: int) -> None:
        self.inner.deal_finished(live, deal_index)

    def match_finished(self, live: LiveTable, ratings: dict[int, tuple[float, float]]) -> None:
        self.inner.match_finished(live, ratings)
        self.feed.changed(live.id, live)

    def table_closed(self, live: LiveTable, reason: str) -> None:
        self.inner.table_closed(live, reason)
        self.feed.changed(live.id, live)
