"""A server's pages and their JSON twin, under its token (service/web_links.py):

- ``/s/{token}/``: the boards (``?variant=&period=&pairs=1&page=``), in /belote leaderboard's
  order; ``/s/{token}/player/{id}`` (``?variant=``): /belote stats, the rating chart, the last
  matches; ``/s/{token}/match/{id}``: the result and every deal's sheet (``/deal/{n}.png``;
  once the match is analysed, ``/deal/{n}.png?analysis=1``, the sheet with its analysis strip:
  another address, so that a browser never shows a sheet it kept from before the analysis);
- ``/api/v1/{token}/boards``, ``/player/{id}``, ``/match/{id}`` (with its game record).

A wrong token, id or option answers 404 and nothing else (web/guard.py). The data comes from
the service the stats commands read (service/records.py), through :class:`Source`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Final, Protocol

from aiohttp import web

from db.results import Period
from db.seasons import SEASON_MIN
from game.record import GameRecord, parse_record
from game.rules import Variant
from game.steps import computer_seats, step_counts, steps
from i18n import Number, Words, words
from service.analysis_page import deal_page
from service.stat_lines import stat_lines

from . import pages, replay
from .page_cache import LRU
from .server import WebServer

if TYPE_CHECKING:
    from db.analyses import AnalysedStats, PlayerCost
    from db.results import MatchRow, PlayerStats, RatingRow
    from service.records import Records, Replay

PAGE: Final = 10  # a board's page, as /belote leaderboard's
HISTORY: Final = 10
PAGE_CACHE: Final = {"Cache-Control": "private, max-age=15"}
STATIC_CACHE: Final = {"Cache-Control": "public, max-age=86400"}
# What the match pages keep built (web/page_cache.py): pages (a 15-deal match's is ~75 KiB)
# up to this many characters, and this many matches read and replayed.
PAGES_SIZE: Final = 32 * 2 ** 20
REPLAYS: Final = 256
MAX_ID: Final = 2 ** 63 - 1
# What /static/ serves: each file, its type.
STATIC: Final = {
    "site.css": "text/css",
    "replay.js": "text/javascript",
}


@dataclass(frozen=True, slots=True)
class PlayerData:
    """What a player's page and its JSON show: /belote stats' figures (with the analysed
    cards and the tournament podiums), the rating chart, the last matches, and the names
    they need."""

    stats: PlayerStats
    analysed: AnalysedStats
    podiums: tuple[int, int]
    chart: list[float]
    history: list[MatchRow]
    names: dict[int, str]

    def name(self, user_id: int) -> str:
        return self.names.get(user_id, str(user_id))


def analysis_html(rp: Replay, analysed: dict[int, dict[str, Any]],
                  players: list[PlayerCost], deal: int, w: Words) -> str:
    """Deal ``deal``'s analysis (from 1), if stored: its par, costly bids and cards."""
    if deal > len(analysed):
        return ""
    p = deal_page(rp.match.variant, rp.players, rp.record["deals"], analysed, players, deal, w)
    parts = [f'<div class="analysis"><h3>{escape(w("stats.button.analysis"))}</h3>',
             pages.paragraph(p.par),
             pages.paragraph(w("analysis.bids") if p.bids else w("analysis.bids.none"))]
    if p.bids:
        parts.append(pages.lines(p.bids))
    parts.append(pages.paragraph(w("analysis.cards") if p.cards else w("analysis.cards.none")))
    if p.cards:
        parts.append(pages.lines(p.cards))
    return "".join(parts) + "</div>"


