"""The live table page: the public view of an open table, updated as it plays.

- ``/s/{token}/table/{id}``: the page (drawn at once, then kept up to date by
  ``/static/js/live.js`` from the events below, without reloading);
- ``/s/{token}/table/{id}/events``: Server-Sent Events, one ``state`` event at once and one per
  change of the table, an ``end`` event when it is won or closed (then the stream ends);
- ``/api/v1/{token}/table/{id}``: the same state as JSON (docs/web.md).

A table that is not open in this server (closed, unknown, another server's) answers 404, on
every process of a sharded bot (a table another process runs is read from the database).

How a change reaches the viewers (:class:`Feed`): the table service tells ``changed`` under
the table's lock; that is a dict lookup and, when somebody watches, one callback scheduled for
the next turn of the event loop. That callback makes the state once per language watched,
encodes the event once, and hands it to every viewer: each keeps only the newest (a slow
viewer skips the states it had no time for) and its own request writes it. Nothing waits for a
viewer: not the table, not a click's answer, not the other viewers.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from hashlib import sha256
from html import escape
from importlib.resources import files
from typing import Any, Final, Generic, Protocol, TypeVar

from aiohttp import web

from i18n import Words, words

from . import pages
from .guard import SECURITY
from .server import WebServer

log = logging.getLogger(__name__)

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
M = TypeVar("M", bound=Hashable)
State = dict[str, Any]

# Viewers at most, of one table and of the whole process (each holds a connection open).
PER_TABLE: Final = 1000
PER_PROCESS: Final = 4000
# A comment on an idle stream this often keeps proxies from closing it.
KEEPALIVE: Final = 20.0
# What EventSource waits before it connects again after a drop (milliseconds).
RETRY_MS: Final = 3000
NO_STORE: Final = {"Cache-Control": "no-store"}
# Cached for a day: the script's address changes with its content (a browser never runs a
# copy it kept of an older one against a newer bot's pages).
SCRIPT: Final = "/static/js/live.js?v=" + sha256(
    files("web").joinpath("static", "live.js").read_bytes()).hexdigest()[:10]
ENDED: Final = ("over", "closed")
# How often a table another process runs is looked at while somebody watches it (seconds).
POLL: Final = 1.0


class Full(Exception):
    """No room for one more viewer (``where``: "table" or "process")."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where


@dataclass(eq=False)
class Viewer:
    """One stream: the newest event not written yet, and the wake-up of its writer."""

    table_id: int
    language: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    latest: bytes | None = None
    ended: bool = False

    def give(self, event: bytes, *, end: bool = False) -> None:
        self.latest = event  # an older one not written yet is dropped
        self.ended = self.ended or end
        self.wake.set()

    def take(self) -> bytes | None:
        self.wake.clear()
        event, self.latest = self.latest, None
        return event


@dataclass(eq=False)
class _Watched(Generic[T]):
    viewers: set[Viewer] = field(default_factory=set)
    table: T | None = None  # the newest told, not yet published
    scheduled: bool = False
    events: dict[str, tuple[bytes, bool]] = field(default_factory=dict)  # language: newest


