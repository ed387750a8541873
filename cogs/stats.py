"""/belote leaderboard, stats, history and replay: what the stored matches and ratings show.

The commands join the ``belote`` group of cogs/belote.py (a GroupCog) as every cog's do
(cogs/common.py's BeloteSubcommands), so people type ``/belote leaderboard``. Their page
buttons are persistent DynamicItems with their own prefix (``rk:``), so a
board or a replay posted before a restart still turns its pages.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import images, messages
from bot.answers import ANSWERS, PUBLIC, SlowAnswer
from bot.bot import BeloteBot
from bot.controls.base import BadControl, number, too_fast, unknown_control
from bot.errors import answer_error, reply, tell
from bot.translator import text
from bot.undelivered import answering
from db.results import PAIR_MIN, MatchRow, Period, RatingRow
from db.seasons import SEASON_MIN
from game.rules import Variant
from game.steps import decided
from i18n import Number, Words, languages, words
from rendering import LeaderboardRow
from service.markup import as_text
from service.records import Replay
from service.seasons import CURRENT, LAST

from .common import BeloteSubcommands, bot_of, member_words, option_names, public_words

log = logging.getLogger(__name__)

PAGE = 10
PREFIX = "rk"
_TEMPLATE = PREFIX + r":(?P<kind>lb|rp):(?P<args>[0-9a-z:]{1,80})"
def variant_name(variant: str, w: Words) -> str:
    return w(f"image.variant.{variant}")


def _variant_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=text(f"commands.leaderboard.variant.{v.value}"),
                                value=v.value)
            for v in Variant]


PERIODS = [app_commands.Choice(name=text(f"commands.leaderboard.period.{p.value}"),
                               value=p.value) for p in Period]


def bounded(part: str) -> int:
    """A number a button names, no larger than the database holds; ValueError otherwise."""
    try:
        return number(part, "part")
    except BadControl as e:
        raise ValueError(str(e)) from None


# ---- the leaderboard -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Board:
    """Which board and page a message shows (its buttons carry it). ``period``: a Period's
    value, or ``s<number>`` for a season's board."""

    variant: str
    period: str
    pairs: bool
    page: int  # from 0

    def custom_id(self, page: int) -> str:
        return f"{PREFIX}:lb:{self.variant}:{self.period}:{int(self.pairs)}:{page}"

    @staticmethod
    def parse(args: str) -> Board:
        variant, period, pairs, page = args.split(":")
        first = bounded(page) * PAGE  # the query's offset, a 64-bit integer too
        at = bounded(str(first)) // PAGE
        if period.startswith("s") and period[1:].isdigit():  # a season's board
            return Board(Variant(variant).value, f"s{bounded(period[1:])}", pairs == "1", at)
        return Board(Variant(variant).value, Period(period).value, pairs == "1", at)

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

    def __init__(self, bot: BeloteBot, guild_id: int, board: Board) -> None:
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


async def board_message(bot: BeloteBot, guild_id: int, user_id: int, board: Board, w: Words
                        ) -> tuple[str, list[discord.File], discord.ui.View | None]:
    """The content, image and page buttons of one page of a board, in ``w``'s language."""
    source = BoardSource(bot, guild_id, board)
    rows = await source.rows(PAGE, board.page * PAGE) if await source.ready() else []
    title = board.title(w)
    if not rows:
        return board.empty(w), [], None
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
        w("stats.board.line", rank=r.rank, who=who(r, True),
          rating=_signed(r.rating, board.period), wins=Number(r.wins), games=Number(r.matches))
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
    view = None
    if pages > 1:
        view = discord.ui.View(timeout=None)
        view.add_item(StatsButton(board.custom_id(board.page - 1), w("stats.button.previous"),
                                  disabled=board.page == 0))
        view.add_item(StatsButton(board.custom_id(board.page + 1), w("stats.button.next"),
                                  disabled=board.page + 1 >= pages))
    view = await with_web_link(
        bot, guild_id, f"/?variant={board.variant}&period={board.period}"
                       f"&pairs={int(board.pairs)}&page={board.page + 1}", w, view)
    return "\n".join(lines), files, view


async def with_web_link(bot: BeloteBot, guild_id: int, path: str, w: Words,
                        view: discord.ui.View | None) -> discord.ui.View | None:
    """``view`` with a link to the same thing's web page (docs/web.md) when ``WEB_BASE_URL``
    is set. A link button has no custom_id: the message's other buttons are unchanged."""
    links = bot.web_links
    url = await links.url(guild_id, path) if links is not None else None
    if url is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=w("web.button.open"), url=url))
    return view