class Source(Protocol):
    @property
    def records(self) -> Records: ...

    async def guild_of(self, token: str) -> int | None: ...

    async def language(self, guild_id: int) -> str: ...

    async def deal_sheet(self, replay: Replay, deal: int, language: str,
                         analysed: bool = False) -> bytes:
        """Deal ``deal``'s sheet (from 1); with its analysis strip when ``analysed``."""
        ...

    async def analysis(self, table_id: int
                       ) -> tuple[dict[int, dict[str, Any]], list[PlayerCost]]: ...

    async def analysed(self, table_id: int) -> bool:
        """Whether the match's analysis is done (then stored for good)."""
        ...

    async def member_analysis(self, guild_id: int, user_id: int, variant: str
                              ) -> AnalysedStats:
        """A member's chosen cards over their analysed matches (/belote stats' line)."""
        ...

    async def podiums(self, guild_id: int, variant: str, user_id: int) -> tuple[int, int]:
        """(tournaments won, second places) of a member (/belote stats' line)."""
        ...


def _not_found() -> web.HTTPNotFound:
    return web.HTTPNotFound(text="404")


def _id(text: str) -> int:
    if not text.isdigit() or len(text) > 19 or not 0 < int(text) <= MAX_ID:
        raise _not_found()
    return int(text)


def _board_args(request: web.Request) -> tuple[str, str, bool, int]:
    q = request.query
    asked = q.get("period", Period.ALL.value)
    try:
        variant = Variant(q.get("variant", Variant.CLASSIC.value)).value
        # A season's board is s<number>, as /belote leaderboard's buttons carry it.
        period = _season_period(asked) or Period(asked).value
    except ValueError:
        raise _not_found() from None
    pairs = q.get("pairs", "0")
    page = q.get("page", "1")
    if pairs not in ("0", "1") or not page.isdigit() or not 1 <= int(page) <= 10 ** 6:
        raise _not_found()
    return variant, period, pairs == "1", int(page) - 1


def _season_period(text: str) -> str | None:
    """``s<number>`` (a season's board) as it is, without leading zeros; None otherwise."""
    digits = text[1:]
    if text[:1] == "s" and digits.isdigit() and len(digits) <= 6 and int(digits) > 0:
        return f"s{int(digits)}"
    return None


def season_of(period: str) -> int | None:
    return int(period[1:]) if period.startswith("s") else None


def board_title(variant: str, period: str, pairs: bool, w: Words) -> str:
    """The title /belote leaderboard gives the same board."""
    vname = w(f"image.variant.{variant}")
    season = season_of(period)
    if season is not None:
        return w("stats.board.title_season" + ("_pairs" if pairs else ""), variant=vname,
                 number=season)
    key = "stats.board.title" + ("_pairs" if pairs else "") + \
        ("" if period == Period.ALL else f"_{period}")
    return w(key, variant=vname)


@dataclass(frozen=True, slots=True)
class Known:
    """A finished match as its pages need it: read and replayed, its steps per deal, the
    seats a computer played throughout."""

    replay: Replay
    record: GameRecord  # the replay's record parsed once: each deal's steps are read from it
    counts: list[int]
    computers: frozenset[int]


def _step_asked(request: web.Request, counts: list[int]) -> tuple[int, int | None]:
    """The step asked for (``?step=``, from 0) and its deal; (0, None) when the match ended
    before its first deal (nothing to replay). Not a step of the match: 404."""
    if not counts:
        return 0, None
    asked = request.query.get("step", "0")
    if not asked.isdigit() or len(asked) > 6 or int(asked) >= sum(counts):
        raise _not_found()
    shown, deal = int(asked), 0
    while shown >= sum(counts[:deal + 1]):
        deal += 1
    return shown, deal


