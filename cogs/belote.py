"""The /belote commands: new, invite, hand, leave, rules, end (leaderboard, stats, history and
replay join this group from cogs/stats.py)."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import layout, messages
from bot.answers import ANSWERS, PRIVATE, PUBLIC, defer_reply
from bot.bot import BeloteBot
from bot.controls.replies import send_hand
from bot.errors import reply, tell
from bot.languages import member_language, server_language
from bot.moderation import is_moderator, table_refusal
from bot.outbox import is_transient, nonce
from bot.translator import text
from bot.undelivered import sending
from game.rules import MAX_TARGET, OPTION_NAMES, SUGGESTED_TARGETS, Variant
from i18n import DEFAULT_LANGUAGE, Message, Permissions, languages, words
from service import Refusal, audit
from service.markup import as_text
from service.tables import LiveTable, NewTable
from service.tables.core import ABANDONED, LOBBY_EXPIRED

from .channels import Channels
from .common import (
    LEVELS,
    TIMERS,
    display_name,
    member_words,
    option_names,
)

VARIANTS = [app_commands.Choice(name=text(f"commands.choice.variant.{v.value}"), value=v.value)
            for v in Variant]
SHUFFLES = [app_commands.Choice(name=text(f"commands.choice.shuffle.{s}"), value=s)
            for s in ("random", "cut")]


LANGUAGES = [app_commands.Choice(name=text(f"commands.choice.language.{code}"), value=code)
             for code in languages()]

NEW_OPTIONS = ("variant", "private", "announcements", "must_undertrump", "shuffle", "computers",
               "level", "turn_timer", "target", "language", "stake")


def _descriptions(command: str,
                  options: tuple[str, ...]) -> dict[str, app_commands.locale_str]:
    return {o: text(f"commands.{command}.{o}.description") for o in options if o != "target"}


# Without these in the channel the table cannot be shown at all.
REQUIRED = ("view_channel", "send_messages", "attach_files", "read_message_history")
# Without these the table goes in the channel instead of its own thread.
FOR_THREADS = ("create_public_threads", "send_messages_in_threads")


@app_commands.guild_only()
class Belote(commands.GroupCog, group_name=text("commands.group.name"),
             group_description=text("commands.group.description")):
    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot
        self._audits: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        # A bot without a table service (the command-tree tests) has nothing to hear.
        if getattr(self.bot, "service", None) is not None:
            self.bot.service.closed_hooks.append(self.closed_by_itself)

    async def cog_unload(self) -> None:
        if getattr(self.bot, "service", None) is not None and \
                self.closed_by_itself in self.bot.service.closed_hooks:
            self.bot.service.closed_hooks.remove(self.closed_by_itself)

    def closed_by_itself(self, live: LiveTable, why: str) -> None:
        """The sweeper closed a table: the thread says why, and the audit log records it (and
        posts it to the log channel, if the server has one)."""
        minutes = {LOBBY_EXPIRED: live.lobby_minutes, ABANDONED: live.idle_minutes}.get(why)
        if minutes is None:
            return
        self.bot.delivery.post(("closed", live.id), lambda: self.bot.delivery.notice(
            live, messages.closed_by_itself_text(live, why, minutes), once=("closed", why)))

        async def record() -> None:
            settings = await self.bot.guild_settings.get(live.row.guild_id)
            await self.bot.audit.closed(
                live.row.guild_id, live.id,
                words(server_language(settings, self.bot.get_guild(live.row.guild_id))).plural(
                    f"sweeper.reason.{why}", minutes))
        task = asyncio.create_task(record(), name=f"belote-audit-closed-{live.id}")
        self._audits.add(task)
        task.add_done_callback(self._audits.discard)

    def my_table(self, interaction: discord.Interaction[Any], *,
                 held: bool = True) -> LiveTable | None:
        assert interaction.guild_id is not None
        return self.bot.service.table_of(interaction.guild_id, interaction.user.id, held=held)

    def channel_table(self, interaction: discord.Interaction[Any]) -> LiveTable | None:
        """The open table whose thread (or channel, if only one) this command was used in."""
        here = [t for t in self.bot.service.live.values()
                if t.row.thread_id == interaction.channel_id]
        if not here:
            here = [t for t in self.bot.service.live.values()
                    if t.row.thread_id is None and t.row.channel_id == interaction.channel_id]
        return here[0] if len(here) == 1 else None

    # ---- /belote new -----------------------------------------------------------------------
    @app_commands.command(name=text("commands.new.name"),
                          description=text("commands.new.description"),
                          extras={ANSWERS: PUBLIC})
    @app_commands.rename(**option_names("new", NEW_OPTIONS))
    @app_commands.describe(**_descriptions("new", NEW_OPTIONS),
                           target=text("commands.new.target.description", max=MAX_TARGET))
    @app_commands.choices(variant=VARIANTS, shuffle=SHUFFLES, level=LEVELS, language=LANGUAGES)
    @app_commands.choices(turn_timer=TIMERS)  # apart: one decorator takes one value type
    async def new(self, interaction: discord.Interaction[Any],
                  variant: app_commands.Choice[str] | None = None,
                  target: app_commands.Range[int, 1, MAX_TARGET] | None = None,
                  private: bool = False, announcements: bool | None = None,
                  must_undertrump: bool | None = None,
                  shuffle: app_commands.Choice[str] | None = None,
                  computers: bool = False, level: app_commands.Choice[str] | None = None,
                  turn_timer: app_commands.Choice[int] | None = None,
                  language: app_commands.Choice[str] | None = None,
                  stake: app_commands.Range[int, 1, 1_000_000] | None = None) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        # The server's settings (/belote config) give what the options leave out.
        settings = await self.bot.guild_settings.get(interaction.guild_id)
        spoken = language.value if language is not None else server_language(
            settings, interaction.guild)
        v = Variant(variant.value if variant is not None else settings.variant)
        target = target if target is not None else settings.target
        say = member_words(interaction, spoken)
        given: dict[str, Any] = {"target": target, "announcements": announcements,
                                 "must_undertrump": must_undertrump,
                                 "shuffle": shuffle.value if shuffle else None}
        for key, value in list(given.items()):
            if value is None:
                del given[key]
            elif key not in OPTION_NAMES[v]:
                await tell(interaction, say("commands.new.no_option",
                                            variant=messages.variant_title(v, say.language),
                                            option=say(f"commands.new.{key}.name")))
                return
        perms = interaction.app_permissions
        missing = [p for p in REQUIRED if not getattr(perms, p)]
        if missing:
            await tell(interaction, say("commands.new.missing_permissions",
                                        permissions=Permissions(missing)))
            return
        channel = interaction.channel
        refused = table_refusal(
            settings, self.bot.service.live.values(), guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            parent_id=channel.parent_id if isinstance(channel, discord.Thread) else None,
            w=say)
        if refused is not None:
            await tell(interaction, refused)
            return
        limit_key = (interaction.guild_id, interaction.user.id)
        again = self.bot.limits.tables.take(limit_key)
        if again is not None:
            await tell(interaction, say(
                "admin.limit.tables", when=f"<t:{math.ceil(again)}:R>"))
            return
        in_thread = isinstance(channel, discord.Thread)
        no_thread = [p for p in FOR_THREADS if not getattr(perms, p)]
        try:
            live = await self.bot.service.create(NewTable(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                host_id=interaction.user.id, host_name=display_name(interaction.user),
                variant=v.value, options=given, private=private, fill=computers,
                turn_timer=turn_timer.value if turn_timer is not None else settings.turn_timer,
                computer_level=level.value if level else settings.computer_level,
                lobby_minutes=settings.lobby_minutes, idle_minutes=settings.idle_minutes,
                away_turns=settings.away_turns, language=spoken, stake=stake or 0,
                autoplay=settings.autoplay == "on"))
        except Refusal:
            self.bot.limits.tables.give_back(limit_key)  # no table opened: it does not count
            raise
        await defer_reply(interaction, ephemeral=False)
        public = words(live.language)  # the thread and its posts speak the table's language
        thread: discord.Thread | None = None
        opened = "commands.new.opened_here"
        if not in_thread and not no_thread and isinstance(channel, discord.TextChannel):
            # Refused, or Discord failing (one WARNING, counted with an outage's): the table
            # opens in the channel all the same. Not tried again: a try whose answer was lost
            # may have made the thread, and a second would be one too many.
            with sending(self.bot, f"table {live.id}: its thread") as made:
                thread = await channel.create_thread(
                    name=public("commands.new.thread_name", table=live.id,
                                variant=messages.variant_title(v, live.language)),
                    auto_archive_duration=1440,
                    type=discord.ChannelType.public_thread)
            if made.failed:
                opened = "commands.new.opened_here_no_thread"
        elif no_thread and not in_thread:
            opened = "commands.new.opened_here_lacking"
        home = thread if thread is not None else self.bot.get_partial_messageable(
            interaction.channel_id)
        try:
            # Sent again if Discord fails on its way (a 5xx, a dropped connection); the nonce
            # makes a try whose answer was lost give back the message it made, not a second.
            lobby = layout.lobby_view(live, live.language)
            await self.bot.delivery.screens.linked(live, lobby)  # with a link to its page, if any
            message = await self.bot.delivery.jobs.call(
                ("table post", live.id), lambda: home.send(
                    messages.lobby_text(live, live.language), view=lobby,
                    allowed_mentions=messages.NO_MENTIONS,
                    nonce=nonce("table post", live.id)))
        except Exception as e:
            if not isinstance(e, discord.HTTPException) and not is_transient(e):
                raise
            await self.bot.service.end(live.id, interaction.user.id, can_manage=True)
            self.bot.delivery.post(("followup", interaction.id), lambda: interaction.followup.send(
                public("commands.new.post_failed")))
            return
        await self.bot.service.attach(live.id, thread_id=thread.id if thread else None,
                                      message_id=message.id)
        # Posted in the channel for everybody: in the table's language.
        text = public("commands.new.opened_in_thread" if thread else opened,
                      user=interaction.user.mention, table=live.id,
                      variant=messages.variant_title(v, live.language),
                      target=live.options.target,
                      thread=thread.mention if thread else "",
                      permissions=Permissions(no_thread))
        # Through the delivery's Outbox: sent again if Discord fails (the token lasts 15 min).
        self.bot.delivery.post(("followup", interaction.id), lambda: interaction.followup.send(
            text, allowed_mentions=messages.NO_MENTIONS))

    @new.autocomplete("target")
    async def target_choices(self, interaction: discord.Interaction[Any],
                             current: int | str) -> list[app_commands.Choice[int]]:
        chosen = getattr(interaction.namespace, "variant", None)
        variants = [Variant(chosen)] if chosen in {v.value for v in Variant} else list(Variant)
        values = sorted({t for v in variants for t in SUGGESTED_TARGETS[v]})
        return [app_commands.Choice(name=str(t), value=t) for t in values
                if str(t).startswith(str(current or ""))][:25]

    # ---- the rest ---------------------------------------------------------------------------
    @app_commands.command(name=text("commands.invite.name"),
                          description=text("commands.invite.description"),
                          extras={ANSWERS: PRIVATE})
    @app_commands.rename(**option_names("invite", ("player",)))
    @app_commands.describe(**_descriptions("invite", ("player",)))
    async def invite(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        user = player
        live = self.my_table(interaction)
        if live is None or live.row.host_id != interaction.user.id:
            await tell(interaction, member_words(interaction)("commands.invite.no_table"))
            return
        # A refusal (yourself, a bot) is answered by the tree's one error handler.
        fresh = await self.bot.service.invite(live.id, interaction.user.id, user.id,
                                              is_bot=user.bot)
        if not fresh:  # invited before: told once, not pinged again
            await tell(interaction, member_words(interaction, live.language)(
                "commands.invite.already", player=user.mention, table=live.id))
            return
        await tell(interaction, member_words(interaction, live.language)(
            "commands.invite.done", player=user.mention, table=live.id))
        # Through the Outbox: sent again while Discord fails, once (its nonce).
        notice = words(live.language)("commands.invite.notice", player=f"<@{user.id}>",
                                      host=f"<@{interaction.user.id}>")
        self.bot.delivery.post(("invite", live.id, user.id), lambda: self.bot.delivery.notice(
            live, notice, mention=user.id, once=("invite", user.id)))

    @app_commands.command(name=text("commands.hand.name"),
                          description=text("commands.hand.description"),
                          extras={ANSWERS: PRIVATE})
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        live = self.my_table(interaction)
        if live is None:
            await tell(interaction, member_words(interaction)("commands.not_playing"))
            return
        await send_hand(interaction, live)

    @app_commands.command(name=text("commands.leave.name"),
                          description=text("commands.leave.description"),
                          extras={ANSWERS: PRIVATE})
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        live = self.my_table(interaction, held=False)
        if live is None:
            await tell(interaction, member_words(interaction)("commands.not_playing"))
            return
        said = await self.bot.service.leave(live.id, interaction.user.id)
        await tell(interaction, member_words(interaction, live.language)(said))

    @app_commands.command(name=text("commands.show.name"),
                          description=text("commands.show.description"),
                          extras={ANSWERS: PRIVATE})
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        live = self.my_table(interaction)
        if live is None:
            await tell(interaction, member_words(interaction)("commands.not_playing"))
            return
        say = member_words(interaction, live.language)
        channels: Channels = self.bot.get_cog("Channels")  # type: ignore[assignment]
        if live.lost is None and live.row.message_id is not None:
            # Its message may have been deleted by someone: then it is posted anew where it
            # was (or the table is moved, or lost: then it comes here, below).
            with sending(self.bot, f"table {live.id}: /belote show's look for its "
                         "message") as looked:
                await channels.find_table(live)
            if looked.failed:
                await tell(interaction, say("commands.show.failed", table=live.id))
                return
        if live.lost is None and live.row.message_id is not None:
            await tell(interaction, say("commands.show.elsewhere", table=live.id,
                                        channel=f"<#{live.row.home_id}>"))
            return
        perms = interaction.app_permissions
        missing = [p for p in REQUIRED if not getattr(perms, p)]
        if missing or isinstance(interaction.channel, discord.Thread) or \
                interaction.channel is None:
            await tell(interaction, say(
                "commands.show.missing_permissions", permissions=Permissions(missing))
                if missing else say("commands.show.not_here"))
            return
        await defer_reply(interaction, ephemeral=True)
        channel = self.bot.get_partial_messageable(interaction.channel.id,
                                                   guild_id=interaction.guild_id)
        with sending(self.bot, f"table {live.id}: its post by /belote show") as posted:
            await channels.move_to(live, channel, Message.of(
                "commands.show.moved_by", name=as_text(display_name(interaction.user))))
        if posted.error is not None:
            # Discord failing (after a few tries), or refusing this channel: nothing moved.
            await tell(interaction, say("commands.show.failed", table=live.id)
                       if is_transient(posted.error) else say("commands.show.not_here"))
            return
        await tell(interaction, say("commands.show.done", table=live.id))

    @app_commands.command(name=text("commands.rules.name"),
                          description=text("commands.rules.description"),
                          extras={ANSWERS: PRIVATE})
    @app_commands.rename(**option_names("rules", ("variant",)))
    @app_commands.describe(**_descriptions("rules", ("variant",)))
    @app_commands.choices(variant=VARIANTS)
    async def rules(self, interaction: discord.Interaction[Any],
                    variant: app_commands.Choice[str] | None = None) -> None:
        live = self.my_table(interaction) or self.channel_table(interaction)
        language = member_language(interaction,
                                   live.language if live is not None else DEFAULT_LANGUAGE)
        if variant is not None:
            text = messages.variant_rules(Variant(variant.value), language)
        else:
            text = messages.rules_card(live, language) if live else \
                "\n\n".join(messages.variant_rules(v, language) for v in Variant)
        await tell(interaction, text)

    @app_commands.command(name=text("commands.end.name"),
                          description=text("commands.end.description"),
                          extras={ANSWERS: PUBLIC})
    @app_commands.rename(**option_names("end", ("table",)))
    @app_commands.describe(**_descriptions("end", ("table",)))
    async def end(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        live = self.bot.service.live.get(table) if table is not None else (
            self.channel_table(interaction) or self.my_table(interaction))
        if live is None or live.row.guild_id != interaction.guild_id:
            await tell(interaction, member_words(interaction)("commands.end.no_table"))
            return
        # Checked here, not only by the command's default permissions: servers can change those.
        settings = await self.bot.guild_settings.get(live.row.guild_id)
        moderator = is_moderator(interaction.user, settings)
        await self.bot.service.end(live.id, interaction.user.id, can_manage=moderator)
        if interaction.user.id != live.row.host_id:  # a moderator's action: in the audit log
            await self.bot.audit.record(live.row.guild_id, audit.END,
                                        actor_id=interaction.user.id, table_id=live.id)
        await reply(interaction, words(live.language)("commands.end.done", table=live.id,
                                                      user=interaction.user.mention),
                    ephemeral=False, allowed_mentions=messages.NO_MENTIONS)


    @app_commands.command(name=text("commands.kick.name"),
                          description=text("commands.kick.description"),
                          extras={ANSWERS: PRIVATE})
    @app_commands.rename(**option_names("kick", ("player",)))
    @app_commands.describe(**_descriptions("kick", ("player",)))
    async def kick(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        assert interaction.guild_id is not None
        live = self.bot.service.table_of(interaction.guild_id, player.id, held=True)
        if live is None:
            await tell(interaction, member_words(interaction)(
                "sweeper.kick.no_table", player=player.mention))
            return
        # Checked here, not only by the command's default permissions: servers can change those.
        settings = await self.bot.guild_settings.get(live.row.guild_id)
        moderator = is_moderator(interaction.user, settings)
        lobby = not live.playing
        await self.bot.service.kick(live.id, interaction.user.id, player.id,
                                    can_manage=moderator)
        await self.bot.audit.record(live.row.guild_id, audit.KICK, actor_id=interaction.user.id,
                                    table_id=live.id, details={"user": player.id})
        await tell(interaction, member_words(interaction)(
            "sweeper.kick.done", player=player.mention, table=live.id))
        # Through the Outbox: sent again while Discord fails, once (its nonce).
        notice = words(live.language)(
            "sweeper.kick.notice_lobby" if lobby else "sweeper.kick.notice",
            actor=interaction.user.mention, player=player.mention)
        self.bot.delivery.post(("kick", live.id, player.id), lambda: self.bot.delivery.notice(
            live, notice, once=("kick", player.id)))


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Belote(bot))
