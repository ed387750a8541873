"""Seasons on Discord: each minute the servers' seasons are brought up to now (service/seasons.py),
and each season ended and not posted yet gets its post, once: the podium of each variant played
and of its pairs (an image and its text), in the announcement channel (else the log channel),
with the champions' role moved when the server set one and the bot may manage it (else the
post says why not); the role is the players' champions', not the pairs'. ``/belote seasons``
lists the ended seasons with their champions, players and pairs.

A season's post is marked sent when Discord confirmed it (or refused the channel for good), so a
restart across a season's end posts it late, and once.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import tasks

from bot import images
from bot.answers import ANSWERS, PUBLIC
from bot.bot import BeloteBot
from bot.controls.base import public_words
from bot.errors import reply
from bot.languages import server_language
from bot.messages import NO_MENTIONS, pages
from bot.outbox import nonce
from bot.translator import text
from bot.undelivered import count, reason, undelivered
from db.seasons import OFF, SEASON_MIN, PairPodiumRow, PodiumRow, SeasonRow, season_end
from i18n import Number, Words, words
from rendering import PodiumPlace, PodiumVariant
from service.guild_settings import GuildSettings

from .common import BeloteSubcommands, bot_of

log = logging.getLogger(__name__)

MEDALS = {1: "\N{FIRST PLACE MEDAL}", 2: "\N{SECOND PLACE MEDAL}", 3: "\N{THIRD PLACE MEDAL}"}


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def span(season: SeasonRow) -> tuple[str, str]:
    """The season's first and last days as Discord timestamps (each reader's own calendar)."""
    start = _when(season.started_at)
    end = _when(season.ended_at) if season.ended_at else season_end(season.length, start)
    return f"<t:{int(start.timestamp())}:D>", f"<t:{int(end.timestamp()) - 1}:D>"


Row = TypeVar("Row", PodiumRow, PairPodiumRow)


def by_variant(rows: list[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for r in rows:
        out.setdefault(r.variant, []).append(r)
    return out


def who_of(p: PodiumRow | PairPodiumRow, w: Words) -> str:
    """A podium place's player, or pair, as mentions (the post pings nobody)."""
    if isinstance(p, PodiumRow):
        return f"<@{p.user_id}>"
    return w("stats.board.pair", first=f"<@{p.user_id}>", second=f"<@{p.partner_id}>")


def podium_places(places: list[Row], w: Words) -> str:
    return ", ".join(
        w.plural("seasons.post.place", p.wins, medal=MEDALS[p.place], who=who_of(p, w),
                 gain=Number(p.gain, signed=True), matches=Number(p.matches))
        for p in places)


def podium_text(season: SeasonRow, rows: list[PodiumRow], w: Words, role_line: str | None,
                running: SeasonRow | None, off: bool,
                pairs: list[PairPodiumRow] | None = None) -> str:
    first, last = span(season)
    lines = [w("seasons.post.title", number=season.number, start=first, end=last)]
    pairs_of = by_variant(pairs or [])
    for variant, places in sorted(by_variant(rows).items()):
        name = w(f"image.variant.{variant}")
        lines.append(w("seasons.post.variant", variant=name, places=podium_places(places, w)))
        if variant in pairs_of:
            lines.append(w("seasons.post.pairs", variant=name,
                           places=podium_places(pairs_of[variant], w)))
    if not rows:
        lines.append(w.plural("seasons.post.nobody", SEASON_MIN))
    if role_line:
        lines.append(role_line)
    if running is not None:
        end = season_end(running.length, _when(running.started_at))
        lines.append(w("seasons.post.next", number=running.number,
                       when=f"<t:{int(end.timestamp())}:R>"))
    elif off:
        lines.append(w("seasons.post.off"))
    return "\n".join(lines)


