"""What a page of the stats commands shows: a leaderboard's page and a replay's deal, as text
and images, in a reader's language. Their page buttons are controls (bot/controls/pages.py),
which put a page and its buttons together on a message.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from db.results import PAIR_MIN, Period, RatingRow
from db.seasons import SEASON_MIN
from game.rules import Variant
from game.steps import decided
from i18n import Number, Words
from rendering import LeaderboardRow
from service.analysis_page import sheet_analysis_of
from service.markup import as_text
from service.records import Replay

from . import images

if TYPE_CHECKING:
    from service.analysis import AnalysisRunner

    from .host import Host

log = logging.getLogger(__name__)

PAGE = 10  # lines of a board's page, and of a history


@dataclass(frozen=True, slots=True)
class Page:
    """One page: its text, its images and files, and the path of the same thing's web page
    (docs/web.md), linked when the web pages are on."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    web_path: str | None = None


def variant_name(variant: str, w: Words) -> str:
    return w(f"image.variant.{variant}")


# ---- the leaderboard -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Board:
    """Which board and page a message shows (its buttons carry it). ``period``: a Period's
    value, or ``s<number>`` for a season's board."""

    variant: str
    period: str
    pairs: bool
    page: int  # from 0

    def __post_init__(self) -> None:
        Variant(self.variant)  # ValueError for a variant we don't play
        if not (self.period.startswith("s") and self.period[1:].isdigit()):
            Period(self.period)  # ValueError for a period we don't know

    @property
    def season(self) -> int | None:
        return int(self.period[1:]) if self.period.startswith("s") else None

    def title(self, w: Words) -> str:
        if self.season is not None:
            return w("stats.board.title_season" + ("_pairs" if self.pairs else ""),
                     variant=variant_name(self.variant, w), number=self.season)
        key = "stats.board.title" + ("_pairs" if self.pairs else "") + \
            ("" if self.period == Period.ALL else f"_{self.period}")
        return w(key, variant=variant_name(self.variant, w))

    def empty(self, w: Words) -> str:
        if self.season is not None:
            return w.plural("stats.board.empty_season", SEASON_MIN, title=self.title(w))
        if self.pairs and self.period == Period.ALL:
            return w("stats.board.empty_pairs", title=self.title(w), n=PAIR_MIN)
        return w("stats.board.empty", title=self.title(w))


class BoardSource:
    """Where a board's lines come from: the ratings (all time, month, week), or a season's
    gains (service/seasons.py) with its minimum of rated matches."""

    def __init__(self, bot: Host, guild_id: int, board: Board) -> None:
        self.bot, self.guild_id, self.board = bot, guild_id, board
        self.key: str | None = None

    async def ready(self) -> bool:
        """False for a season that is not (any more) there."""
        if self.board.season is None:
            return True
        season = await self.bot.seasons.repo.get(self.guild_id, self.board.season)
        self.key = season.period if season is not None else None
        return self.key is not None

    async def rows(self, limit: int, offset: int) -> list[RatingRow]:
        b = self.board
        if self.key is not None:
            return await self.bot.seasons.repo.board(self.guild_id, b.variant, self.key,
                                                     limit, offset, b.pairs)
        return await self.bot.records.board(self.guild_id, b.variant, limit, offset,
                                            b.period, b.pairs)

    async def size(self) -> int:
        b = self.board
        if self.key is not None:
            return await self.bot.seasons.repo.board_size(self.guild_id, b.variant, self.key,
                                                          b.pairs)
        return await self.bot.records.board_size(self.guild_id, b.variant, b.period, b.pairs)

    async def rank_of(self, user_id: int) -> RatingRow | None:
        b = self.board
        if self.key is not None:
            return await self.bot.seasons.repo.rank_of(self.guild_id, b.variant, self.key,
                                                       user_id, b.pairs)
        return await self.bot.records.rank_of(self.guild_id, b.variant, user_id, b.period,
                                              b.pairs)


def _signed(value: float, period: str) -> Number:
    """A rating (all time), or its change over a period (+12)."""
    return Number(value, signed=period != Period.ALL)  # a season's too