class Feed(Generic[T]):
    """The tables' viewers. ``state(table, language)``: a table's public state (its
    ``status`` "over" or "closed" ends the streams); ``render(state, language)``: its event."""

    def __init__(self, state: Callable[[T, str], State],
                 render: Callable[[State, str], bytes] | None = None, *,
                 per_table: int = PER_TABLE, per_process: int = PER_PROCESS) -> None:
        self.state = state
        self.render = render or event_bytes
        self.per_table, self.per_process = per_table, per_process
        self._tables: dict[int, _Watched[T]] = {}
        self.viewers = 0
        self.published = 0  # states made (for the benchmark and the tests)
        # Told a table's id once nobody watches it any more (the Poller stops then).
        self.idle: Callable[[int], None] | None = None

    # ---- what the table service tells (under the table's lock: no work here) --------------
    def changed(self, table_id: int, table: T) -> None:
        watched = self._tables.get(table_id)
        if watched is None:
            return
        watched.table = table
        watched.events.clear()
        if not watched.scheduled:
            watched.scheduled = True
            asyncio.get_running_loop().call_soon(self._publish, table_id)

    def gone(self, table_id: int) -> None:
        """The table is no more (not in the database): its viewers are told it closed."""
        watched = self._tables.get(table_id)
        if watched is None:
            return
        for viewer in list(watched.viewers):
            viewer.give(self.render({"status": "closed"}, viewer.language), end=True)
        self._forget(table_id)

    def _publish(self, table_id: int) -> None:
        watched = self._tables.get(table_id)
        if watched is None:
            return
        watched.scheduled = False
        table, watched.table = watched.table, None
        if table is None:
            return
        by_language: dict[str, tuple[bytes, bool]] = {}
        for viewer in list(watched.viewers):
            made = by_language.get(viewer.language)
            if made is None:
                made = by_language[viewer.language] = self._event(table, viewer.language)
            viewer.give(made[0], end=made[1])
        watched.events = by_language
        if any(end for _, end in by_language.values()):
            self._forget(table_id)

    def _event(self, table: T, language: str) -> tuple[bytes, bool]:
        try:
            state = self.state(table, language)
        except Exception:  # a page never breaks a table
            log.exception("live page: the state of a table could not be made")
            state = {"status": "closed"}
        self.published += 1
        return self.render(state, language), state.get("status") in ENDED

    # ---- the viewers ------------------------------------------------------------------------
    def join(self, table_id: int, table: T, language: str) -> Viewer:
        """A new viewer, given the table's state at once; raises Full."""
        if self.viewers >= self.per_process:
            raise Full("process")
        watched = self._tables.get(table_id)
        if watched is None:
            watched = self._tables[table_id] = _Watched()
        elif len(watched.viewers) >= self.per_table:
            raise Full("table")
        viewer = Viewer(table_id, language)
        watched.viewers.add(viewer)
        self.viewers += 1
        made = watched.events.get(language)  # none while a change is on its way
        if made is None:
            made = self._event(table, language)
            if not watched.scheduled:
                watched.events[language] = made
        viewer.give(made[0], end=made[1])
        return viewer

    def leave(self, viewer: Viewer) -> None:
        watched = self._tables.get(viewer.table_id)
        if watched is not None and viewer in watched.viewers:
            watched.viewers.discard(viewer)
            self.viewers -= 1
            if not watched.viewers:
                del self._tables[viewer.table_id]
                self._idle(viewer.table_id)

    def watching(self, table_id: int) -> int:
        watched = self._tables.get(table_id)
        return len(watched.viewers) if watched is not None else 0

    def _forget(self, table_id: int) -> None:
        watched = self._tables.pop(table_id, None)
        if watched is not None:
            self.viewers -= len(watched.viewers)
            watched.viewers.clear()
            self._idle(table_id)

    def _idle(self, table_id: int) -> None:
        if self.idle is not None:
            self.idle(table_id)

    def close(self) -> None:
        """Every stream ends (the server stops)."""
        for table_id, watched in list(self._tables.items()):
            for viewer in watched.viewers:
                viewer.ended = True
                viewer.wake.set()
            self._forget(table_id)


