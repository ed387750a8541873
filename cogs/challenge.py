"""/belote challenge: the daily deal on Discord (service/challenge.py decides and stores).

``/belote challenge [variant] [world]`` opens your try of the day in a private thread (only you
and the bot in it: nobody watches your cards; a public one where the bot may not make private
threads); ``board:True`` shows the day's board, its scores only to who has played. After a try
the thread gets your score against the board's best and median. Each minute, the server's boards
of the days past are posted once in the announcement channel (else the log channel).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot import messages
from bot.answers import ANSWERS, PRIVATE
from bot.bot import BeloteBot
from bot.errors import tell
from bot.languages import server_language
from bot.messages import NO_MENTIONS
from bot.outbox import nonce
from bot.translator import text
from bot.undelivered import count, reason, sending, undelivered
from db.challenge import WORLD, TryRow
from game.cards import parse_card
from game.rules import Variant
from i18n import Number, Words, card_label, contract_text, words
from service.challenge import Standing, day_of
from service.challenge_review import Review
from service.tables import LiveTable

from .common import BeloteSubcommands, display_name, member_words, option_names

log = logging.getLogger(__name__)

VARIANTS = [app_commands.Choice(name=text(f"image.variant.{v.value}"), value=v.value)
            for v in Variant]


def board_text(rows: list[TryRow], streaks: dict[int, int], w: Words, title: str,
               show_scores: bool) -> str:
    """The day's board: scores best first with each player's streak, or (for a member who has
    not played) only who has played."""
    lines = [f"**{title}**"]
    if not rows:
        lines.append(w("challenge.board.empty"))
        return "\n".join(lines)
    if not show_scores:
        lines.append(w("challenge.board.hidden", players=", ".join(
            f"<@{r.user_id}>" for r in rows)))
        return "\n".join(lines)
    rank = 0
    for r in rows:
        if r.score is None:
            lines.append(w("challenge.board.playing", who=f"<@{r.user_id}>"))
            continue
        rank += 1
        lines.append(w.plural("challenge.board.line", streaks.get(r.user_id, 1), rank=rank,
                              who=f"<@{r.user_id}>", score=Number(r.score)))
    return "\n".join(lines)


def world_text(rows: list[TryRow], guild_id: int, streaks: dict[int, int], w: Words,
               title: str) -> str:
    """The world's board of a day past as a server sees it: how many played in every server,
    the best score, and this server's players with their rank among everyone (the others are
    not this server's members: their names are not ours to show)."""
    lines = [f"**{title}**", w.plural("challenge.board.world_summary", len(rows),
                                      best=Number(rows[0].score or 0))]
    for rank, r in enumerate(rows, start=1):
        if r.guild_id == guild_id:
            lines.append(w.plural("challenge.board.line", streaks.get(r.user_id, 1), rank=rank,
                                  who=f"<@{r.user_id}>", score=Number(r.score or 0)))
    return "\n".join(lines)


def after_text(row: TryRow, standing: Standing, w: Words, lines: list[str]) -> str:
    out = [w("challenge.after.score", who=f"<@{row.user_id}>", score=Number(standing.score),
             against=Number(row.against or 0)),
           w("challenge.after.board" if row.scope != WORLD else "challenge.after.world",
             best=Number(standing.best), median=Number(standing.median),
             rank=standing.rank, players=standing.players)]
    return "\n".join(out + lines)


def review_text(review: Review, seat: int, language: str) -> str:
    """The par of each deal of a try and its costliest cards, as its thread shows them."""
    w = words(language)
    lines = [w("challenge.review.title")]
    for p in review.pars:
        if p.contract is None:
            lines.append(w("challenge.review.par_pass", deal=p.deal + 1))
            continue
        side = "ours" if p.contract.team == seat & 1 else "theirs"
        lines.append(w(f"challenge.review.par_{side}", deal=p.deal + 1,
                       contract=contract_text(p.contract, language),
                       score=Number(p.score, signed=True)))
    if not review.costly:
        lines.append(w("challenge.review.no_cost"))
    else:
        lines.append(w("challenge.review.costly"))
        for c in review.costly:
            lines.append(w("challenge.review.card", deal=c.deal + 1, trick=c.trick,
                           card=card_label(parse_card(c.card), language),
                           best=card_label(parse_card(c.best), language),
                           cost=Number(c.cost)))
    return "\n".join(lines)