async def board_page(bot: Host, guild_id: int, user_id: int, board: Board, w: Words
                     ) -> tuple[Page, int]:
    """One page of a board in ``w``'s language, and how many pages it has (0: it is empty)."""
    source = BoardSource(bot, guild_id, board)
    rows = await source.rows(PAGE, board.page * PAGE) if await source.ready() else []
    title = board.title(w)
    if not rows:
        return Page(board.empty(w)), 0
    size = await source.size()
    pages = max(1, -(-size // PAGE))
    mine = await source.rank_of(user_id)
    ids = {r.user_id for r in rows} | {r.partner_id for r in rows if r.partner_id}
    if mine is not None:
        ids |= {mine.user_id, mine.partner_id} - {0}
    names = await bot.records.names(sorted(ids))

    def name(uid: int) -> str:
        return names.get(uid, str(uid))

    def who(r: RatingRow, mention: bool) -> str:
        one = (lambda u: f"<@{u}>") if mention else name
        if not r.partner_id:
            return one(r.user_id)
        return w("stats.board.pair", first=one(r.user_id), second=one(r.partner_id))

    lines = [f"**{title}**"] + [
        w.plural("stats.board.line", r.wins, rank=r.rank, who=who(r, True),
                 rating=_signed(r.rating, board.period), games=Number(r.matches))
        for r in rows]
    if pages > 1:
        lines.append(w("stats.board.page", page=board.page + 1, pages=pages))
    if board.season is not None:
        lines.append(w.plural("stats.board.season_minimum", SEASON_MIN))
    shown = {r.rank for r in rows}
    if mine is None:
        lines.append(w("stats.board.you_unranked", who=f"<@{user_id}>"))
    elif mine.rank not in shown:
        lines.append(w("stats.board.you", who=who(mine, True), rank=mine.rank,
                       rating=_signed(mine.rating, board.period)))
    files: list[discord.File] = []
    try:
        files.append(await images.leaderboard_image(
            [LeaderboardRow(r.rank, who(r, False), r.rating, r.matches, r.wins) for r in rows],
            title, w.language))
    except Exception:  # the text says it all: the image is a nicety
        log.exception("leaderboard image failed; sending the text alone")
    path = (f"/?variant={board.variant}&period={board.period}&pairs={int(board.pairs)}"
            f"&page={board.page + 1}")
    return Page("\n".join(lines), files, path), pages


async def with_web_link(bot: Host, guild_id: int, path: str | None, w: Words,
                        view: discord.ui.View | None) -> discord.ui.View | None:
    """``view`` with a link to the same thing's web page (docs/web.md) when ``WEB_BASE_URL``
    is set. A link button has no custom_id: the message's other buttons are unchanged."""
    links = bot.web_links
    url = await links.url(guild_id, path) if links is not None and path is not None else None
    if url is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=w("web.button.open"), url=url))
    return view


# ---- the replay ----------------------------------------------------------------------------
def record_file(rp: Replay) -> discord.File:
    data = json.dumps(rp.record, indent=1).encode()
    return images.BufferFile(data, f"belote-{rp.row.table_id}.json")


BY_ORDER = ("forced", "ahead", "computer", "timeout")


def decided_line(rp: Replay, deal: int, w: Words) -> str | None:
    """What of deal ``deal`` (from 0) nobody clicked on their turn (the log's "by"): forced
    cards, choices made ahead, a claim, a computer's or a timeout's moves for a person; None
    when every action was clicked (or the record is from before the log said)."""
    d = decided(rp.record, deal)
    parts = [w.plural(f"stats.replay.by.{by}", d.counts[by]) for by in BY_ORDER
             if d.counts.get(by)]
    others = sum(n for by, n in d.counts.items() if by not in BY_ORDER)
    if others:
        parts.append(w.plural("stats.replay.by.other", others))
    if d.claimant is not None:
        parts.append(w.plural("stats.replay.by.claim", d.claimed,
                              name=as_text(rp.players[d.claimant])))
    return w("stats.replay.decided", what=", ".join(parts)) if parts else None


async def replay_page(rp: Replay, deal: int, w: Words,
                      analyses: AnalysisRunner | None = None) -> tuple[Page, int]:
    """Deal ``deal`` (from 1, brought within the match's deals) of a replay: its sheet (with
    its analysis strip once ``analyses`` has the match analysed) and the record; and the deal
    shown (0: the match has no deal)."""
    results = rp.match.results
    table = rp.row.table_id
    if not results:
        return Page(w("stats.replay.no_deals", table=table,
                      variant=variant_name(rp.row.variant, w)), [record_file(rp)]), 0
    deal = min(max(deal, 1), len(results))
    content = w("stats.replay.title", table=table, variant=variant_name(rp.row.variant, w),
                deal=deal, deals=len(results),
                score=f"{w.number(rp.row.totals[0])}–{w.number(rp.row.totals[1])}")
    line = decided_line(rp, deal - 1, w)
    if line is not None:
        content += "\n" + line
    analysis = await sheet_analysis_of(analyses, rp, deal) if analyses is not None else None
    sheet = await images.deal_sheet_image(results[deal - 1], rp.match.variant, rp.players, deal,
                                         w.language, analysis)
    return Page(content, [sheet, record_file(rp)], f"/match/{table}#deal-{deal}"), deal