# ---- the tables another process runs ------------------------------------------------------------
class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the poller waits with (service/tables/clock.py's clocks): tests move it."""

    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable: ...


class StoredTables(Protocol[T_co, M]):
    """The tables of the servers another process runs, as the database holds them."""

    def elsewhere(self, guild_id: int) -> bool:
        """Whether this server's tables run in another process (this one shows them from the
        database)."""
        ...

    async def mark(self, table_id: int) -> M | None:
        """What moves whenever the table's public state may have (None: no such table), read
        cheaply: this is what is polled."""
        ...

    def is_open(self, mark: M) -> bool: ...

    async def load(self, guild_id: int, table_id: int, mark: M) -> T_co | None:
        """The table rebuilt from the database, ``mark`` read just before (None: not one of
        this server's, or it cannot be rebuilt)."""
        ...


@dataclass(eq=False)
class Polled(Generic[T, M]):
    """A table read from the database: its server, the mark it was read at, the table."""

    guild_id: int
    mark: M
    table: T
    handle: Cancellable | None = None
    task: asyncio.Task[None] | None = None


class Poller(Generic[T, M]):
    """The tables another process runs that somebody watches here. Every ``interval`` seconds
    of ``clock`` each one's mark is read; when it moved, the table is rebuilt and told to the
    feed (which makes and hands out the event as for a table of this process). The last
    viewer gone (the feed says so), its polling stops at once."""

    def __init__(self, feed: Feed[T], stored: StoredTables[T, M], clock: Clock,
                 interval: float = POLL) -> None:
        self.feed, self.stored, self.clock, self.interval = feed, stored, clock, interval
        self._polled: dict[int, Polled[T, M]] = {}
        self.polls = 0  # marks read (for the tests)
        self.rebuilds = 0  # tables rebuilt after their mark moved
        feed.idle = self.stop

    def polled(self) -> list[int]:
        return sorted(self._polled)

    async def find(self, guild_id: int, table_id: int) -> Polled[T, M] | None:
        """The open table of this server, as polled now or else read from the database; None
        if it is not one this process shows from the database (or not open)."""
        p = self._polled.get(table_id)
        if p is not None:
            return p if p.guild_id == guild_id else None
        if not self.stored.elsewhere(guild_id):
            return None
        mark = await self.stored.mark(table_id)
        if mark is None or not self.stored.is_open(mark):
            return None
        table = await self.stored.load(guild_id, table_id, mark)
        return None if table is None else Polled(guild_id, mark, table)

    def watch(self, table_id: int, found: Polled[T, M]) -> None:
        """A viewer joined the feed for this table: it is polled (once, however many watch)."""
        if table_id not in self._polled and self.feed.watching(table_id):
            self._polled[table_id] = found
            self._arm(table_id, found)

    def stop(self, table_id: int) -> None:
        p = self._polled.pop(table_id, None)
        if p is not None and p.handle is not None:
            p.handle.cancel()
            p.handle = None

    def close(self) -> None:
        for table_id in list(self._polled):
            task = self._polled[table_id].task
            self.stop(table_id)
            if task is not None:
                task.cancel()

    def _arm(self, table_id: int, p: Polled[T, M]) -> None:
        p.handle = self.clock.call_at(self.clock.now() + self.interval,
                                      lambda: self._tick(table_id, p))

    def _tick(self, table_id: int, p: Polled[T, M]) -> None:
        p.handle = None
        if self._polled.get(table_id) is not p:
            return
        if not self.feed.watching(table_id):
            self.stop(table_id)
            return
        p.task = asyncio.get_running_loop().create_task(self._poll(table_id, p),
                                                        name=f"belote-live-poll-{table_id}")

    async def _poll(self, table_id: int, p: Polled[T, M]) -> None:
        try:
            mark = await self.stored.mark(table_id)
            self.polls += 1
            if mark is None:
                self.feed.gone(table_id)
            elif mark != p.mark:
                table = await self.stored.load(p.guild_id, table_id, mark)
                self.rebuilds += 1
                if table is None:
                    self.feed.gone(table_id)
                else:
                    p.mark, p.table = mark, table
                    self.feed.changed(table_id, table)
        except Exception as e:  # the database away a moment: the next tick tries again
            log.warning("live page: table %s could not be read: %r", table_id, e)
        finally:
            p.task = None
            if self._polled.get(table_id) is p:
                self._arm(table_id, p)


# ---- the page's HTML ---------------------------------------------------------------------------
def _card_html(card: dict[str, Any] | None) -> str:
    if not card:
        return '<span class="card none"></span>'
    red = " red" if card.get("red") else ""
    return f'<span class="card{red}">{escape(str(card["label"]))}</span>'


def _cards_text(cards: list[dict[str, Any]], names: list[str], w: Words) -> str:
    return ", ".join(w("web.live.played", name=names[c["seat"]], card=c["label"])
                     for c in cards)


def fragment(state: State, w: Words) -> str:
    """The table, drawn from its public state: four seats around the trick, then the lines
    the table message has (bidding, contract, scores, whose turn or the winner)."""
    status = state.get("status")
    if status == "closed":
        return f'<section class="live">{pages.paragraph(w("web.live.closed"))}</section>'
    seats = state["seats"]
    names = [s["name"] for s in seats]
    teams = state["teams"]
    played = {c["seat"]: c for c in state["trick"]}
    to_act = state["to_act"]
    boxes = []
    for s in seats:
        turn = " turn" if s["seat"] == to_act else ""
        who = w("web.live.seat", seat=s["position"], who=s["name"])
        # A seat keeps a card's room while the cards are played (the felt does not jump from
        # one card to the next); an empty seat, and every seat before the first deal, none.
        card = "" if s["empty"] or status == "lobby" else _card_html(played.get(s["seat"]))
        empty = " empty" if s["empty"] else ""
        boxes.append(f'<div class="seat s{s["seat"]}{turn}{empty}"><span class="who">'
                     f'{escape(who)}</span>{card}</div>')
    middle = _card_html(state["turned"]) if state["turned"] else ""
    boxes.append(f'<div class="middle">{middle}</div>')
    lines = []
    if status == "lobby":
        lines.append(w("web.live.lobby"))
    else:
        lines.append(w("web.live.deal", deal=state["deal"]))
    if state["stage"] == "bidding":
        bids = ", ".join(w("web.live.played", name=names[b["seat"]], card=b["bid"])
                         for b in state["bids"]) or w("web.live.no_bid")
        lines.append(w("web.live.bids", bids=bids))
        if state["turned"]:
            lines.append(w("web.live.turned", card=state["turned"]["label"]))
    contract = state["contract"]
    if contract is not None:
        lines.append(w("web.live.contract", contract=contract["text"],
                       name=names[contract["seat"]], team=teams[contract["team"]]))
    last = state["last_trick"]
    if last is not None and not state["trick"]:
        lines.append(w("web.live.last_trick", cards=_cards_text(last["cards"], names, w),
                       name=names[last["winner"]]))
    if status != "lobby":
        scores = state["scores"]
        lines.append(w("web.live.score", team0=teams[0], score0=w.number(scores[0]),
                       team1=teams[1], score1=w.number(scores[1])))
        if state["hanging"]:
            lines.append(w("web.live.held", held=w.number(state["hanging"])))
    if state["winner"] is not None:
        won = state["winner"]
        lines.append(w("web.live.winner", team=teams[won], won=w.number(scores[won]),
                       lost=w.number(scores[1 - won])))
    elif status == "closed":
        lines.append(w("web.live.closed"))
    elif state["paused"]:
        lines.append(w("web.live.paused"))
    elif to_act is not None:
        key = "web.live.to_bid" if state["stage"] == "bidding" else "web.live.to_play"
        lines.append(w(key, name=names[to_act]))
    return (f'<section class="live"><div class="felt">{"".join(boxes)}</div>'
            f'{pages.lines(lines)}</section>')


def event_bytes(state: State, language: str) -> bytes:
    """One Server-Sent Event: the state and its HTML (``end`` once the table is over)."""
    name = "end" if state.get("status") in ENDED else "state"
    data = json.dumps({"state": state, "html": fragment(state, words(language))},
                      ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {data}\n\n".encode()


# ---- the routes ---------------------------------------------------------------------------------
class LiveSource(Protocol[T_co]):
    async def guild_of(self, token: str) -> int | None: ...

    async def language(self, guild_id: int) -> str: ...

    def open_table(self, guild_id: int, table_id: int) -> T_co | None:
        """The table if it is open in this server, else None."""
        ...


def _not_found() -> web.HTTPNotFound:
    return web.HTTPNotFound(text="404")


def _table_id(text: str) -> int:
    if not text.isdigit() or len(text) > 18 or int(text) <= 0:
        raise _not_found()
    return int(text)


class LivePages(Generic[T]):
    def __init__(self, source: LiveSource[T], feed: Feed[T],
                 poller: Poller[T, Any] | None = None) -> None:
        self.source, self.feed, self.poller = source, feed, poller

    async def table(self, request: web.Request) -> tuple[int, T, str, Polled[T, Any] | None]:
        """The table the address names (open, in the token's server), the server's language,
        and how it was read from the database when another process runs it (else None); 404
        otherwise."""
        guild_id = await self.source.guild_of(request.match_info["token"])
        if guild_id is None:
            raise _not_found()
        table_id = _table_id(request.match_info["table"])
        table = self.source.open_table(guild_id, table_id)
        found = None
        if table is None and self.poller is not None:
            found = await self.poller.find(guild_id, table_id)
            table = None if found is None else found.table
        if table is None:
            raise _not_found()
        return table_id, table, await self.source.language(guild_id), found

    async def page(self, request: web.Request) -> web.Response:
        table_id, table, language, _ = await self.table(request)
        w = words(language)
        state = self.feed.state(table, language)
        token = request.match_info["token"]
        root = f"/s/{token}"
        # As the table message's header says it (bot/messages.py): "to 151 points".
        title = w.plural("web.live.title", state["target"], table=table_id,
                         variant=state["variant_name"], target=state["target"])
        attrs = {"data-events": f"{root}/table/{table_id}/events",
                 "data-api": f"/api/v1/{token}/table/{table_id}",
                 "data-live": w("web.live.live"), "data-offline": w("web.live.offline"),
                 "data-full": w("web.live.full"), "data-closed": w("web.live.closed")}
        marks = "".join(f' {k}="{escape(v)}"' for k, v in attrs.items())
        body = (f'<div id="live"{marks}>{fragment(state, w)}</div>'
                f'<p id="live-note" class="note">{escape(w("web.live.static"))}</p>'
                f'<script src="{SCRIPT}"></script>')
        return web.Response(text=pages.page(w, title, f"{root}/", body), content_type="text/html",
                            charset="utf-8", headers=NO_STORE)

    async def events(self, request: web.Request) -> web.StreamResponse:
        table_id, table, language, found = await self.table(request)
        try:
            viewer = self.feed.join(table_id, table, language)
        except Full:
            raise web.HTTPServiceUnavailable(
                text=words(language)("web.live.full"), headers={"Retry-After": "60", **NO_STORE},
                content_type="text/plain") from None
        if found is not None and self.poller is not None:
            self.poller.watch(table_id, found)  # another process runs it: polled meanwhile
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no",
            **NO_STORE, **SECURITY})
        try:
            await response.prepare(request)
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            while True:
                event = viewer.take()
                if event is not None:
                    await response.write(event)
                if viewer.ended:
                    break
                try:
                    async with asyncio.timeout(KEEPALIVE):
                        await viewer.wake.wait()
                except TimeoutError:
                    await response.write(b": still here\n\n")
            await response.write_eof()
        except ConnectionError:  # the viewer went away
            pass
        finally:
            self.feed.leave(viewer)
        return response

    async def api(self, request: web.Request) -> web.Response:
        _, table, language, _ = await self.table(request)
        return web.json_response(self.feed.state(table, language), headers=NO_STORE)

    @staticmethod
    async def script(request: web.Request) -> web.Response:
        data = files("web").joinpath("static", "live.js").read_bytes()
        return web.Response(body=data, content_type="text/javascript", charset="utf-8",
                            headers={"Cache-Control": "public, max-age=86400"})


def add_live_routes(server: WebServer, source: LiveSource[T], feed: Feed[T],
                    poller: Poller[T, Any] | None = None) -> LivePages[T]:
    """The live pages; with ``poller``, also of the tables another process runs."""
    live = LivePages(source, feed, poller)
    server.add("GET", "/static/js/live.js", live.script)
    server.add("GET", "/s/{token}/table/{table}", live.page)
    server.add("GET", "/s/{token}/table/{table}/events", live.events)
    server.add("GET", "/api/v1/{token}/table/{table}", live.api)

    async def closing(app: web.Application) -> None:
        if poller is not None:
            poller.close()
        feed.close()

    server.app.on_shutdown.append(closing)
    return live
