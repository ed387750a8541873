"""Who is a moderator: checked in code, since servers can change the commands' default
permissions (and a subcommand of /belote cannot have its own)."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from i18n import Words
from service.guild_settings import GuildSettings
from service.tables import LiveTable


def is_moderator(member: discord.abc.User, settings: GuildSettings) -> bool:
    """A member with Manage Server (or Administrator), or with the server's moderator role."""
    if not isinstance(member, discord.Member):
        return False  # outside a server nobody moderates
    # resolved_permissions: what the interaction says the member has here (overwrites too).
    perms = member.resolved_permissions or member.guild_permissions
    if perms.manage_guild or perms.administrator:
        return True
    role = settings.moderator_role
    # The role ids the interaction gave (member.roles would drop a role missing from the
    # cache, e.g. one made while the bot was away).
    return role is not None and member._roles.has(role)


def table_refusal(settings: GuildSettings, open_tables: Iterable[LiveTable], *, guild_id: int,
                  channel_id: int, parent_id: int | None, w: Words) -> str | None:
    """Why a new table may not open in this channel (``parent_id``: the channel of the thread
    the command was used in), or None if it may."""
    here = {channel_id} | ({parent_id} if parent_id is not None else set())
    if settings.channels and not here & set(settings.channels):
        return w("admin.new.channel_not_allowed",
                 channels=" ".join(f"<#{c}>" for c in settings.channels))
    tables = [t for t in open_tables if t.row.guild_id == guild_id]
    in_channel = [t for t in tables if here & {t.row.channel_id, t.row.home_id}]
    if len(in_channel) >= settings.max_tables_channel:
        return w.plural("admin.new.channel_full", settings.max_tables_channel)
    if len(tables) >= settings.max_tables_server:
        return w.plural("admin.new.server_full", settings.max_tables_server)
    return None
