"""/belote tournament new (moderators): a sign-up message with Join and Leave; at the start one
thread per table; the final post with the winners.

The runner (service/tournaments.py) decides everything and stores it; this cog only shows it: it is
the runner's listener, and it starts the tournaments whose start time has come (each minute).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot import images
from bot.answers import ANSWERS, PUBLIC
from bot.bot import BeloteBot
from bot.controls.tournament import refusal, signup_view
from bot.errors import reply, tell
from bot.languages import server_language
from bot.messages import NO_MENTIONS
from bot.moderation import is_moderator
from bot.outbox import describe, is_transient, nonce
from bot.pages import with_web_link
from bot.translator import text
from db.tournaments import TournamentRow
from game.rules import Variant
from game.tournament import Format, Stage, Tournament, TournamentError
from i18n import Words, words
from rendering import BracketRound, BracketTable
from service.tables import LiveTable

from .common import BeloteSubcommands, member_words

log = logging.getLogger(__name__)

FORMATS = [app_commands.Choice(name=text(f"commands.tournament.format.{f.value}"), value=f.value)
           for f in Format]
VARIANTS = [app_commands.Choice(name=text(f"commands.tournament.variant.{v.value}"),
                                value=v.value) for v in Variant]


def mention(user_id: int, w: Words) -> str:
    return f"<@{user_id}>" if user_id > 0 else w("tournaments.computer")


def signup_text(row: TournamentRow, t: Tournament) -> str:
    """The sign-up message, in the tournament's language: the format, when it starts, and
    who is in."""
    w = words(row.language)
    start = w("tournaments.starts_when_full") if row.starts_at is None else \
        w("tournaments.starts_at", when=f"<t:{_timestamp(row.starts_at)}:R>")
    entrants = ", ".join(mention(u, w) for u in t.entrants) or w("tournaments.nobody_yet")
    head = w(f"tournaments.title.{t.format.value}", number=row.id,
             variant=w(f"image.variant.{row.variant}"))
    status = {Stage.SIGN_UP: start, Stage.RUNNING: w("tournaments.running"),
              Stage.FINISHED: w("tournaments.finished"),
              Stage.CANCELLED: w("tournaments.cancelled")}[t.stage]
    count = w("tournaments.entrants", count=len(t.entrants), places=t.format.players)
    fee = "" if not row.entry_fee else "\n" + w(
        "credits.entry_fee_line", fee=w.plural("credits.amount", row.entry_fee))
    return f"{head}\n{status}{fee}\n{count}: {entrants}"


def _timestamp(iso: str) -> int:
    from service.tournaments import parse_iso
    return int(parse_iso(iso).timestamp())


class Tournaments(BeloteSubcommands):
    tournament = app_commands.Group(name=text("commands.tournament.name"),
                                    description=text("commands.tournament.description"))

    def __init__(self, bot: BeloteBot) -> None:
        super().__init__(bot)
        self._work: set[asyncio.Task[None]] = set()
        self._newest: dict[int, Tournament] = {}  # what each sign-up message is to show
        # A table's thread made, its message not posted yet (Discord failed): kept for the
        # next try, which posts in it instead of opening another.
        self._homes: dict[int, discord.TextChannel | discord.Thread] = {}

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.tournaments.listener = self
        self.start_loop.start()

    async def cog_unload(self) -> None:
        self.start_loop.cancel()
        await super().cog_unload()

    @tasks.loop(minutes=1)
    async def start_loop(self) -> None:
        try:
            await self.bot.tournaments.start_due()
        except Exception:
            log.exception("tournaments: the start check failed")

    @start_loop.before_loop
    async def _when_ready(self) -> None:
        # Threads are opened in channels the bot sees only once it is ready.
        await self.bot.wait_until_ready()

    @tournament.command(name=text("commands.tournament.new.name"),
                        description=text("commands.tournament.new.description"),
                        extras={ANSWERS: PUBLIC})
    @app_commands.rename(format_=text("commands.tournament.new.format"),
                         variant=text("commands.tournament.new.variant"),
                         starts_in=text("commands.tournament.new.starts_in"),
                         entry_fee=text("commands.tournament.new.entry_fee"))
    @app_commands.describe(format_=text("commands.tournament.new.format_description"),
                           variant=text("commands.tournament.new.variant_description"),
                           starts_in=text("commands.tournament.new.starts_in_description"),
                           entry_fee=text("commands.tournament.new.entry_fee_description"))
    @app_commands.choices(format_=FORMATS, variant=VARIANTS)
    async def new(self, interaction: discord.Interaction[Any],
                  format_: app_commands.Choice[str],
                  variant: app_commands.Choice[str] | None = None,
                  starts_in: app_commands.Range[int, 1, 7 * 24 * 60] | None = None,
                  entry_fee: app_commands.Range[int, 1, 1_000_000] | None = None) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await tell(interaction, member_words(interaction)("tournaments.server_only"))
            return
        settings = await self.bot.guild_settings.get(interaction.guild_id)
        spoken = server_language(settings, interaction.guild)
        if not is_moderator(interaction.user, settings):
            await tell(interaction,
                       member_words(interaction, spoken)("tournaments.moderators_only"))
            return
        runner = self.bot.tournaments
        starts_at = None if starts_in is None else \
            runner.clock() + timedelta(minutes=starts_in)
        try:
            row = await runner.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                host_id=interaction.user.id, fmt=format_.value,
                variant=variant.value if variant else Variant.BULGARIAN.value,
                starts_at=starts_at, entry_fee=entry_fee or 0, language=spoken)
        except TournamentError as e:
            raise refusal(e) from None
        _, t = await runner.load(row.id)
        view = await self._linked(row, signup_view(row.id, row.language))
        await reply(interaction, signup_text(row, t), ephemeral=False, view=view,
                    allowed_mentions=NO_MENTIONS)
        message = await interaction.original_response()
        await runner.set_message(row.id, message.id)

    async def _linked(self, row: TournamentRow,
                      view: discord.ui.View | None) -> discord.ui.View | None:
        """``view`` with a link to the tournament's page (docs/web.md) when WEB_BASE_URL is
        set (a link has no custom_id: the Join and Leave buttons are as they were)."""
        return await with_web_link(self.bot, row.guild_id, f"/tournament/{row.id}",
                                   words(row.language), view)

    # ---- the runner's listener -----------------------------------------------------------
    def _later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    def changed(self, row: TournamentRow, t: Tournament) -> None:
        self._edit_signup(row, t)

    def ended(self, row: TournamentRow, t: Tournament) -> None:
        self._later(self._end(row, t))

    def table_seated(self, row: TournamentRow, round_number: int, position: int,
                     live: LiveTable, computers: list[int]) -> None:
        self._later(self._open_thread(row, round_number, live, computers))

    async def _bracket(self, row: TournamentRow, t: Tournament) -> list[discord.File]:
        """The bracket image once the tournament runs (none at sign-up, or if it cannot be
        drawn: the message is still edited)."""
        if not t.rounds:
            return []
        w = words(row.language)
        runner = self.bot.tournaments

        def name(user_id: int) -> str:
            return runner.name_of(row, user_id) if user_id > 0 else w("tournaments.computer")

        rounds = [BracketRound(rnd.number, tuple(
            BracketTable(((name(d.seats[0]), name(d.seats[2])),
                          (name(d.seats[1]), name(d.seats[3]))), rnd.winners.get(i))
            for i, d in enumerate(rnd.draws))) for rnd in t.rounds]
        counts = [1 << (t.format.rounds - n) for n in range(1, t.format.rounds + 1)]
        title = w(f"tournaments.title.{t.format.value}", number=row.id,
                  variant=w(f"image.variant.{row.variant}"))
        try:
            return [await images.bracket_image(rounds, title, counts, row.language)]
        except Exception:
            log.exception("tournament %s: its bracket could not be drawn", row.id)
            return []

    def _edit_signup(self, row: TournamentRow, t: Tournament) -> None:
        """Edit the sign-up message to ``t``, through the Outbox: the newest state goes,
        sent again while Discord fails; a refusal (the message deleted) is one WARNING."""
        self._newest[row.id] = t
        self.bot.delivery.jobs.request(("tournament", row.id, "sign-up"),
                                       lambda: self._send_signup(row.id))

    async def _send_signup(self, tournament_id: int) -> None:
        t = self._newest.get(tournament_id)
        fresh = await self.bot.tournaments.repo.get(tournament_id)
        if t is None or fresh is None or fresh.message_id is None:
            return
        channel = self.bot.get_partial_messageable(fresh.channel_id)
        await channel.get_partial_message(fresh.message_id).edit(
            content=signup_text(fresh, t),
            view=await self._linked(fresh, signup_view(fresh.id, fresh.language)
                                    if t.stage is Stage.SIGN_UP else None),
            attachments=await self._bracket(fresh, t),
            allowed_mentions=NO_MENTIONS)
        if self._newest.get(tournament_id) is t and t.stage in (Stage.FINISHED,
                                                                Stage.CANCELLED):
            del self._newest[tournament_id]  # its last edit: nothing more to show

    async def _open_thread(self, row: TournamentRow, round_number: int, live: LiveTable,
                           computers: list[int]) -> None:
        """One thread per table, its table message in it, and who a computer plays for:
        through the Outbox, tried again while Discord fails."""
        await self.bot.wait_until_ready()  # (after a restart: the channels are known then)
        channel = self.bot.get_channel(row.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        self.bot.delivery.jobs.request(
            ("tournament table", live.id),
            lambda: self._show_table(row, round_number, live, computers, channel))

    async def _show_table(self, row: TournamentRow, round_number: int, live: LiveTable,
                          computers: list[int], channel: discord.TextChannel) -> None:
        """Open the table's thread and post its message there, once: a try after a failure
        keeps the thread the one before made, and the post's nonce gives back the message a
        try whose answer was lost made. A thread Discord refuses: the table goes in the
        channel."""
        if live.row.message_id is not None or live.id not in self.bot.service.live:
            return  # shown already, or over
        w = words(row.language)
        home = self._homes.get(live.id)
        if home is None:
            try:
                home = await channel.create_thread(
                    name=w("tournaments.thread_name", number=row.id, round=round_number,
                           table=live.id),
                    auto_archive_duration=1440, type=discord.ChannelType.public_thread)
            except discord.HTTPException as e:
                if is_transient(e):
                    raise  # Discord failing: tried again
                log.warning("tournament %s: table %s has no thread (%s); it goes in the "
                            "channel", row.id, live.id, describe(e))
                home = channel
            self._homes[live.id] = home

        message, _ = await self.bot.delivery.post_table(live, home, ("tournament table", live.id),
                                                        retried=False)
        thread = home if isinstance(home, discord.Thread) else None
        await self.bot.service.attach(live.id, thread_id=thread.id if thread else None,
                                      message_id=message.id)
        del self._homes[live.id]
        self.bot.service.listener.table_changed(live)
        self.bot.service.listener.hands_changed(live, range(4))
        if computers:
            text = w("tournaments.no_show_computer",
                     players=", ".join(mention(u, w) for u in computers))
            self.bot.delivery.post(("tournament computers", live.id), lambda: home.send(
                text, allowed_mentions=NO_MENTIONS,
                nonce=nonce("tournament computers", live.id)))

    async def _end(self, row: TournamentRow, t: Tournament) -> None:
        self._edit_signup(row, t)
        channel = self.bot.get_partial_messageable(row.channel_id)
        w = words(row.language)
        if t.stage is Stage.FINISHED:
            first, second = t.winners, t.runners_up
            words_ = w("tournaments.final", number=row.id,
                       winners=" & ".join(mention(u, w) for u in first),
                       second=" & ".join(mention(u, w) for u in second))
            paid = await self.bot.credits.repo.paid(row.guild_id, row.id, "prize")
            if paid:
                words_ += "\n" + w("credits.prizes", prizes=", ".join(
                    w("credits.prize", who=mention(u, w), amount=w.plural("credits.amount", n))
                    for u, n in paid.items()))
        else:
            words_ = w("tournaments.cancelled_post", number=row.id)

        async def post() -> None:
            view = await self._linked(row, None)  # anew for each try
            once = nonce("tournament final", row.id)
            if view is None:
                await channel.send(words_, allowed_mentions=NO_MENTIONS, nonce=once)
            else:
                await channel.send(words_, view=view, allowed_mentions=NO_MENTIONS, nonce=once)

        # Through the Outbox: sent again while Discord fails, once (its nonce).
        self.bot.delivery.post(("tournament", row.id, "final"), post)

    async def settle(self) -> None:
        """Wait for the posts scheduled so far (tests)."""
        while self._work:
            await asyncio.gather(*list(self._work))


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Tournaments(bot))
