"""Server administration under /belote: config (moderators), help (everyone), tables
(moderators); and the audit log's posts to the server's log channel.

These commands are subcommands of the /belote group that cogs/belote.py's GroupCog owns: they
join it as every cog's do (cogs/common.py's :class:`BeloteSubcommands`).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.answers import ANSWERS, PRIVATE
from bot.bot import BeloteBot
from bot.errors import tell
from bot.languages import member_language, server_language
from bot.messages import NO_MENTIONS, pages
from bot.moderation import is_moderator
from bot.outbox import nonce
from bot.preflight import check_channels, report_lines
from bot.translator import command_description, command_name, text
from bot.undelivered import count, reason, undelivered
from db.audit import AuditEntry
from game.rules import Variant
from i18n import Words, languages, words
from service import audit
from service.guild_settings import (
    AUTO_LANGUAGE,
    KEYS,
    NO_SHOW_CHOICES,
    SEASON_LENGTHS,
    GuildSettings,
    label,
    show,
)
from service.markup import as_text
from service.tables import LiveTable

from .common import (
    LEVELS,
    TIMERS,
    BeloteSubcommands,
    option_names,
)

log = logging.getLogger(__name__)

# Subcommands only moderators may use (and see in /belote help).
MODERATOR_COMMANDS = frozenset({"config", "tables", "tournament", "check"})


def ids(command: str, *names: str) -> dict[str, app_commands.locale_str]:
    """The descriptions of a command's options: ``commands.<command>.<option>``."""
    return {name: text(f"commands.{command}.{name}") for name in names}


CONFIG_OPTIONS = ("add_channel", "remove_channel", "variant", "target", "turn_timer", "level",
                  "lobby_minutes", "idle_minutes", "away_turns", "autoplay",
                  "analysis", "max_tables_channel", "max_tables_server", "moderator_role",
                  "log_channel", "language",
                  "tournament_no_show", "tournament_prize_split", "starting_credits",
                  "daily_bonus", "season_length", "season_role", "announce_channel", "reset",
                  "renew_web_link")
VARIANTS = [app_commands.Choice(name=text(f"image.variant.{v.value}"), value=v.value)
            for v in Variant]
LANGUAGES = [app_commands.Choice(name=text(f"commands.choice.language.{code}"), value=code)
             for code in (AUTO_LANGUAGE, *languages())]
NO_SHOWS = [app_commands.Choice(name=text(f"tournaments.no_show.{choice}"), value=choice)
            for choice in NO_SHOW_CHOICES]
AUTOPLAY = [app_commands.Choice(name=text(f"admin.autoplay.{v}"), value=v) for v in ("on", "off")]
ANALYSIS = [app_commands.Choice(name=text(f"admin.analysis.{v}"), value=v) for v in ("on", "off")]
SEASONS = [app_commands.Choice(name=text(f"seasons.length.{length}"), value=length)
           for length in SEASON_LENGTHS]
RESETS = [app_commands.Choice(name=text(f"admin.setting.{key}"), value=key) for key in KEYS]
# The option that sets each setting directly (the channels have add/remove instead).
SETTING_OF_OPTION = {"variant": "variant", "target": "target", "turn_timer": "turn_timer",
                     "level": "computer_level", "lobby_minutes": "lobby_minutes",
                     "idle_minutes": "idle_minutes", "away_turns": "away_turns",
                     "autoplay": "autoplay", "analysis": "analysis",
                     "max_tables_channel": "max_tables_channel",
                     "max_tables_server": "max_tables_server",
                     "moderator_role": "moderator_role", "log_channel": "log_channel",
                     "language": "language", "tournament_no_show": "tournament_no_show",
                     "starting_credits": "starting_credits", "daily_bonus": "daily_bonus",
                     "tournament_prize_split": "tournament_prize_split",
                     "season_length": "season_length", "season_role": "season_role",
                     "announce_channel": "announce_channel"}


def settings_text(settings: GuildSettings, w: Words, changed: frozenset[str] = frozenset()
                  ) -> str:
    lines = [w("admin.config.title")]
    for key in KEYS:
        mark = w("admin.config.changed_mark") if key in changed else ""
        lines.append(w("admin.config.line", setting=label(key, w),
                       value=show(key, getattr(settings, key), w), mark=mark))
    return "\n".join(lines)