class Challenge(BeloteSubcommands):
    def __init__(self, bot: BeloteBot) -> None:
        super().__init__(bot)
        self._checking = asyncio.Lock()  # one post of a day's board at a time
        # Each server whose boards of the days before this one are all posted: nothing more
        # can come due for it until the next day, so the minute's check skips it.
        self._done_before: dict[int, str] = {}

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.daily.finished = self.tell_score
        self.bot.reviews.told = self.tell_review
        self.post_loop.start()

    async def cog_unload(self) -> None:
        self.post_loop.cancel()
        self.bot.daily.finished = None
        self.bot.reviews.told = None
        await super().cog_unload()

    # ---- the command ---------------------------------------------------------------------
    @app_commands.command(name=text("commands.challenge.name"),
                          description=text("commands.challenge.description"),
                          extras={ANSWERS: PRIVATE})
    @app_commands.rename(**option_names("challenge", ("variant", "world", "board")))
    @app_commands.describe(variant=text("commands.challenge.variant"),
                           world=text("commands.challenge.world"),
                           board=text("commands.challenge.board"))
    @app_commands.choices(variant=VARIANTS)
    async def challenge(self, interaction: discord.Interaction[Any],
                        variant: app_commands.Choice[str] | None = None,
                        world: bool = False, board: bool = False) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        daily = self.bot.daily
        settings = await self.bot.guild_settings.get(interaction.guild_id)
        spoken = server_language(settings, interaction.guild)
        w = member_words(interaction, spoken)
        chosen = variant.value if variant is not None else settings.variant
        scope = WORLD if world else interaction.guild_id
        day = daily.today()
        if board:
            rows = await daily.repo.board(scope, day, chosen)
            mine = next((r for r in rows if r.user_id == interaction.user.id), None)
            streaks = await daily.repo.streaks(scope, [r.user_id for r in rows], day)
            await tell(interaction, board_text(
                rows, streaks, w, self.title(w, day, chosen, world),
                show_scores=mine is not None and mine.finished))
            return
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await tell(interaction, w("challenge.text_channel_only"))
            return
        _, live = await daily.begin(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, name=display_name(interaction.user), variant=chosen,
            world=world, language=spoken, idle_minutes=settings.idle_minutes)
        with sending(self.bot, f"daily deal table {live.id}: its post") as posted:
            where = await self.open_thread(channel, live, interaction.user, w)
        if posted.failed:
            # The try is claimed and its table kept: /belote show posts it.
            await tell(interaction, w("challenge.post_failed", table=live.id))
            return
        await tell(interaction, w("challenge.opened", where=where, deals=4,
                                  variant=w(f"image.variant.{chosen}")))

    def title(self, w: Words, day: str, variant: str, world: bool) -> str:
        return w("challenge.board.world_title" if world else "challenge.board.title", day=day,
                 variant=w(f"image.variant.{variant}"))

    async def open_thread(self, channel: discord.TextChannel, live: LiveTable,
                          user: discord.abc.User, w: Words) -> str:
        """The try's table in a private thread (the member added), else a public one, else
        the channel; where it is, as a mention."""
        public = words(live.language)
        name = public("challenge.thread_name", table=live.id)
        home: discord.abc.Messageable = channel
        thread: discord.Thread | None = None
        for kind in (discord.ChannelType.private_thread, discord.ChannelType.public_thread):
            # Refused, or Discord failing (one WARNING, counted with an outage's): the next
            # kind, else the channel. Not tried again: a try whose answer was lost may have
            # made the thread.
            with sending(self.bot, f"daily deal table {live.id}: its {kind.name}") as made:
                thread = await channel.create_thread(name=name, type=kind,
                                                     auto_archive_duration=1440,
                                                     invitable=False)
                if kind is discord.ChannelType.private_thread:
                    await thread.add_user(user)
                home = thread
            if not made.failed:
                break
            thread = None

        # Sent again if Discord fails on its way (the nonce: not twice); then raised, and the
        # member is told (/belote show posts it).
        message, _ = await self.bot.delivery.post_table(live, home, ("table post", live.id))
        await self.bot.service.attach(live.id, thread_id=thread.id if thread else None,
                                      message_id=message.id)
        self.bot.service.listener.table_changed(live)
        self.bot.service.listener.hands_changed(live, range(4))
        return thread.mention if thread is not None else channel.mention

    # ---- after a try ---------------------------------------------------------------------
    async def tell_score(self, row: TryRow, standing: Standing, live: LiveTable,
                         lines: list[str]) -> None:
        w = words(live.language)
        home = self.bot.get_partial_messageable(live.row.thread_id or live.row.channel_id,
                                                guild_id=live.row.guild_id)
        content = after_text(row, standing, w, lines)
        self.bot.delivery.post(("daily score", live.id), lambda: home.send(
            content, allowed_mentions=messages.NO_MENTIONS))

    async def tell_review(self, row: TryRow, live: LiveTable, seat: int,
                          review: Review) -> None:
        """The try's par and costliest cards, in its thread, once its deals are analysed."""
        content = review_text(review, seat, live.language)
        home = self.bot.get_partial_messageable(live.row.thread_id or live.row.channel_id,
                                                guild_id=live.row.guild_id)
        self.bot.delivery.post(("daily review", live.id), lambda: home.send(
            content, allowed_mentions=messages.NO_MENTIONS,
            nonce=nonce("daily review", live.id)))

    # ---- yesterday's board ---------------------------------------------------------------
    @tasks.loop(minutes=1)
    async def post_loop(self) -> None:
        try:
            await self.post_days()
        except Exception:
            log.exception("daily deal: the boards' posts failed")

    @post_loop.before_loop
    async def _when_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def post_days(self) -> None:
        """Each server's boards of the days past, posted once, with the day's best."""
        async with self._checking:
            today = day_of(self.bot.daily.clock())
            for guild in list(self.bot.guilds):
                if not self.bot.sharding.owns(guild.id) or \
                        self._done_before.get(guild.id) == today:
                    continue
                done = True
                for day in await self.bot.daily.repo.days_to_post(guild.id, today):
                    done = await self.post_day(guild, day) and done
                if done:
                    self._done_before[guild.id] = today

    async def post_day(self, guild: discord.Guild, day: str) -> bool:
        """Post the server's boards of ``day``; False if Discord failed and it is tried again."""
        repo = self.bot.daily.repo
        settings = await self.bot.guild_settings.get(guild.id)
        channel_id = settings.announce_channel or settings.log_channel
        if channel_id is None:
            await repo.mark_posted(guild.id, day)
            return True
        w = words(server_language(settings, guild))
        parts = []
        for variant in await repo.variants_of(guild.id, day):
            rows = [r for r in await repo.board(guild.id, day, variant) if r.finished]
            if not rows:
                continue
            streaks = await repo.streaks(guild.id, [r.user_id for r in rows], day)
            parts.append(board_text(rows, streaks, w, self.title(w, day, variant, False),
                                    show_scores=True) + "\n" + w(
                "challenge.board.best", who=f"<@{rows[0].user_id}>",
                score=Number(rows[0].score or 0)))
        for variant in await repo.world_variants_from(guild.id, day):
            rows = [r for r in await repo.board(WORLD, day, variant) if r.finished]
            if any(r.guild_id == guild.id for r in rows):
                streaks = await repo.streaks(
                    WORLD, [r.user_id for r in rows if r.guild_id == guild.id], day)
                parts.append(world_text(rows, guild.id, streaks, w,
                                        self.title(w, day, variant, True)))
        if parts:
            channel = self.bot.get_partial_messageable(channel_id, guild_id=guild.id)
            try:
                # Its nonce: a try whose answer was lost, tried again, gives back the post.
                await channel.send("\n\n".join(parts), allowed_mentions=NO_MENTIONS,
                                   nonce=nonce("daily board", guild.id, day))
            except (discord.Forbidden, discord.NotFound) as e:
                log.warning("daily board %s of server %s not posted: %s", day, guild.id, e)
            except Exception as e:
                if not undelivered(e):
                    raise
                # Discord failing, or another refusal: one WARNING, counted with an
                # outage's; tried again in a minute.
                count(self.bot, ("daily board", guild.id, day), e)
                log.warning("daily board %s of server %s: %s; tried again", day, guild.id,
                            reason(e))
                return False
        await repo.mark_posted(guild.id, day)
        return True


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Challenge(bot))

