"""The preflight check an administrator runs (``/belote check``, ``belote-bot check``): for each
channel where tables may open, what the bot lacks there, and whether it blocks play.

One judgement for both: the slash command reads the bot's permissions from discord.py's cache
(``permissions_for``), the command line computes them from Discord's REST answers (roles,
member, channel overwrites: ``rest_permissions``), and both ask ``lacks`` and word the report
with ``report_lines`` in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from i18n import Permissions, Words

# Without these a table cannot be played in the channel (the checks of /belote new).
BLOCKING = ("view_channel", "send_messages", "attach_files", "read_message_history")
# Without these it plays, less well: in the channel rather than its own thread, without the
# embeds of links, its thread archived but not locked when it is over.
WANTED = ("create_public_threads", "send_messages_in_threads", "embed_links", "manage_threads")
# Lines of a report that fits one message (Discord takes 2000 characters).
SHOWN = 15


@dataclass(frozen=True, slots=True)
class ChannelCheck:
    channel_id: int
    name: str
    missing: tuple[str, ...]  # Discord's flag names, the blocking ones first
    gone: bool = False  # named in the settings, but no longer a channel the bot can see

    @property
    def blocks(self) -> bool:
        return self.gone or any(p in BLOCKING for p in self.missing)


def lacks(perms: discord.Permissions) -> tuple[str, ...]:
    return tuple(p for p in (*BLOCKING, *WANTED) if not getattr(perms, p))


def check_channels(guild: discord.Guild, allowed: Sequence[int]) -> list[ChannelCheck]:
    """Every channel where tables may open (the server's ``channels`` setting, else every text
    channel), from the bot's cached view of the server."""
    me = guild.me
    checks: list[ChannelCheck] = []
    channels: Iterable[Any] = [guild.get_channel(c) or c for c in allowed] if allowed \
        else guild.text_channels
    for channel in channels:
        if not isinstance(channel, discord.TextChannel):
            cid = channel if isinstance(channel, int) else channel.id
            checks.append(ChannelCheck(cid, str(cid), (), gone=True))
            continue
        checks.append(ChannelCheck(channel.id, channel.name, lacks(channel.permissions_for(me))))
    return checks


def rest_permissions(guild: Mapping[str, Any], roles: Sequence[Mapping[str, Any]],
                     member: Mapping[str, Any], channel: Mapping[str, Any],
                     user_id: int) -> discord.Permissions:
    """The bot's permissions in ``channel`` from Discord's JSON, as Discord computes them: the
    @everyone role and the member's roles, everything for the owner or an administrator, then
    the channel's overwrites (@everyone, the roles together, the member), and nothing in a
    channel it cannot view."""
    if int(guild.get("owner_id") or 0) == user_id:
        return discord.Permissions.all()
    by_id = {int(r["id"]): int(r.get("permissions") or 0) for r in roles}
    guild_id = int(guild["id"])
    mine = {int(r) for r in member.get("roles", [])}
    base = by_id.get(guild_id, 0)
    for role in mine:
        base |= by_id.get(role, 0)
    if base & discord.Permissions(administrator=True).value:
        return discord.Permissions.all()
    overwrites = {int(o["id"]): (int(o.get("allow") or 0), int(o.get("deny") or 0))
                  for o in channel.get("permission_overwrites", [])}
    value = base
    if guild_id in overwrites:
        allow, deny = overwrites[guild_id]
        value = (value & ~deny) | allow
    allow = deny = 0
    for role in mine:
        a, d = overwrites.get(role, (0, 0))
        allow, deny = allow | a, deny | d
    value = (value & ~deny) | allow
    if user_id in overwrites:
        a, d = overwrites[user_id]
        value = (value & ~d) | a
    perms = discord.Permissions(value)
    if not perms.view_channel:
        return discord.Permissions.none()
    return perms


def rest_checks(guild: Mapping[str, Any], roles: Sequence[Mapping[str, Any]],
                member: Mapping[str, Any], channels: Sequence[Mapping[str, Any]],
                allowed: Sequence[int], user_id: int) -> list[ChannelCheck]:
    """``check_channels`` from Discord's REST answers (the command line has no cache)."""
    text = {int(c["id"]): c for c in channels if c.get("type") == 0}
    wanted: Iterable[int] = allowed if allowed else sorted(
        text, key=lambda c: (int(text[c].get("position") or 0), c))
    checks = []
    for cid in wanted:
        channel = text.get(cid)
        if channel is None:
            checks.append(ChannelCheck(cid, str(cid), (), gone=True))
            continue
        perms = rest_permissions(guild, roles, member, channel, user_id)
        checks.append(ChannelCheck(cid, str(channel.get("name", cid)), lacks(perms)))
    return checks


def report_lines(checks: Sequence[ChannelCheck], w: Words, *, mention: bool = True
                 ) -> list[str]:
    """One line per channel with something missing (blocking ones first), then how many have
    everything. ``mention``: channels as Discord mentions (a message), else ``#name``."""
    if not checks:
        return [w("admin.check.no_channel")]
    lines = []
    wrong = sorted((c for c in checks if c.missing or c.gone), key=lambda c: not c.blocks)
    for check in wrong[:SHOWN]:
        where = f"<#{check.channel_id}>" if mention else f"#{check.name}"
        if check.gone:
            lines.append(w("admin.check.gone", channel=check.channel_id))
        elif check.blocks:
            lines.append(w("admin.check.blocked", channel=where,
                           permissions=Permissions(check.missing)))
        else:
            lines.append(w("admin.check.lacking", channel=where,
                           permissions=Permissions(check.missing)))
    if len(wrong) > SHOWN:
        lines.append(w.plural("admin.check.more", len(wrong) - SHOWN))
    fine = len(checks) - len(wrong)
    if fine:
        lines.append(w.plural("admin.check.fine", fine))
    return lines
