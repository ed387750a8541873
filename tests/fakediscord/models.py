"""The fake Discord's state: users, guilds, channels, messages, and their API payloads.

Everything here is plain data guarded by the owning FakeDiscord's lock; payload builders
follow the shapes discord.py 2.7 parses (discord/types/*.py is the reference).
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000
_increment = itertools.count()
_increment_lock = threading.Lock()

# What @everyone may do in a fresh server, and what the bot's own role grants by default
# (everything a text bot could want, but not Administrator, so channel overwrites bite).
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
)
BOT_ROLE_PERMISSIONS = discord.Permissions(
    EVERYONE_PERMISSIONS.value
    | discord.Permissions(
        create_private_threads=True,
        manage_threads=True,
        manage_messages=True,
        mention_everyone=True,
    ).value
)
ALL_PERMISSIONS = discord.Permissions.all()


# What Discord's server takes for a mention in a message's content: <@id>, <@!id>, <@&id>,
# @everyone, @here. It reads the content as it is: a backslash before "<" or "@" only changes
# what the clients show, the mention is still there (only allowed_mentions stops the ping).
_MENTION = re.compile(r"<@!?(\d+)>|<@&(\d+)>|@(everyone|here)")


def pings(content: str, allowed: dict[str, Any] | None) -> list[str]:
    """Who a message with this content notifies under these allowed_mentions, as Discord
    decides: ``user:<id>``, ``role:<id>``, ``everyone`` (@here too), in the content's order.
    No allowed_mentions parses everything; ``parse`` names the kinds parsed, and the
    ``users`` and ``roles`` lists the only ones of their kind that may be."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or [])
    users = {str(u) for u in (allowed or {}).get("users") or []}
    roles = {str(r) for r in (allowed or {}).get("roles") or []}
    out: list[str] = []
    for m in _MENTION.finditer(content):
        user, role, everyone = m.groups()
        if user is not None and ("users" in parse or user in users):
            out.append(f"user:{user}")
        elif role is not None and ("roles" in parse or role in roles):
            out.append(f"role:{role}")
        elif everyone is not None and "everyone" in parse:
            out.append("everyone")
    return out


def snowflake() -> int:
    """A fresh, increasing snowflake whose timestamp is now (discord.py reads created_at off it)."""
    with _increment_lock:
        counter = next(_increment) & 0x3FFFFF
    return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | counter


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"  # their Discord client's language, sent with each interaction

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    description: str | None = None
    url: str = ""
    width: int | None = None
    height: int | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        if self.width is not None:
            data["width"] = self.width
            data["height"] = self.height
        return data