def audit_text(entry: AuditEntry, w: Words) -> str:
    actor = f"<@{entry.actor_id}>" if entry.actor_id is not None else ""
    if entry.action == audit.CONFIG:
        changes = entry.details.get("changes", {})
        parts = [w("admin.audit.change", setting=label(key, w), before=show(key, pair[0], w),
                   after=show(key, pair[1], w))
                 for key, pair in changes.items() if key in KEYS]
        return w("admin.audit.config", actor=actor, changes="; ".join(parts))
    if entry.action == audit.END:
        return w("admin.audit.end", actor=actor, table=entry.table_id)
    if entry.action == audit.CLOSED:
        return w("admin.audit.closed", table=entry.table_id,
                 reason=str(entry.details.get("reason", "")))
    return w("admin.audit.other", action=entry.action, actor=actor or "-",
             table=entry.table_id if entry.table_id is not None else "-")


def table_link(live: LiveTable) -> str:
    row = live.row
    if row.message_id is None:
        return f"<#{row.home_id}>"
    return f"https://discord.com/channels/{row.guild_id}/{row.home_id}/{row.message_id}"


def reader_words(interaction: discord.Interaction[Any], settings: GuildSettings) -> Words:
    """The words of a reply only this member reads: their client's language when the bot
    speaks it, else the server's."""
    return words(member_language(interaction, server_language(settings, interaction.guild)))


