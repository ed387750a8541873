"""The /belote commands: new, invite, hand, leave, rules, end (leaderboard, stats, history and
replay join this group from cogs/stats.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import messages
from bot.bot import BeloteBot
from bot.computers import available_levels
from bot.messages import timer_text
from bot.outbox import is_transient
from bot.service import TURN_TIMERS, LiveTable, NewTable
from game.rules import MAX_TARGET, OPTION_NAMES, SUGGESTED_TARGETS, Variant

from .channels import Channels
from .common import display_name, reply_privately
from .play import send_hand

VARIANTS = [app_commands.Choice(name=messages.VARIANT_TITLES[v], value=v.value) for v in Variant]
SHUFFLES = [app_commands.Choice(name="random: a fresh shuffle each deal", value="random"),
            app_commands.Choice(name="cut: the last deal's cards, cut", value="cut")]
TIMERS = [app_commands.Choice(name="off", value=0)] + [
    app_commands.Choice(name=timer_text(t), value=t) for t in TURN_TIMERS]
LEVELS = [app_commands.Choice(name=level, value=level) for level in available_levels()]

# Without these in the channel the table cannot be shown at all.
REQUIRED = ("view_channel", "send_messages", "attach_files", "read_message_history")
# Without these the table goes in the channel instead of its own thread.
FOR_THREADS = ("create_public_threads", "send_messages_in_threads")


def permission_name(flag: str) -> str:
    return flag.replace("_", " ").title().replace("In ", "in ")


@app_commands.guild_only()
class Belote(commands.GroupCog, group_name="belote", group_description="Play Belote"):
    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot

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
    @app_commands.command(name="new", description="Open a Belote table in this channel")
    @app_commands.describe(
        variant="Which Belote to play",
        target=f"Points to win (suggested: classic 501/1001, coinche 701/1000/2000, "
               f"bulgarian 151; 1 to {MAX_TARGET})",
        private="Only people you invite (/belote invite) may sit",
        announcements="Count announcements (sequences, carrés); default depends on the variant",
        must_undertrump="Classic/coinche: must trump lower when you cannot over-trump",
        shuffle="How the cards are shuffled between deals",
        computers="Computers sit in the other seats now (people may still take them)",
        level="How well computers play: in empty seats, and for players who leave or run out "
              "of time",
        turn_timer="Time a player has on each turn before a computer takes over (default "
                   "off)")
    @app_commands.choices(variant=VARIANTS, shuffle=SHUFFLES, level=LEVELS)
    @app_commands.choices(turn_timer=TIMERS)  # apart: one decorator takes one value type
    async def new(self, interaction: discord.Interaction[Any],
                  variant: app_commands.Choice[str],
                  target: app_commands.Range[int, 1, MAX_TARGET] | None = None,
                  private: bool = False, announcements: bool | None = None,
                  must_undertrump: bool | None = None,
                  shuffle: app_commands.Choice[str] | None = None,
                  computers: bool = False, level: app_commands.Choice[str] | None = None,
                  turn_timer: app_commands.Choice[int] | None = None) -> None:
        v = Variant(variant.value)
        given: dict[str, Any] = {"target": target, "announcements": announcements,
                                 "must_undertrump": must_undertrump,
                                 "shuffle": shuffle.value if shuffle else None}
        for key, value in list(given.items()):
            if value is None:
                del given[key]
            elif key not in OPTION_NAMES[v]:
                await reply_privately(interaction, f"{messages.VARIANT_TITLES[v]} has no "
                                                   f"`{key}` option.")
                return
        perms = interaction.app_permissions
        missing = [permission_name(p) for p in REQUIRED if not getattr(perms, p)]
        if missing:
            await reply_privately(
                interaction, "I cannot host a table in this channel: I am missing the "
                f"permission(s) {', '.join(missing)}. Ask a server admin to grant them to me "
                "here, or use another channel.")
            return
        channel = interaction.channel
        in_thread = isinstance(channel, discord.Thread)
        no_thread = [permission_name(p) for p in FOR_THREADS if not getattr(perms, p)]
        assert interaction.guild_id is not None and interaction.channel_id is not None
        live = await self.bot.service.create(NewTable(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            host_id=interaction.user.id, host_name=display_name(interaction.user),
            variant=v.value, options=given, private=private, fill=computers,
            turn_timer=turn_timer.value if turn_timer else None,
            computer_level=level.value if level else None))
        await interaction.response.defer(thinking=True)
        thread: discord.Thread | None = None
        note = ""
        if not in_thread and not no_thread and isinstance(channel, discord.TextChannel):
            try:
                thread = await channel.create_thread(
                    name=f"Belote #{live.id} · {v.value}", auto_archive_duration=1440,
                    type=discord.ChannelType.public_thread)
            except discord.HTTPException:
                note = " (I could not open a thread, so the table is here)"
        elif no_thread and not in_thread:
            note = f" (no thread: I lack {', '.join(no_thread)})"
        home = thread if thread is not None else self.bot.get_partial_messageable(
            interaction.channel_id)
        try:
            # Sent again if Discord fails on its way (a 5xx, a dropped connection).
            message = await self.bot.delivery.jobs.call(
                ("table post", live.id), lambda: home.send(
                    messages.lobby_text(live), view=messages.lobby_view(live),
                    allowed_mentions=messages.NO_MENTIONS))
        except Exception as e:
            if not isinstance(e, discord.HTTPException) and not is_transient(e):
                raise
            await self.bot.service.end(live.id, interaction.user.id, can_manage=True)
            self.bot.delivery.post(("followup", interaction.id), lambda: interaction.followup.send(
                "I could not post the table here; it is closed."))
            return
        await self.bot.service.attach(live.id, thread_id=thread.id if thread else None,
                                      message_id=message.id)
        where = thread.mention if thread else "here"
        text = (f"{interaction.user.mention} opened Belote table #{live.id} "
                f"({messages.VARIANT_TITLES[v]}, to {live.options.target}) in {where}{note}. "
                "Pick a seat there!")
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
    @app_commands.command(name="invite", description="Invite someone to your private table")
    @app_commands.describe(player="Who may sit at your table")
    async def invite(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        user = player
        live = self.my_table(interaction)
        if live is None or live.row.host_id != interaction.user.id:
            await reply_privately(interaction, "You host no open table in this server.")
            return
        # A refusal (yourself, a bot) is answered by the tree's one error handler.
        await self.bot.service.invite(live.id, interaction.user.id, user.id, is_bot=user.bot)
        await reply_privately(interaction, f"{user.mention} may now sit at table #{live.id}.")
        await self.bot.delivery.notice(
            live, f"<@{user.id}>, <@{interaction.user.id}> invites you to this table: pick a "
                  "seat on the table message.", mention=user.id)

    @app_commands.command(name="hand", description="Show your hand and controls (only to you)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        live = self.my_table(interaction)
        if live is None:
            await reply_privately(interaction, "You are not playing at any table in this server.")
            return
        await send_hand(interaction, live)

    @app_commands.command(name="leave", description="Leave your table (a computer takes over "
                                                    "a started game)")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        live = self.my_table(interaction, held=False)
        if live is None:
            await reply_privately(interaction, "You are not playing at any table in this server.")
            return
        await reply_privately(interaction,
                              await self.bot.service.leave(live.id, interaction.user.id))

    @app_commands.command(name="show", description="Post your table here (when its channel "
                                                   "or thread is gone)")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        live = self.my_table(interaction)
        if live is None:
            await reply_privately(interaction, "You are not playing at any table in this server.")
            return
        if live.lost is None and live.row.message_id is not None:
            await reply_privately(interaction, f"Table #{live.id} is in <#{live.row.home_id}>.")
            return
        perms = interaction.app_permissions
        missing = [permission_name(p) for p in REQUIRED if not getattr(perms, p)]
        if missing or isinstance(interaction.channel, discord.Thread) or \
                interaction.channel is None:
            await reply_privately(interaction, "I cannot post the table here" +
                                  (f": I am missing {', '.join(missing)}" if missing else "") +
                                  ". Use a text channel where I may post.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        channels: Channels = self.bot.get_cog("Channels")  # type: ignore[assignment]
        channel = self.bot.get_partial_messageable(interaction.channel.id,
                                                   guild_id=interaction.guild_id)
        await channels.move_to(live, channel, f"{display_name(interaction.user)} moved it")
        await interaction.followup.send(f"Table #{live.id} is here now.", ephemeral=True)

    @app_commands.command(name="rules", description="The rules of a variant, or of your table")
    @app_commands.describe(variant="Which Belote (default: your table's, or all of them)")
    @app_commands.choices(variant=VARIANTS)
    async def rules(self, interaction: discord.Interaction[Any],
                    variant: app_commands.Choice[str] | None = None) -> None:
        if variant is not None:
            text = messages.variant_rules(Variant(variant.value))
        else:
            live = self.my_table(interaction) or self.channel_table(interaction)
            text = messages.rules_card(live) if live else \
                "\n\n".join(messages.variant_rules(v) for v in Variant)
        await reply_privately(interaction, text)

    @app_commands.command(name="end", description="End a table (its host, or Manage Server)")
    @app_commands.describe(table="The table number (default: the table here, or yours)")
    async def end(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        live = self.bot.service.live.get(table) if table is not None else (
            self.channel_table(interaction) or self.my_table(interaction))
        if live is None or live.row.guild_id != interaction.guild_id:
            await reply_privately(interaction, "No open table to end here.")
            return
        # Checked here, not only by the command's default permissions: servers can change those.
        can_manage = bool(interaction.permissions.manage_guild)
        await self.bot.service.end(live.id, interaction.user.id, can_manage=can_manage)
        await interaction.response.send_message(
            f"Table #{live.id} was ended by {interaction.user.mention}.",
            allowed_mentions=messages.NO_MENTIONS)


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Belote(bot))
