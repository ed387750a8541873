"""/belote leaderboard, stats, history and replay: what the stored matches and ratings show.

The commands join the ``belote`` group of cogs/belote.py (a GroupCog) as every cog's do
(cogs/common.py's BeloteSubcommands), so people type ``/belote leaderboard``. What their
pages show is bot/pages.py; their page buttons are controls (bot/controls/pages.py), so a
board or a replay posted before a restart still turns its pages.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot import images, messages
from bot.answers import ANSWERS, PUBLIC
from bot.bot import BeloteBot
from bot.controls.base import public_words
from bot.controls.pages import board_message, open_button, replay_message
from bot.errors import reply, tell
from bot.pages import PAGE, Board, BoardSource, variant_name, with_web_link
from bot.translator import text
from db.results import MatchRow, Period
from game.rules import Variant
from i18n import Words, languages, words
from service.markup import as_text
from service.seasons import CURRENT, LAST
from service.stat_lines import stat_lines

from .common import BeloteSubcommands, bot_of, member_words, option_names

log = logging.getLogger(__name__)

def _variant_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=text(f"commands.leaderboard.variant.{v.value}"),
                                value=v.value)
            for v in Variant]


PERIODS = [app_commands.Choice(name=text(f"commands.leaderboard.period.{p.value}"),
                               value=p.value) for p in Period]


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


# ---- the commands --------------------------------------------------------------------------
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
        analysed = await bot.analyses.member_stats(interaction.guild_id, user.id, v)
        podiums = await bot.tournaments.repo.podiums(interaction.guild_id, v, user.id)
        lines = [w("stats.stats.title", who=f"<@{user.id}>", variant=variant_name(v, w)),
                 *stat_lines(s, analysed, podiums, lambda uid: f"<@{uid}>", w)]
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
            view.add_item(open_button(r.table_id, w))
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


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Stats(bot))