@dataclass
class MessageVersion:
    """One state a message was in (every version is kept: hidden-information checks need them)."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachment_names: list[str]
    at: float
    pings: list[str] = field(default_factory=list)  # see FakeMessage.pings


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    # Set for ephemeral interaction replies: only this user ever sees the message.
    visible_to: int | None = None
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_type: int | None = None
    webhook_id: int | None = None
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    deleted: bool = False
    versions: list[MessageVersion] = field(default_factory=list)
    nonce: str | None = None  # the sender's nonce, when it gave one
    # Whom Discord would notify for the content as sent or last edited, under the request's
    # allowed_mentions (``pings()``): ``user:<id>``, ``role:<id>``, ``everyone``.
    pings: list[str] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    @property
    def is_public(self) -> bool:
        """Seen by everyone who can read the channel (not a DM, not ephemeral)."""
        return not self.is_dm and not self.ephemeral

    def snapshot(self) -> None:
        self.versions.append(
            MessageVersion(
                content=self.content,
                embeds=[dict(e) for e in self.embeds],
                components=list(self.components),
                attachment_names=[a.filename for a in self.attachments],
                at=time.monotonic(),
                pings=list(self.pings),
            )
        )

    # -- components helpers, for tests ---------------------------------------------------
    def walk_components(self) -> list[dict[str, Any]]:
        """Every component (rows, buttons, selects, v2 containers) depth first."""
        out: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                out.append(item)
                walk(item.get("components", []))
                if isinstance(item.get("accessory"), dict):
                    walk([item["accessory"]])

        walk(self.components)
        return out

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any]:
        """The component with this custom_id or label; KeyError naming what exists if none."""
        for c in self.walk_components():
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        wanted = custom_id if custom_id is not None else f"label={label!r}"
        have = [
            (c.get("label"), c.get("custom_id"))
            for c in self.walk_components()
            if c.get("type") != 1
        ]
        raise KeyError(f"no component {wanted} on message {self.id}; it has {have}")

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
        return data


@dataclass
class FakeChannel:
    id: int
    type: int  # 0 text, 1 DM, 11 public thread, 12 private thread
    name: str
    guild: FakeGuild | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: FakeUser | None = None
    # Effective permissions of the bot here; None means "what its role grants".
    bot_permissions: discord.Permissions | None = None
    archived: bool = False
    locked: bool = False
    deleted: bool = False
    position: int = 0
    thread_members: set[int] = field(default_factory=set)
    # A thread's counts, as Discord keeps them: messages ever sent in it, and deleted since
    # (its payload's total_message_sent, and message_count: those still there).
    messages_sent: int = 0
    messages_deleted: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def effective_bot_permissions(self) -> discord.Permissions:
        if self.is_thread and self.guild is not None and self.parent_id is not None:
            parent = self.guild.channels.get(self.parent_id)
            if parent is not None:
                return parent.effective_bot_permissions()
        if self.bot_permissions is not None:
            return self.bot_permissions
        if self.guild is None:  # a DM: sending is all there is
            return discord.Permissions(
                view_channel=True,
                send_messages=True,
                embed_links=True,
                attach_files=True,
                read_message_history=True,
            )
        return discord.Permissions(
            self.guild.bot_role.permissions | self.guild.everyone.permissions
        )

    def payload(self) -> dict[str, Any]:
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
            }
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "flags": 0,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        if self.is_thread:
            data.update(
                parent_id=str(self.parent_id),
                owner_id=str(self.owner_id),
                message_count=self.messages_sent - self.messages_deleted,
                member_count=len(self.thread_members),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": self.locked,
                },
                total_message_sent=self.messages_sent,
            )
        else:
            data.update(
                parent_id=None,
                topic=None,
                permission_overwrites=self.overwrites_payload(),
                default_auto_archive_duration=1440,
            )
        return data

    def overwrites_payload(self) -> list[dict[str, Any]]:
        """A member overwrite on the bot so that discord.py's permissions_for(me) agrees with us."""
        if self.bot_permissions is None or self.guild is None:
            return []
        allowed = self.bot_permissions.value
        return [
            {
                "id": str(self.guild.bot_user.id),
                "type": 1,
                "allow": str(allowed),
                "deny": str(ALL_PERMISSIONS.value & ~allowed),
            }
        ]