class Seasons(BeloteSubcommands):
    def __init__(self, bot: BeloteBot) -> None:
        super().__init__(bot)
        # One check at a time: two would both find a season not posted yet, and post it twice.
        self._checking = asyncio.Lock()

    async def cog_load(self) -> None:
        await super().cog_load()
        self.season_loop.start()

    async def cog_unload(self) -> None:
        self.season_loop.cancel()
        await super().cog_unload()

    @tasks.loop(minutes=1)
    async def season_loop(self) -> None:
        try:
            await self.tick()
        except Exception:
            log.exception("seasons: the check failed")

    @season_loop.before_loop
    async def _when_ready(self) -> None:
        await self.bot.wait_until_ready()  # the servers and their channels are known then

    async def tick(self) -> None:
        """Every server of this process: its seasons up to now, and the ended ones posted."""
        async with self._checking:
            await self._tick()

    async def _tick(self) -> None:
        for guild in list(self.bot.guilds):
            if not self.bot.sharding.owns(guild.id):
                continue
            for season in await self.bot.seasons.roll(guild.id):
                await self.post(guild, season)

    async def post(self, guild: discord.Guild, season: SeasonRow) -> None:
        repo = self.bot.seasons.repo
        settings = await self.bot.guild_settings.get(guild.id)
        w = words(server_language(settings, guild))
        rows = (await repo.podiums(guild.id, [season.number]))[season.number]
        pairs = (await repo.pair_podiums(guild.id, [season.number]))[season.number]
        role_line = await self.move_role(guild, season, rows, settings, w)
        channel_id = settings.announce_channel or settings.log_channel
        if channel_id is None:  # nowhere to post: the season is kept (/belote seasons)
            await repo.mark_posted(guild.id, season.number)
            return
        running = await repo.running(guild.id)
        content = podium_text(season, rows, w, role_line, running,
                              settings.season_length == OFF, pairs)
        files: list[discord.File] = []
        try:
            files.append(await images.podium_image(
                await self.podium_sections(rows, pairs, w),
                w("seasons.image.title", number=season.number), w.language))
        except Exception:  # the text says it all: the image is a nicety
            log.exception("season %s podium image failed; sending the text alone",
                          season.number)
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild.id)
        try:
            # Its nonce: a try whose answer was lost, tried again, gives back the post made.
            await channel.send(content, files=files, allowed_mentions=NO_MENTIONS,
                               nonce=nonce("season", guild.id, season.number))
        except (discord.Forbidden, discord.NotFound) as e:
            # The channel is gone or closed to the bot: the season stays (/belote seasons).
            log.warning("season %s of server %s not posted to %s: %s", season.number,
                        guild.id, channel_id, e)
        except Exception as e:
            if not undelivered(e):
                raise
            # Discord failing (a 5xx, a dropped connection, a timeout), or another refusal:
            # one WARNING, counted with an outage's; tried again in a minute.
            count(self.bot, ("season", guild.id, season.number), e)
            log.warning("season %s of server %s: post failed (%s), tried again in a minute",
                        season.number, guild.id, reason(e))
            return
        await repo.mark_posted(guild.id, season.number)

    async def podium_sections(self, rows: list[PodiumRow], pairs: list[PairPodiumRow],
                              w: Words) -> list[PodiumVariant]:
        """The image's sections: each variant's players, then its pairs (when any pair played
        the matches needed together)."""
        ids = {r.user_id for r in rows} | {p.user_id for p in pairs} | \
            {p.partner_id for p in pairs}
        names = await self.bot.records.names(sorted(ids))

        def name(user_id: int) -> str:
            return names.get(user_id, str(user_id))

        pairs_of = by_variant(pairs)
        out: list[PodiumVariant] = []
        for variant, places in sorted(by_variant(rows).items()):
            title = w(f"image.variant.{variant}")
            out.append(PodiumVariant(title, tuple(
                PodiumPlace(p.place, name(p.user_id), p.gain, p.wins, p.matches)
                for p in places)))
            if variant in pairs_of:
                out.append(PodiumVariant(w("seasons.image.pairs", variant=title), tuple(
                    PodiumPlace(p.place, w("seasons.image.pair_first", first=name(p.user_id)),
                                p.gain, p.wins, p.matches, partner=name(p.partner_id))
                    for p in pairs_of[variant])))
        return out

    async def move_role(self, guild: discord.Guild, season: SeasonRow, rows: list[PodiumRow],
                        settings: GuildSettings, w: Words) -> str | None:
        """The champions' role taken from the last season's champions and given to this
        one's; the post's line about it (None: no role set)."""
        if settings.season_role is None:
            return None
        mention = f"<@&{settings.season_role}>"
        role = guild.get_role(settings.season_role)
        me = guild.me
        why = None
        if role is None:
            why = "gone"
        elif me is None or not me.guild_permissions.manage_roles:
            why = "no_permission"
        elif role.managed or role.is_default() or role >= me.top_role:
            why = "too_high"
        if why is not None:
            return w("seasons.post.role_failed", role=mention, why=w(f"seasons.role.{why}"))
        assert role is not None
        champions = {r.user_id for r in rows if r.place == 1}
        before = (await self.bot.seasons.repo.podiums(guild.id, [season.number - 1])
                  )[season.number - 1]
        reason = w("seasons.role.reason", number=season.number)
        try:
            for user in sorted({r.user_id for r in before if r.place == 1} - champions):
                await self._role(guild.id, user, role.id, reason, give=False)
            for user in sorted(champions):
                await self._role(guild.id, user, role.id, reason, give=True)
        except discord.Forbidden:
            return w("seasons.post.role_failed", role=mention,
                     why=w("seasons.role.no_permission"))
        return w("seasons.post.role_given", role=mention) if champions else None

    async def _role(self, guild_id: int, user_id: int, role_id: int, reason: str, *,
                    give: bool) -> None:
        try:
            if give:
                await self.bot.http.add_role(guild_id, user_id, role_id, reason=reason)
            else:
                await self.bot.http.remove_role(guild_id, user_id, role_id, reason=reason)
        except discord.NotFound:  # the member left the server
            log.info("season role: member %s of server %s is gone", user_id, guild_id)

    # ---- /belote seasons -----------------------------------------------------------------
    @app_commands.command(name=text("commands.seasons.name"),
                          description=text("commands.seasons.description"),
                          extras={ANSWERS: PUBLIC})
    async def seasons(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        assert interaction.guild_id is not None
        keeper = bot.seasons
        await keeper.roll(interaction.guild_id)
        w = await public_words(interaction)
        running = await keeper.repo.running(interaction.guild_id)
        ended = await keeper.repo.ended(interaction.guild_id, 10)
        lines = [w("seasons.list.title")]
        if running is not None:
            end = season_end(running.length, _when(running.started_at))
            lines.append(w("seasons.list.running", number=running.number,
                           length=w(f"seasons.length.{running.length}"),
                           when=f"<t:{int(end.timestamp())}:R>"))
        else:
            lines.append(w("seasons.list.off"))
        numbers = [s.number for s in ended]
        podiums = await keeper.repo.podiums(interaction.guild_id, numbers)
        pair_podiums = await keeper.repo.pair_podiums(interaction.guild_id, numbers)
        for season in ended:
            first, last = span(season)
            # Each variant's champion, then its champion pair.
            firsts: list[PodiumRow | PairPodiumRow] = [
                *(r for r in podiums[season.number] if r.place == 1),
                *(r for r in pair_podiums[season.number] if r.place == 1)]
            firsts.sort(key=lambda r: (r.variant, isinstance(r, PairPodiumRow)))
            champions = [w("seasons.list.champion" if isinstance(r, PodiumRow)
                           else "seasons.list.pair_champion",
                           variant=w(f"image.variant.{r.variant}"), who=who_of(r, w),
                           gain=Number(r.gain, signed=True)) for r in firsts]
            lines.append(w("seasons.list.line", number=season.number, start=first, end=last,
                           champions="; ".join(champions) or w("seasons.list.no_champion")))
        if not ended:
            lines.append(w("seasons.list.none"))
        # Ten seasons of three variants' champions and champion pairs can pass Discord's 2,000
        # characters: cut between seasons, the rest as follow-ups.
        for page in pages(["\n".join(lines)]):
            await reply(interaction, page, ephemeral=False, allowed_mentions=NO_MENTIONS)


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Seasons(bot))