class Admin(BeloteSubcommands):
    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.audit.listeners.append(self.post_to_log_channel)

    async def cog_unload(self) -> None:
        if self.post_to_log_channel in self.bot.audit.listeners:
            self.bot.audit.listeners.remove(self.post_to_log_channel)
        await super().cog_unload()

    # ---- the log channel ------------------------------------------------------------------
    def post_to_log_channel(self, entry: AuditEntry) -> None:
        async def send() -> None:
            settings = await self.bot.guild_settings.get(entry.guild_id)
            if settings.log_channel is None:
                return
            channel = self.bot.get_partial_messageable(settings.log_channel,
                                                       guild_id=entry.guild_id)
            try:
                # Its nonce: a try whose answer was lost gives back the post it made.
                await channel.send(audit_text(entry, words(server_language(
                    settings, self.bot.get_guild(entry.guild_id)))),
                                   allowed_mentions=NO_MENTIONS, nonce=nonce("audit", entry.id))
            except (discord.Forbidden, discord.NotFound) as e:
                # A channel deleted or closed to the bot: the entry stays in the database.
                log.warning("audit entry %s not posted to channel %s: %s", entry.id,
                            settings.log_channel, e)
        # Through the delivery's Outbox: sent again if Discord fails on its way.
        self.bot.delivery.post(("audit", entry.id), send)

    async def moderator_settings(self, interaction: discord.Interaction[Any]
                                 ) -> GuildSettings | None:
        """The server's settings if the user is a moderator; else they are told, and None."""
        assert interaction.guild_id is not None
        settings = await self.bot.guild_settings.get(interaction.guild_id)
        if is_moderator(interaction.user, settings):
            return settings
        w = reader_words(interaction, settings)
        await tell(interaction, w("admin.not_moderator"))
        return None

    # ---- /belote config --------------------------------------------------------------------
    @app_commands.command(name=text("commands.config.name"),
                          description=text("commands.config.description"),
                          extras={ANSWERS: PRIVATE})
    @app_commands.rename(**option_names("config", CONFIG_OPTIONS))
    @app_commands.describe(**ids("config", *CONFIG_OPTIONS))
    @app_commands.choices(variant=VARIANTS, level=LEVELS, language=LANGUAGES, reset=RESETS,
                          tournament_no_show=NO_SHOWS, season_length=SEASONS,
                          autoplay=AUTOPLAY, analysis=ANALYSIS)
    @app_commands.choices(turn_timer=TIMERS)  # apart: one decorator takes one value type
    async def config(self, interaction: discord.Interaction[Any],
                     add_channel: discord.TextChannel | None = None,
                     remove_channel: discord.TextChannel | None = None,
                     variant: app_commands.Choice[str] | None = None,
                     target: int | None = None,
                     turn_timer: app_commands.Choice[int] | None = None,
                     level: app_commands.Choice[str] | None = None,
                     lobby_minutes: int | None = None, idle_minutes: int | None = None,
                     away_turns: int | None = None,
                     autoplay: app_commands.Choice[str] | None = None,
                     analysis: app_commands.Choice[str] | None = None,
                     max_tables_channel: int | None = None,
                     max_tables_server: int | None = None,
                     moderator_role: discord.Role | None = None,
                     log_channel: discord.TextChannel | None = None,
                     language: app_commands.Choice[str] | None = None,
                     tournament_no_show: app_commands.Choice[str] | None = None,
                     tournament_prize_split: app_commands.Range[int, 50, 100] | None = None,
                     starting_credits: app_commands.Range[int, 0, 1_000_000] | None = None,
                     daily_bonus: app_commands.Range[int, 0, 100_000] | None = None,
                     season_length: app_commands.Choice[str] | None = None,
                     season_role: discord.Role | None = None,
                     announce_channel: discord.TextChannel | None = None,
                     reset: app_commands.Choice[str] | None = None,
                     renew_web_link: bool = False) -> None:
        settings = await self.moderator_settings(interaction)
        if settings is None:
            return
        assert interaction.guild_id is not None
        w = reader_words(interaction, settings)
        if renew_web_link:
            await tell(interaction, await self.web_address(interaction.guild_id, w, renew=True))
            return
        given: dict[str, Any] = {
            "variant": variant, "target": target, "turn_timer": turn_timer, "level": level,
            "lobby_minutes": lobby_minutes, "idle_minutes": idle_minutes,
            "away_turns": away_turns, "autoplay": autoplay, "analysis": analysis,
            "max_tables_channel": max_tables_channel,
            "max_tables_server": max_tables_server, "moderator_role": moderator_role,
            "log_channel": log_channel, "language": language,
            "tournament_no_show": tournament_no_show,
            "tournament_prize_split": tournament_prize_split, "starting_credits": starting_credits,
            "daily_bonus": daily_bonus, "season_length": season_length,
            "season_role": season_role, "announce_channel": announce_channel}
        values: dict[str, Any] = {}
        for option, value in given.items():
            if value is None:
                continue
            if isinstance(value, app_commands.Choice):
                value = value.value
            elif isinstance(value, discord.Role | discord.abc.GuildChannel):
                value = value.id
            values[SETTING_OF_OPTION[option]] = value
        if add_channel is not None or remove_channel is not None:
            channels = [c for c in settings.channels
                        if remove_channel is None or c != remove_channel.id]
            if add_channel is not None and add_channel.id not in channels:
                channels.append(add_channel.id)
            values["channels"] = channels
        resets = [reset.value] if reset is not None else []
        if not values and not resets:
            await tell(interaction, settings_text(settings, w) + "\n" + await self.web_address(
                interaction.guild_id, w, renew=False))
            return
        # Refused as a whole when one value is wrong: nothing is written then.
        after, changes = await self.bot.guild_settings.change(
            interaction.guild_id, values, resets)
        if changes:
            await self.bot.audit.record(
                interaction.guild_id, audit.CONFIG, actor_id=interaction.user.id,
                details={"changes": {c.key: [_plain(c.before), _plain(c.after)]
                                     for c in changes}})
        w = reader_words(interaction, after)
        done = w("admin.config.done") if changes else w("admin.config.unchanged")
        await tell(interaction, done + "\n" + settings_text(
            after, w, frozenset(c.key for c in changes)))

    async def web_address(self, guild_id: int, w: Words, *, renew: bool) -> str:
        """The server's web pages for its moderators (renewed: every older link dies)."""
        links = self.bot.web_links
        if links is None:
            return w("admin.config.web_off")
        if renew:
            await links.renew(guild_id)
            if links.base_url is None:
                return w("admin.config.web_renewed", url=await links.site(guild_id))
            return w("admin.config.web_renewed", url=await links.url(guild_id))
        url = await links.url(guild_id) or await links.site(guild_id)
        return w("admin.config.web_link", url=url)

    # ---- /belote help ---------------------------------------------------------------------
    @app_commands.command(name=text("commands.help.name"),
                          description=text("commands.help.description"),
                          extras={ANSWERS: PRIVATE})
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        settings = await self.bot.guild_settings.get(interaction.guild_id)
        w = reader_words(interaction, settings)
        moderator = is_moderator(interaction.user, settings)
        group = self.belote_group()
        everyone, theirs = [], []
        for command in sorted(group.commands, key=lambda c: c.name):
            line = w("admin.help.command", name=command_name(command, w.language),
                     description=command_description(command, w.language))
            if command.name in MODERATOR_COMMANDS:
                theirs.append(line)
            else:
                everyone.append(line)
        parts = [w("admin.help.what"), w("admin.help.start"),
                 w("admin.help.commands") + "\n" + "\n".join(everyone)]
        if moderator:
            parts.append(w("admin.help.moderator") + "\n" + "\n".join(theirs))
        parts.append(w("admin.help.rules"))
        parts.append(w("credits.not_money"))
        # Longer than one message in some languages (Discord takes 2000 characters): whole
        # sections a message, the rest as private follow-ups.
        for page in pages(parts):
            await tell(interaction, page)

    # ---- /belote tables -------------------------------------------------------------------
    @app_commands.command(name=text("commands.tables.name"),
                          description=text("commands.tables.description"),
                          extras={ANSWERS: PRIVATE})
    @app_commands.rename(**option_names("tables", ("end",)))
    @app_commands.describe(**ids("tables", "end"))
    async def tables(self, interaction: discord.Interaction[Any],
                     end: int | None = None) -> None:
        settings = await self.moderator_settings(interaction)
        if settings is None:
            return
        assert interaction.guild_id is not None
        w = reader_words(interaction, settings)
        here = sorted((t for t in self.bot.service.live.values()
                       if t.row.guild_id == interaction.guild_id), key=lambda t: t.id)
        if end is not None:
            live = next((t for t in here if t.id == end), None)
            if live is None:
                await tell(interaction, w("admin.tables.no_such", table=end))
                return
            await self.bot.service.end(live.id, interaction.user.id, can_manage=True)
            await self.bot.audit.record(interaction.guild_id, audit.END,
                                        actor_id=interaction.user.id, table_id=live.id)
            await tell(interaction, w("admin.tables.ended", table=live.id))
            return
        if not here:
            await tell(interaction, w("admin.tables.none"))
            return
        lines = [w.plural("admin.tables.title", len(here))]
        last = await self.bot.service.last_actions(t.id for t in here[:20])
        for live in here[:20]:  # one message: Discord takes 2000 characters
            players = ", ".join(f"<@{s.user_id}>" if s.user_id is not None else as_text(s.name)
                                for _, s in sorted(live.seats.items())) or "-"
            state = w("admin.tables.paused") if live.paused else (
                w("admin.tables.playing") if live.playing else w("admin.tables.lobby"))
            lines.append(w("admin.tables.line", table=live.id, variant=live.variant.value,
                           state=state, channel=f"<#{live.row.channel_id}>", players=players,
                           last=f"<t:{int(last[live.id].timestamp())}:R>" if live.id in last
                           else "-", link=table_link(live)))
        if len(here) > 20:
            lines.append(w("admin.tables.more", n=len(here) - 20))
        lines.append(w("admin.tables.hint"))
        await tell(interaction, "\n".join(lines))

    # ---- /belote check --------------------------------------------------------------------
    @app_commands.command(name=text("commands.check.name"),
                          description=text("commands.check.description"),
                          extras={ANSWERS: PRIVATE})
    async def check(self, interaction: discord.Interaction[Any]) -> None:
        """The preflight: what the bot lacks where tables may open, and whether DMs reach the
        moderator who asks (a short DM is sent to find out: nothing else tells)."""
        settings = await self.moderator_settings(interaction)
        if settings is None:
            return
        guild = interaction.guild
        assert guild is not None
        w = reader_words(interaction, settings)
        checks = check_channels(guild, settings.channels)
        lines = [w("admin.check.title"), *report_lines(checks, w)]
        try:
            await interaction.user.send(w("admin.check.dm_test"), allowed_mentions=NO_MENTIONS)
        except discord.Forbidden:
            lines.append(w("admin.check.dm_closed"))
        except Exception as e:
            if not undelivered(e):
                raise
            # Refused otherwise, or Discord failing (counted with an outage's): unknown.
            count(self.bot, ("check dm", interaction.id), e)
            log.warning("/belote check: the test DM failed (%s)", reason(e))
            lines.append(w("admin.check.dm_unknown"))
        else:
            lines.append(w("admin.check.dm_open"))
        lines.append(w("admin.check.blocking") if any(c.blocks for c in checks)
                     else w("admin.check.ready"))
        await tell(interaction, "\n".join(lines))


def _plain(value: Any) -> Any:
    """A setting's value as JSON keeps it (tuples become lists)."""
    return list(value) if isinstance(value, tuple) else value


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Admin(bot))
