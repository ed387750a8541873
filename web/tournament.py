"""A tournament's page: its bracket, live while it runs.

- ``/s/{token}/tournament/{id}``: the format, who signed up, one column per round (one box per
  table: its two pairs, the winning pair once it finished, a link to the live page of a table
  in play), the winners at the end. While the tournament is open, ``/static/js/live.js`` reads
  the JSON below every ``POLL`` seconds and reloads the page when it changed;
- ``/api/v1/{token}/tournament/{id}``: the same as JSON (docs/web.md).

A tournament of another server, or none, answers 404. The data is made by the bot's side
(``bot/live_watch.py``, ``tournament_state``), through :class:`TournamentSource`.
"""

from __future__ import annotations

from html import escape
from typing import Any, Final, Protocol

from aiohttp import web

from i18n import Words, words

from . import pages
from .live import SCRIPT
from .server import WebServer

State = dict[str, Any]
POLL: Final = 10  # seconds between two looks of an open tournament's page at its JSON
NO_STORE: Final = {"Cache-Control": "no-store"}
OPEN: Final = ("sign_up", "running")


class TournamentSource(Protocol):
    async def guild_of(self, token: str) -> int | None: ...

    async def language(self, guild_id: int) -> str: ...

    async def tournament(self, guild_id: int, tournament_id: int,
                         language: str) -> State | None:
        """The tournament's state if it is one of this server's, else None."""
        ...


def _not_found() -> web.HTTPNotFound:
    return web.HTTPNotFound(text="404")


def _pair(pair: list[str], w: Words) -> str:
    return w("web.tournament.pair", first=pair[0], second=pair[1])


def bracket(state: State, root: str, w: Words) -> str:
    """One column per round, the rounds still to come as empty boxes."""
    drawn = {r["number"]: r for r in state["rounds"]}
    columns = []
    for index, count in enumerate(state["tables_per_round"]):
        number = index + 1
        boxes = []
        tables = drawn[number]["tables"] if number in drawn else []
        for position in range(count):
            if position >= len(tables):
                boxes.append(f'<li class="match empty">{escape(w("web.tournament.to_come"))}'
                             "</li>")
                continue
            t = tables[position]
            pairs = []
            for team in (0, 1):
                mark = ' class="won"' if t["winner"] == team else ""
                pairs.append(f"<span{mark}>{escape(_pair(t['pairs'][team], w))}</span>")
            if t["winner"] is not None:
                status = escape(w("web.tournament.won", pair=_pair(t["pairs"][t["winner"]], w)))
            elif t["live"]:
                status = pages.link(f"{root}/table/{t['table']}",
                                    w("web.tournament.watch", table=t["table"]))
            elif state["stage"] == "cancelled":  # its tournament ended before it did
                status = escape(w("web.tournament.not_played"))
            else:
                status = escape(w("web.tournament.playing"))
            against = escape(w("web.tournament.against"))
            boxes.append(f'<li class="match">{pairs[0]}<span class="vs">{against}</span>'
                         f'{pairs[1]}<span class="status">{status}</span></li>')
        title = escape(w("web.tournament.round", round=number))
        columns.append(f'<section class="round"><h2>{title}</h2><ol>{"".join(boxes)}</ol>'
                       "</section>")
    return f'<div class="bracket">{"".join(columns)}</div>'


def summary(state: State, w: Words) -> list[str]:
    stage = state["stage"]
    lines = []
    if stage == "sign_up":
        lines.append(w("web.tournament.sign_up", count=len(state["entrants"]),
                       places=state["places"]))
    elif stage == "running":
        lines.append(w("web.tournament.running", seconds=POLL))
    elif stage == "finished":
        lines.append(w("web.tournament.finished", winners=_pair(state["winners"], w),
                       second=_pair(state["runners_up"], w)))
    else:
        lines.append(w("web.tournament.cancelled"))
    names = ", ".join(e["name"] for e in state["entrants"])
    if names:
        lines.append(w("web.tournament.entrants", names=names))
    return lines


class TournamentPages:
    def __init__(self, source: TournamentSource) -> None:
        self.source = source

    async def state(self, request: web.Request) -> tuple[State, Words, str]:
        token = request.match_info["token"]
        guild_id = await self.source.guild_of(token)
        text = request.match_info["tournament"]
        if guild_id is None or not text.isdigit() or len(text) > 18 or int(text) <= 0:
            raise _not_found()
        language = await self.source.language(guild_id)
        state = await self.source.tournament(guild_id, int(text), language)
        if state is None:
            raise _not_found()
        return state, words(language), token

    async def page(self, request: web.Request) -> web.Response:
        state, w, token = await self.state(request)
        root = f"/s/{token}"
        api = f"/api/v1/{token}/tournament/{state['tournament']}"
        watch = ""
        if state["stage"] in OPEN:  # the script looks for changes, and reloads on one
            watch = (f'<div id="follow" data-api="{escape(api)}" data-seconds="{POLL}"'
                     f' data-version="{escape(state["version"])}"></div>'
                     f'<script src="{SCRIPT}"></script>')
        body = (pages.lines(summary(state, w)) + bracket(state, root, w) +
                f"<p>{pages.link(api, 'JSON')}</p>" + watch)
        return web.Response(text=pages.page(w, state["title"], f"{root}/", body),
                            content_type="text/html", charset="utf-8", headers=NO_STORE)

    async def api(self, request: web.Request) -> web.Response:
        state, _, _ = await self.state(request)
        return web.json_response(state, headers=NO_STORE)


def add_tournament_routes(server: WebServer, source: TournamentSource) -> TournamentPages:
    pages_ = TournamentPages(source)
    server.add("GET", "/s/{token}/tournament/{tournament}", pages_.page)
    server.add("GET", "/api/v1/{token}/tournament/{tournament}", pages_.api)
    return pages_