class Site:
    def __init__(self, source: Source, *, pages_size: int = PAGES_SIZE,
                 replays: int = REPLAYS) -> None:
        self.source = source
        self.pages: LRU[str] = LRU(pages_size)  # match pages, by their characters
        self.replays: LRU[Known] = LRU(replays)

    async def guild(self, request: web.Request) -> tuple[int, Words, str]:
        """The server the token opens, its words and the pages' root; 404 otherwise."""
        token = request.match_info["token"]
        guild_id = await self.source.guild_of(token)
        if guild_id is None:
            raise _not_found()
        return guild_id, words(await self.source.language(guild_id)), f"/s/{token}"

    # ---- data, shared by the pages and the API ---------------------------------------------
    async def board_data(self, guild_id: int, variant: str, period: str, pairs: bool,
                         page: int) -> tuple[list[RatingRow], int, dict[int, str]]:
        records = self.source.records
        season = season_of(period)
        if season is not None:  # a season's gains (service/seasons.py), as /belote leaderboard
            key = await records.season_period(guild_id, season)
            if key is None:
                raise _not_found()
            rows = await records.season_board(guild_id, variant, key, PAGE, page * PAGE, pairs)
            size = await records.season_board_size(guild_id, variant, key, pairs) \
                if rows else 0
        else:
            rows = await records.board(guild_id, variant, PAGE, page * PAGE, period, pairs)
            size = await records.board_size(guild_id, variant, period, pairs) if rows else 0
        ids = {r.user_id for r in rows} | {r.partner_id for r in rows if r.partner_id}
        return rows, size, await records.names(sorted(ids))

    async def player_data(self, guild_id: int, user_id: int, variant: str) -> PlayerData:
        records = self.source.records
        stats = await records.stats(guild_id, user_id, variant)
        chart = await records.rating_history(guild_id, variant, user_id)
        history = await records.history(guild_id, user_id, HISTORY)
        ids = {user_id} | {p.user_id for r in history for p in r.players if p.user_id}
        if stats.best_partner:
            ids.add(stats.best_partner)
        return PlayerData(stats, await self.source.member_analysis(guild_id, user_id, variant),
                          await self.source.podiums(guild_id, variant, user_id), chart,
                          history, await records.names(sorted(ids)))

    # ---- pages -----------------------------------------------------------------------------
    async def boards(self, request: web.Request) -> web.Response:
        guild_id, w, root = await self.guild(request)
        variant, period, pairs, page = _board_args(request)
        rows, size, names = await self.board_data(guild_id, variant, period, pairs, page)
        pages_count = max(1, -(-size // PAGE))
        if page >= pages_count and page > 0:
            raise _not_found()

        def href(**change: object) -> str:
            args = {"variant": variant, "period": period, "pairs": int(pairs), "page": 1,
                    **change}
            return f"{root}/?variant={args['variant']}&period={args['period']}" \
                   f"&pairs={args['pairs']}&page={args['page']}"

        def who(uid: int) -> str:
            return pages.link(f"{root}/player/{uid}?variant={variant}",
                              names.get(uid, str(uid)))

        title = board_title(variant, period, pairs, w)
        body = [pages.choices(pages.link(href(variant=v.value), w(f"image.variant.{v.value}"),
                                         on=v.value == variant) for v in Variant),
                pages.choices([*(pages.link(href(period=p.value),
                                            w(f"commands.leaderboard.period.{p.value}"),
                                            on=p.value == period) for p in Period),
                               *(pages.link(href(period=f"s{n}"),
                                            w("web.board.season", number=n),
                                            on=f"s{n}" == period)
                                 for n in await self.source.records.seasons(guild_id))]),
                pages.choices([pages.link(href(pairs=0), w("web.board.players"), on=not pairs),
                               pages.link(href(pairs=1), w("web.board.pairs"), on=pairs)])]
        if season_of(period) is not None:
            body.append(pages.paragraph(w.plural("stats.board.season_minimum", SEASON_MIN)))
        if not rows:
            body.append(pages.paragraph(w("web.board.empty")))
        else:
            signed = period != Period.ALL
            body.append(pages.table(
                [("r", "#"), ("", w("web.board.who")), ("n", w("web.board.rating")),
                 ("n", w("web.board.wins")), ("n", w("web.board.matches"))],
                [(str(r.rank),
                  who(r.user_id) if not r.partner_id else
                  f"{who(r.user_id)} &amp; {who(r.partner_id)}",
                  Number(r.rating, signed).text(w), Number(r.wins).text(w),
                  Number(r.matches).text(w)) for r in rows]))
            none = "<span></span>"
            nav = [pages.link(href(page=page), w("web.board.previous")) if page > 0 else none,
                   pages.paragraph(w("web.board.page", page=page + 1, pages=pages_count)),
                   pages.link(href(page=page + 2), w("web.board.next"))
                   if page + 1 < pages_count else none]
            body.append(f'<nav class="pager">{"".join(nav)}</nav>')
        return self.html(pages.page(w, title, f"{root}/", "".join(body)))

    async def known_player(self, request: web.Request
                           ) -> tuple[Words, str, int, str, PlayerData]:
        """The player a page or the API asks for (``/player/{user}?variant=``): the server's
        words and root, the id, the variant and what there is to show; 404 for a malformed id
        or variant, and for someone who never played here (it says nothing about the id)."""
        guild_id, w, root = await self.guild(request)
        user_id = _id(request.match_info["user"])
        try:
            variant = Variant(request.query.get("variant", Variant.CLASSIC.value)).value
        except ValueError:
            raise _not_found() from None
        data = await self.player_data(guild_id, user_id, variant)
        if not data.stats.matches and not data.history:
            raise _not_found()
        return w, root, user_id, variant, data

    async def player(self, request: web.Request) -> web.Response:
        w, root, user_id, variant, data = await self.known_player(request)
        name = data.name(user_id)
        vname = w(f"image.variant.{variant}")
        title = w("web.player.title", who=name, variant=vname)
        # /belote stats' lines (service/stat_lines.py), the names as text (escaped by lines).
        facts = stat_lines(data.stats, data.analysed, data.podiums, data.name, w)
        body = [pages.choices(pages.link(f"{root}/player/{user_id}?variant={v.value}",
                                         w(f"image.variant.{v.value}"), on=v.value == variant)
                              for v in Variant),
                pages.lines(facts),
                pages.chart(data.chart, w("stats.stats.chart", who=name, variant=vname), w),
                f"<h2>{escape(w('web.player.last'))}</h2>"]
        items = []
        for r in data.history:
            me = next(p for p in r.players if p.user_id == user_id)
            mine, theirs = r.totals[me.seat & 1], r.totals[1 - (me.seat & 1)]
            result = w("stats.result.left") if me.seat in r.left else \
                w(f"stats.result.{r.ending}") if r.ending != "played" else \
                w("stats.result.won" if r.won(me.seat) else "stats.result.lost")
            items.append("<li>" + pages.link(f"{root}/match/{r.table_id}", w(
                "web.player.match", table=r.table_id, date=r.finished_at[:10],
                variant=w(f"image.variant.{r.variant}"),
                score=f"{w.number(mine)}–{w.number(theirs)}", result=result)) + "</li>")
        body.append('<ul class="lines">' + "".join(items) + "</ul>")
        return self.html(pages.page(w, title, f"{root}/", "".join(body)))

    async def replay(self, guild_id: int, table_id: int) -> Known | None:
        """A finished match of this server, read and replayed once while it is used (a
        match not finished yet is read again: it may finish)."""
        key = (guild_id, table_id)
        known = self.replays.get(key)
        if known is None:
            rp = await self.source.records.replay(guild_id, table_id)
            if rp is None:
                return None
            record = parse_record(rp.record)
            known = Known(rp, record, step_counts(record), computer_seats(record))
            self.replays.put(key, known, 1)
        return known

    async def match(self, request: web.Request) -> web.Response:
        guild_id, w, root = await self.guild(request)
        known = await self.replay(guild_id, _id(request.match_info["table"]))
        if known is None:
            raise _not_found()
        shown, deal = _step_asked(request, known.counts)
        # What is built is kept per everything it depends on (web/page_cache.py): the match,
        # the token (its links), the language, whether the analysis is done (it arrives once
        # and never changes after), the deal shown; the step shown is unhidden in a copy.
        analysed = await self.source.analysed(known.replay.row.table_id)
        key = (guild_id, known.replay.row.table_id, root, w.language, analysed, deal)
        page = self.pages.get(key)
        if page is None:
            page = await self.match_page(known, deal, analysed, root,
                                         request.match_info["token"], w)
            self.pages.put(key, page, len(page))
        return self.html(replay.unhide(page, shown) if deal is not None else page)

    async def match_page(self, known: Known, deal: int | None, analysed: bool, root: str,
                         token: str, w: Words) -> str:
        """The match page with every step of ``deal``'s replay hidden (None: no deal to
        replay); the analysis when ``analysed``."""
        rp = known.replay
        row = rp.row
        title = w("web.match.title", table=row.table_id,
                  variant=w(f"image.variant.{row.variant}"))
        teams = [w("stats.board.pair", first=rp.players[s], second=rp.players[s + 2])
                 for s in (0, 1)]
        body = [pages.lines([
            w("web.match.score", first=teams[0], second=teams[1],
              score=f"{w.number(row.totals[0])}–{w.number(row.totals[1])}"),
            w("web.match.when", date=row.finished_at[:16].replace("T", " "),
              deals=row.deals)])]
        if deal is not None:  # the card-by-card replay (web/replay.py)
            # The deal played from the match as it stood before it (the replay kept it): the
            # deals before it are not replayed a second time.
            shown = steps(known.record, deal, start=rp.match.at_deal(deal))
            body.append(replay.section(shown, known.counts, -1, rp.players,
                                       row, f"{root}/match/{row.table_id}", w,
                                       known.computers))
        # The double-dummy analysis, once stored (service/analysis.py): each deal's under its
        # sheet, the players' over the match after the deals, as the Discord page says it.
        analysed_deals, players = await self.source.analysis(row.table_id) if analysed \
            else ({}, [])
        sheet = "?analysis=1" if analysed else ""  # the sheets with their analysis strip
        for n in range(1, len(rp.match.results) + 1):
            label = w("web.match.deal", deal=n)
            # The sheet, a link to itself: on a phone, shrunk to the screen's width, its
            # figures are too small to read; opened alone, it can be zoomed.
            src = f"{root}/match/{row.table_id}/deal/{n}.png{sheet}"
            body.append(f'<section class="deal" id="deal-{n}"><h2>{escape(label)}</h2>'
                        f'<a class="sheet" href="{src}"><img src="{src}"'
                        f' alt="{escape(label)}" width="800"></a>'
                        f"{analysis_html(rp, analysed_deals, players, n, w)}</section>")
        if analysed_deals and players:
            p = deal_page(rp.match.variant, rp.players, rp.record["deals"], analysed_deals,
                          players, 1, w)
            body.append(f'<section class="analysis" id="analysis">'
                        f'<h2>{escape(w("stats.button.analysis"))}</h2>'
                        f'{pages.paragraph(w("analysis.players"))}{pages.lines(p.players)}'
                        f'{pages.paragraph(w("analysis.legend"))}</section>')
        body.append(pages.paragraph(w("web.match.record")) + pages.link(
            f"/api/v1/{token}/match/{row.table_id}", "JSON"))
        return pages.page(w, title, f"{root}/", "".join(body))

    async def deal_png(self, request: web.Request) -> web.Response:
        guild_id, w, _ = await self.guild(request)
        known = await self.replay(guild_id, _id(request.match_info["table"]))
        rp = known.replay if known is not None else None
        deal = request.match_info["deal"]
        if rp is None or not deal.isdigit() or not 1 <= int(deal) <= len(rp.match.results):
            raise _not_found()
        # The address says which sheet it is (a browser keeps each for a day): with the
        # analysis strip (the match page links it once the analysis is done), or without.
        analysed = request.query.get("analysis") == "1"
        if analysed and not await self.source.analysed(rp.row.table_id):
            raise _not_found()
        data = await self.source.deal_sheet(rp, int(deal), w.language, analysed)
        # A finished match's sheet never changes (but the token can be renewed: private).
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=86400"})

    # ---- the JSON API ----------------------------------------------------------------------
    async def api_boards(self, request: web.Request) -> web.Response:
        guild_id, _, _ = await self.guild(request)
        variant, period, pairs, page = _board_args(request)
        rows, size, names = await self.board_data(guild_id, variant, period, pairs, page)
        return web.json_response({
            "variant": variant, "period": period, "pairs": pairs, "page": page + 1,
            "pages": max(1, -(-size // PAGE)), "size": size,
            "rows": [{"rank": r.rank, "user_id": str(r.user_id),
                      "name": names.get(r.user_id, str(r.user_id)),
                      "partner_id": str(r.partner_id) if r.partner_id else None,
                      "partner_name": names.get(r.partner_id) if r.partner_id else None,
                      "rating": r.rating, "wins": r.wins, "matches": r.matches}
                     for r in rows]}, headers=PAGE_CACHE)

    async def api_player(self, request: web.Request) -> web.Response:
        _, _, user_id, variant, data = await self.known_player(request)
        stats, analysed = data.stats, data.analysed
        return web.json_response({
            "user_id": str(user_id), "name": data.name(user_id),
            "variant": variant, "matches": stats.matches, "wins": stats.wins,
            "taken": stats.taken, "made": stats.made, "sweeps": stats.sweeps,
            "belotes": stats.belotes, "left": stats.left, "rating": stats.rating,
            "best_partner": str(stats.best_partner) if stats.best_partner else None,
            "analysed": {"matches": analysed.matches, "cards": analysed.cards,
                         "exact": analysed.exact, "cost": analysed.cost,
                         "cost_points": analysed.cost_points},
            "tournaments": {"won": data.podiums[0], "second": data.podiums[1]},
            "rating_history": data.chart,
            "last_matches": [{"table": r.table_id, "variant": r.variant,
                              "finished_at": r.finished_at, "totals": list(r.totals),
                              "ending": r.ending} for r in data.history]}, headers=PAGE_CACHE)

    async def api_match(self, request: web.Request) -> web.Response:
        guild_id, _, _ = await self.guild(request)
        known = await self.replay(guild_id, _id(request.match_info["table"]))
        if known is None:
            raise _not_found()
        rp = known.replay
        row = rp.row
        return web.json_response({
            "table": row.table_id, "variant": row.variant, "ending": row.ending,
            "winner": row.winner, "totals": list(row.totals), "deals": row.deals,
            "finished_at": row.finished_at, "players": rp.players, "record": rp.record},
            headers=PAGE_CACHE)

    # ---- plumbing --------------------------------------------------------------------------
    @staticmethod
    def html(text: str) -> web.Response:
        return web.Response(text=text, content_type="text/html", charset="utf-8",
                            headers=PAGE_CACHE)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise _not_found()
        data = files("web").joinpath("static", name).read_bytes()
        return web.Response(body=data, content_type=STATIC[name], headers=STATIC_CACHE)


def add_site_routes(server: WebServer, source: Source) -> Site:
    site = Site(source)
    server.add("GET", "/static/{name}", site.static)
    server.add("GET", "/s/{token}/", site.boards)
    server.add("GET", "/s/{token}/player/{user}", site.player)
    server.add("GET", "/s/{token}/match/{table}", site.match)
    server.add("GET", "/s/{token}/match/{table}/deal/{deal}.png", site.deal_png)
    server.add("GET", "/api/v1/{token}/boards", site.api_boards)
    server.add("GET", "/api/v1/{token}/player/{user}", site.api_player)
    server.add("GET", "/api/v1/{token}/match/{table}", site.api_match)
    return site