@dataclass
class FakeMember:
    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    nick: str | None = None  # the server nickname (discord.py's display_name when set)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    def close_dms(self) -> None:
        """From now on the bot's messages to this user's DM channel fail with 50007."""
        self.user.dms_open = False

    def open_dms(self) -> None:
        self.user.dms_open = True

    def permissions(self) -> int:
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if (
            self.guild.owner_id == self.user.id
            or value & discord.Permissions(administrator=True).value
        ):
            return ALL_PERMISSIONS.value
        return value

    def payload(self, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": self.nick,
            "avatar": None,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions())
        return data


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    bot_user: FakeUser
    everyone: FakeRole
    bot_role: FakeRole
    fake: Any  # the owning FakeDiscord (builders need its lock and its gateway)
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    locale: str = "en-US"  # the server's preferred locale (Server Settings > Community)

    @property
    def owner(self) -> FakeMember:
        return self.members[self.owner_id]

    # -- builders ---------------------------------------------------------------------
    def add_text_channel(
        self, name: str, *, bot_permissions: discord.Permissions | int | None = None
    ) -> FakeChannel:
        """A text channel; bot_permissions (if given) is exactly what the bot may do there."""
        with self.fake.lock:
            perms = _as_permissions(bot_permissions)
            channel = FakeChannel(
                id=snowflake(),
                type=0,
                name=name,
                guild=self,
                bot_permissions=perms,
                position=len(self.channels),
            )
            self.channels[channel.id] = channel
            self.fake._channels[channel.id] = channel
        self.fake._gateway("CHANNEL_CREATE", channel.payload())
        return channel

    def set_locale(self, locale: str) -> None:
        """A moderator changes the server's preferred locale; connected bots get GUILD_UPDATE."""
        with self.fake.lock:
            self.locale = locale
            payload = self.payload(all_members=False)
        # Discord's GUILD_UPDATE: the guild without what only GUILD_CREATE carries.
        for key in ("joined_at", "large", "member_count", "voice_states", "members", "channels",
                    "threads", "presences", "stage_instances", "guild_scheduled_events",
                    "soundboard_sounds", "unavailable"):
            payload.pop(key, None)
        self.fake._gateway("GUILD_UPDATE", payload)

    def set_bot_permissions(
        self, channel: FakeChannel, permissions: discord.Permissions | int | None
    ) -> None:
        """Change what the bot may do in a channel; connected bots get CHANNEL_UPDATE."""
        with self.fake.lock:
            channel.bot_permissions = _as_permissions(permissions)
        self.fake._gateway("CHANNEL_UPDATE", channel.payload())

    def add_role(
        self, name: str, permissions: discord.Permissions | int, *, position: int | None = None
    ) -> FakeRole:
        """A role (``position``: its place in the hierarchy, default above every role);
        connected bots get GUILD_ROLE_CREATE."""
        with self.fake.lock:
            place = len(self.roles) if position is None else position
            role = FakeRole(snowflake(), name, _as_permissions(permissions).value, place)  # type: ignore[union-attr]
            self.roles[role.id] = role
        self.fake._gateway("GUILD_ROLE_CREATE", {"guild_id": str(self.id), "role": role.payload()})
        return role

    def set_bot_role(self, permissions: discord.Permissions | int, position: int) -> None:
        """What the bot's own role allows in the server and where it stands; connected bots
        get GUILD_ROLE_UPDATE."""
        with self.fake.lock:
            self.bot_role.permissions = _as_permissions(permissions).value  # type: ignore[union-attr]
            self.bot_role.position = position
        self.fake._gateway(
            "GUILD_ROLE_UPDATE", {"guild_id": str(self.id), "role": self.bot_role.payload()}
        )

    def add_member(
        self,
        name: str,
        *,
        manage_guild: bool = False,
        roles: list[FakeRole] | None = None,
        nick: str | None = None,
    ) -> FakeMember:
        """A human member (manage_guild gives them a role with Manage Server; ``nick``, a
        server nickname, is the name the server shows)."""
        with self.fake.lock:
            user = self.fake._new_user(name)
            member = FakeMember(user=user, guild=self, roles=list(roles or []), nick=nick)
            if manage_guild:
                member.roles.append(self._manager_role())
            self.members[user.id] = member
        return member

    def _manager_role(self) -> FakeRole:
        for role in self.roles.values():
            if role.name == "Manager":
                return role
        role = FakeRole(snowflake(), "Manager", discord.Permissions(manage_guild=True).value, 1)
        self.roles[role.id] = role
        return role

    def threads(self, parent: FakeChannel | int | None = None) -> list[FakeChannel]:
        parent_id = parent.id if isinstance(parent, FakeChannel) else parent
        with self.fake.lock:
            return [
                c
                for c in self.channels.values()
                if c.is_thread and not c.deleted and (parent_id is None or c.parent_id == parent_id)
            ]

    # -- payloads ---------------------------------------------------------------------
    def payload(self, *, all_members: bool) -> dict[str, Any]:
        bot_member = FakeMember(user=self.bot_user, guild=self, roles=[self.bot_role])
        members = [bot_member.payload()]
        if all_members:
            members += [m.payload() for m in self.members.values()]
        live = [c for c in self.channels.values() if not c.deleted]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            # The real count, so that an intents.members bot considers the guild chunked.
            "member_count": len(members) if all_members else len(self.members) + 1,
            "voice_states": [],
            "members": members,
            "channels": [c.payload() for c in live if not c.is_thread],
            "threads": [c.payload() for c in live if c.is_thread and not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def _as_permissions(value: discord.Permissions | int | None) -> discord.Permissions | None:
    if value is None or isinstance(value, discord.Permissions):
        return value
    return discord.Permissions(value)