def season_asked(value: str) -> str | None:
    """What ``season:`` asks for: ``current``, ``last`` or a number (the words for this one
    and the last one are understood in every language); None for anything else."""
    value = value.strip().casefold()
    if value.isdigit():
        return str(int(value))
    for language in languages():
        w = words(language)
        for which in (CURRENT, LAST):
            if value in (which, w(f"seasons.which.{which}").casefold()):
                return which
    return None


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


async def replay_message(rp: Replay, deal: int, w: Words, bot: BeloteBot | None = None
                         ) -> tuple[str, list[discord.File], discord.ui.View | None]:
    """Deal ``deal`` (from 1) of a replay, its sheet, the record and the page buttons (and,
    given the ``bot``, a link to the match's web page)."""
    results = rp.match.results
    table = rp.row.table_id
    if not results:
        return (w("stats.replay.no_deals", table=table, variant=variant_name(rp.row.variant, w)),
                [record_file(rp)], None)
    deal = min(max(deal, 1), len(results))
    content = w("stats.replay.title", table=table, variant=variant_name(rp.row.variant, w),
                deal=deal, deals=len(results),
                score=f"{w.number(rp.row.totals[0])}–{w.number(rp.row.totals[1])}")
    line = decided_line(rp, deal - 1, w)
    if line is not None:
        content += "\n" + line
    sheet = await images.deal_sheet_image(results[deal - 1], rp.match.variant, rp.players, deal,
                                         w.language)
    view = discord.ui.View(timeout=None)
    view.add_item(StatsButton(f"{PREFIX}:rp:{table}:{deal - 1}", w("stats.button.previous"),
                              disabled=deal <= 1))
    view.add_item(StatsButton(f"{PREFIX}:rp:{table}:{deal + 1}", w("stats.button.next"),
                              disabled=deal >= len(results)))
    if bot is not None:
        linked = await with_web_link(bot, rp.row.guild_id, f"/match/{table}#deal-{deal}", w,
                                     view)
        assert linked is not None
        view = linked
    return content, [sheet, record_file(rp)], view


# ---- the buttons ---------------------------------------------------------------------------
class StatsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_TEMPLATE):
    """A page button of a board or a replay (or a history's "open"): persistent, so it works
    on messages posted before a restart."""

    def __init__(self, custom_id: str, label: str = "", *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, disabled=disabled,
                                           style=discord.ButtonStyle.secondary))
        self.kind, self.args = custom_id.split(":", 2)[1:]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> StatsButton:
        return cls(match.group(0))

    def target(self) -> Board | tuple[int, int]:
        """The board page, or the (table, deal) of a replay, the button names; ValueError if
        its parts are wrong (a forged click: the template only checks the characters)."""
        if self.kind == "lb":
            return Board.parse(self.args)
        table, deal = (bounded(x) for x in self.args.split(":"))
        return table, deal

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Edit the board or replay clicked to the page asked for (a history's "open" posts
        the replay as a new message). The answer is armed as the click arrives, like every
        control's (bot/answers.py): one request when the page is ready in time, a defer first
        when the database or the image is slow. A malformed button is answered as unknown."""
        if await too_fast(interaction):
            return
        try:
            target = self.target()
        except ValueError:
            target = None
        if target is None or interaction.guild_id is None:
            with answering(interaction, "that the control is unknown", self.where()):
                await tell(interaction, unknown_control(interaction))
            return
        opens = isinstance(target, tuple) and target[1] == 0
        early = SlowAnswer.armed(interaction, update=not opens, ephemeral=False)
        try:
            try:
                await self.show(interaction, interaction.guild_id, target)
            finally:
                await early.close()
        except Exception as e:
            await answer_error(interaction, e, self.where())

    def where(self) -> str:
        """This button in a log line (a page of a board or a replay: it names no card)."""
        return f"stats button {self.kind}:{self.args}"

    async def show(self, interaction: discord.Interaction[Any], guild_id: int,
                   target: Board | tuple[int, int]) -> None:
        bot = bot_of(interaction)
        w = await public_words(interaction)
        if isinstance(target, Board):
            await edit_clicked(interaction, *await board_message(
                bot, guild_id, interaction.user.id, target, w))
            return
        table, deal = target
        rp = await bot.records.replay(guild_id, table)
        if rp is None:
            await tell(interaction, member_words(interaction)("stats.replay.gone"))
            return
        content, files, view = await replay_message(rp, max(deal, 1), w, bot)
        if deal == 0:  # a history's "open": a new message, the history stays
            await reply(interaction, content, ephemeral=False, files=files, view=view,
                        allowed_mentions=messages.NO_MENTIONS)
        else:
            await edit_clicked(interaction, content, files, view)


async def edit_clicked(interaction: discord.Interaction[Any], content: str,
                       files: list[discord.File], view: discord.ui.View | None) -> None:
    """Show a page in the message whose button was clicked, through its armed answer."""
    await SlowAnswer.of(interaction, update=True).send(
        {"content": content, "attachments": files, "view": view,
         "allowed_mentions": messages.NO_MENTIONS})


# ---- the commands --------------------------------------------------------------------------
def _percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def history_line(row: MatchRow, user_id: int, names: dict[int, str], w: Words) -> str:
    me = next(p for p in row.players if p.user_id == user_id)

    def who(seat: int) -> str:
        p = next((q for q in row.players if q.seat == seat), None)
        if p is None:
            return "?"
        if p.user_id is None:
            return w("stats.computer", level=p.computer or "?")
        return as_text(names.get(p.user_id, str(p.user_id)))

    partner = who(me.seat ^ 2)
    opponents = w("stats.board.pair", first=who((me.seat + 1) & 3), second=who((me.seat + 3) & 3))
    mine, theirs = row.totals[me.seat & 1], row.totals[1 - (me.seat & 1)]
    if me.seat in row.left:
        result = w("stats.result.left")
    elif row.ending != "played":
        result = w(f"stats.result.{row.ending}")
    else:
        result = w("stats.result.won" if row.won(me.seat) else "stats.result.lost")
    return w("stats.history.line", table=row.table_id, date=row.finished_at[:10],
             variant=variant_name(row.variant, w), partner=partner, opponents=opponents,
             score=f"{w.number(mine)}–{w.number(theirs)}", result=result)


class Stats(BeloteSubcommands):
    """/belote leaderboard, stats, history and replay, with the page buttons they post."""

    @app_commands.command(name=text("commands.leaderboard.name"),
                          description=text("commands.leaderboard.description"),
                          extras={ANSWERS: PUBLIC})
    @app_commands.rename(**option_names("leaderboard", ("variant", "period", "pairs",
                                                        "season")))
    @app_commands.describe(variant=text("commands.leaderboard.variant"),
                           period=text("commands.leaderboard.period"),
                           pairs=text("commands.leaderboard.pairs"),
                           season=text("commands.leaderboard.season"))
    @app_commands.choices(variant=_variant_choices(), period=PERIODS)
    async def leaderboard(self, interaction: discord.Interaction[Any],
                          variant: app_commands.Choice[str] | None = None,
                          period: app_commands.Choice[str] | None = None,
                          pairs: bool = False,
                          season: app_commands.Range[str, 1, 20] | None = None) -> None:
        bot = bot_of(interaction)
        assert interaction.guild_id is not None
        chosen = period.value if period else Period.ALL.value
        if season is not None:
            which = season_asked(season)
            found = None if which is None else \
                await bot.seasons.find(interaction.guild_id, which)
            if found is None:
                await tell(interaction, member_words(interaction)(
                    "stats.board.no_season", season=as_text(season[:20])))
                return
            chosen = f"s{found.number}"
        board = Board(variant.value if variant else Variant.CLASSIC.value, chosen, pairs, 0)
        source = BoardSource(bot, interaction.guild_id, board)
        rows = await source.rows(PAGE, 0) if await source.ready() else []
        w = await public_words(interaction)
        if not rows:
            await reply(interaction, board.empty(w), ephemeral=False)
            return
        # Deferred by the armed answer only if the board's image is slow to draw.
        content, files, view = await board_message(bot, interaction.guild_id,
                                                   interaction.user.id, board, w)
        await reply(interaction, content, ephemeral=False, files=files, view=view,
                    allowed_mentions=messages.NO_MENTIONS)

    @app_commands.command(name=text("commands.stats.name"),
                          description=text("commands.stats.description"),
                          extras={ANSWERS: PUBLIC})
    @app_commands.rename(**option_names("stats", ("member", "variant")))
    @app_commands.describe(member=text("commands.stats.member"),
                           variant=text("commands.stats.variant"))
    @app_commands.choices(variant=_variant_choices())
    async def stats(self, interaction: discord.Interaction[Any],
                    member: discord.Member | None = None,
                    variant: app_commands.Choice[str] | None = None) -> None:
        bot = bot_of(interaction)
        assert interaction.guild_id is not None
        user = member or interaction.user
        v = variant.value if variant else Variant.CLASSIC.value
        results = bot.records
        s = await results.stats(interaction.guild_id, user.id, v)
        w = await public_words(interaction)
        lines = [w("stats.stats.title", who=f"<@{user.id}>", variant=variant_name(v, w)),
                 w("stats.stats.matches", matches=Number(s.matches), wins=Number(s.wins),
                   rate=_percent(s.wins, s.matches)),
                 w("stats.stats.contracts", taken=s.taken, made=s.made),
                 w("stats.stats.sweeps", sweeps=s.sweeps, belotes=s.belotes)]
        lines.append(w("stats.stats.unrated") if s.rating is None
                     else w("stats.stats.rating", rating=Number(s.rating)))
        if s.best_partner is not None:
            lines.append(w("stats.stats.partner", who=f"<@{s.best_partner}>",
                           wins=s.partner_wins, games=s.partner_matches))
        if s.left:
            lines.append(w("stats.stats.left", left=s.left))
        won, second = await bot.tournaments.repo.podiums(interaction.guild_id, v, user.id)
        if won or second:
            lines.append(w("stats.stats.tournaments", won=Number(won), second=Number(second)))
        chart = await results.rating_history(interaction.guild_id, v, user.id)
        files: list[discord.File] = []
        if len(chart) >= 2:
            name = getattr(user, "display_name", None) or user.name
            try:
                files.append(await images.rating_chart_image(
                    chart, w("stats.stats.chart", who=name, variant=variant_name(v, w)),
                    w.language))
            except Exception:
                log.exception("rating chart failed; sending the text alone")
        view = await with_web_link(bot, interaction.guild_id, f"/player/{user.id}?variant={v}",
                                   w, None)
        await reply(interaction, "\n".join(lines), ephemeral=False, files=files, view=view,
                    allowed_mentions=messages.NO_MENTIONS)

    @app_commands.command(name=text("commands.history.name"),
                          description=text("commands.history.description"),
                          extras={ANSWERS: PUBLIC})
    @app_commands.rename(**option_names("history", ("member",)))
    @app_commands.describe(member=text("commands.history.member"))
    async def history(self, interaction: discord.Interaction[Any],
                      member: discord.Member | None = None) -> None:
        bot = bot_of(interaction)
        assert interaction.guild_id is not None
        user = member or interaction.user
        rows = await bot.records.history(interaction.guild_id, user.id, PAGE)
        w = await public_words(interaction)
        if not rows:
            await reply(interaction, w("stats.history.none", who=f"<@{user.id}>"),
                        ephemeral=False, allowed_mentions=messages.NO_MENTIONS)
            return
        ids = sorted({p.user_id for r in rows for p in r.players if p.user_id is not None})
        names = await bot.records.names(ids)
        lines = [w("stats.history.title", who=f"<@{user.id}>")] + [
            history_line(r, user.id, names, w) for r in rows]
        view = discord.ui.View(timeout=None)
        for r in rows:
            view.add_item(StatsButton(f"{PREFIX}:rp:{r.table_id}:0",
                                      w("stats.button.open", table=r.table_id)))
        linked = await with_web_link(bot, interaction.guild_id, f"/player/{user.id}", w, view)
        await reply(interaction, "\n".join(lines), ephemeral=False, view=linked,
                    allowed_mentions=messages.NO_MENTIONS)

    @app_commands.command(name=text("commands.replay.name"),
                          description=text("commands.replay.description"),
                          extras={ANSWERS: PUBLIC})
    @app_commands.rename(**option_names("replay", ("match",)))
    @app_commands.describe(match=text("commands.replay.match"))
    async def replay_cmd(self, interaction: discord.Interaction[Any],
                         match: app_commands.Range[int, 1]) -> None:
        bot = bot_of(interaction)
        assert interaction.guild_id is not None
        rp = await bot.records.replay(interaction.guild_id, match)
        if rp is None:
            await tell(interaction, member_words(interaction)("stats.replay.none", table=match))
            return
        w = await public_words(interaction)
        content, files, view = await replay_message(rp, 1, w, bot)
        await reply(interaction, content, ephemeral=False, files=files, view=view,
                    allowed_mentions=messages.NO_MENTIONS)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(StatsButton)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.remove_dynamic_items(StatsButton)


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Stats(bot))
