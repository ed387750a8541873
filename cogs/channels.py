"""When a table's thread or channel is deleted, or the bot loses its permissions there.

Nothing of the game is lost either way: the table lives in the database and in memory. A table
whose thread was deleted moves to the thread's channel when the bot may post there; otherwise
the players read why in their hands, and `/belote show` brings the table to another channel.
A table whose message alone was deleted is posted anew where it was: at once, when Discord
tells of the deletion (a message deleted, or many at once); one deleted while the bot was down
is looked for at the start, where its thread's counters say that a message of it was deleted
(or where the table lives in a channel, which keeps no such count), else found at its next
edit, or by `/belote show`.

Discord failing on the way (a 5xx, a dropped connection, a timeout) loses nothing either: a post
of the table is tried again a few times (the same message, by its nonce); if Discord still fails,
it is one WARNING counted with an outage's, and the table's next edit in the Outbox takes this
path again until it gets through.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.bot import BeloteBot
from bot.messages import NO_MENTIONS
from bot.outbox import is_transient, nonce
from bot.undelivered import sending
from i18n import Message, Permissions, words
from service.keyed_lock import KeyedLock
from service.tables import LiveTable

log = logging.getLogger(__name__)

# What the table needs where it lives: see its message, post deal sheets with images.
NEEDED = ("view_channel", "send_messages", "attach_files")
UNKNOWN_MESSAGE = 10008
# Why a table is lost because of a permission: given back, the table is shown again.
PERMISSION_LOSSES = frozenset({"belote.lost.permissions", "belote.lost.no_view_channel"})


def lost_permissions(live: LiveTable, missing: list[str]) -> Message:
    return Message.of("belote.lost.permissions", permissions=Permissions(missing),
                      table=live.id)


def missing_permissions(channel: Any) -> list[str]:
    """The permissions (Discord's flag names) the table needs that the bot lacks in
    ``channel`` (a thread or not)."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None:
        return []
    perms = channel.permissions_for(guild.me)
    needed = list(NEEDED)
    if isinstance(channel, discord.Thread):
        needed[1] = "send_messages_in_threads"
    return [p for p in needed if not getattr(perms, p)]


class Channels(commands.Cog):
    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot
        self.moving: KeyedLock[int] = KeyedLock()  # one move of a table at a time

    def tables_in(self, channel_id: int) -> list[LiveTable]:
        return [t for t in self.bot.service.live.values()
                if channel_id in (t.row.home_id, t.row.channel_id)]

    def refresh(self, live: LiveTable) -> None:
        """Show the table and hands again whatever they showed last (edits may have failed)."""
        self.bot.delivery.invalidate(live.id)

    def set_lost(self, live: LiveTable, reason: Message | None) -> None:
        self.refresh(live)
        self.bot.service.set_lost(live, reason)

    async def cog_load(self) -> None:
        self.bot.delivery.on_table_gone = self.table_gone

    async def cog_unload(self) -> None:
        self.bot.delivery.on_table_gone = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """The lost state is not stored: it is found again at each start from what Discord
        says now, which also catches a thread or channel deleted while the bot was away.
        Each table is shown again after its check, so no edit goes to a home that is gone."""
        for live in list(self.bot.service.live.values()):
            # Discord failing: shown where it was, edited even if it showed this already, so
            # that an edit finding its home gone comes back here (table_gone).
            home = None
            with sending(self.bot, f"table {live.id}: the check of its channel") as checked:
                home = await self.check_home(live)
            if checked.failed:
                self.refresh(live)
            elif self.maybe_deleted(live, home):
                with sending(self.bot, f"table {live.id}: the look for its message at the "
                             "start") as looked:
                    await self.find_table(live)
                if looked.failed:
                    self.refresh(live)  # its edit finds it gone once Discord answers
            self.bot.delivery.restored(live)

    def maybe_deleted(self, live: LiveTable, home: Any) -> bool:
        """Whether the table message may have been deleted while the bot was down, from what
        the gateway told at the start (``home``: what check_home found), with no call: a
        thread counts the messages sent in it (``total_message_sent``) and those still there
        (``message_count``), so a thread none of whose messages was ever deleted still holds
        its table message. A table in a channel may have lost it: it is looked for (one call).
        A server not available yet (no home found) is left to the table's next edit."""
        if live.lost is not None or live.row.message_id is None or \
                getattr(home, "id", None) != live.row.home_id:
            return False  # lost, or moved out of a deleted thread: posted anew already
        if not isinstance(home, discord.Thread):
            return True
        return home.total_message_sent > home.message_count

    async def find_table(self, live: LiveTable) -> None:
        """Ask Discord for the table message; when it is gone (deleted by someone), take the
        path of a table message that cannot be edited (``table_gone``): posted anew where it
        was, or the table moved or marked lost. Discord failing is raised."""
        message_id = live.row.message_id
        if message_id is None or live.lost is not None:
            return
        try:
            await self.bot.http.get_message(live.row.home_id, message_id)
        except discord.Forbidden as e:
            # Reading needs Read Message History, which showing it does not: no news.
            log.info("table %s: its message cannot be read (%s); taken as where it was",
                     live.id, e)
        except discord.NotFound as e:
            log.warning("table %s: its message cannot be read (%s); posting it again or "
                        "telling the players in their hands", live.id, e)
            self.bot.delivery.table_message_gone(live)
            await self.table_gone(live, e, message_id=message_id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        await self.deleted(payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent
                                         ) -> None:
        await self.deleted(payload.channel_id, payload.message_ids)

    async def deleted(self, channel_id: int, message_ids: set[int]) -> None:
        """Messages were deleted in a channel (by their author, a moderator, another bot): a
        table message among them is posted again where it was. The tables are looked over
        at each deletion in every server: comparisons only, no call."""
        for live in [t for t in self.bot.service.live.values()
                     if t.row.home_id == channel_id and t.row.message_id in message_ids
                     and t.lost is None]:
            gone = live.row.message_id
            log.info("table %s: its message was deleted; posting it again where it was",
                     live.id)
            self.bot.delivery.table_message_gone(live)
            with sending(self.bot, f"table {live.id}: its post after its message was "
                         "deleted") as posted:
                await self.table_gone(live, None, message_id=gone)
            if posted.failed:
                # Discord failing: the table's next edit finds the message gone and comes
                # back here (table_gone), in the Outbox, until it gets through.
                self.refresh(live)
                self.bot.service.listener.table_changed(live)

    async def table_gone(self, live: LiveTable, error: discord.HTTPException | None, *,
                         message_id: int | None = None) -> None:
        """The table message (``message_id``, by default the table's now) could not be
        edited or read: post it again where it was when only the message was deleted;
        otherwise move the table out of a deleted thread, or mark it lost (the players read
        why in their hands). Once: a second caller for the same message finds it posted
        anew. Discord failing on the way is raised (the Outbox, which edits the table, tries
        again; a command tells who asked). ``error`` None: Discord told that the message was
        deleted (its gateway event)."""
        gone = live.row.message_id if message_id is None else message_id
        async with self.moving(live.id):
            if live.row.message_id != gone or gone is None:
                return  # posted anew meanwhile (by the other caller), or not posted at all
            await self._table_gone(live, error)

    async def _table_gone(self, live: LiveTable, error: discord.HTTPException | None) -> None:
        deleted = isinstance(error, discord.NotFound) and error.code == UNKNOWN_MESSAGE
        if error is None or deleted:
            home = self.bot.get_partial_messageable(live.row.home_id,
                                                    guild_id=live.row.guild_id)
            try:
                await self.move_to(live, home, Message.of("belote.moved.message_deleted"),
                                   thread_id=live.row.thread_id)
                return
            except discord.HTTPException as e:
                if is_transient(e):
                    raise
                error = e  # the home is gone too, or refuses: see below
        gone = live.row.message_id
        try:
            await self.check_home(live)
        except discord.HTTPException as e:
            if is_transient(e):
                raise
            log.info("table %s: could not check its channel (%s)", live.id, e)
        if live.lost is None and live.row.message_id is not None and \
                live.row.message_id == gone and error is not None:  # (not moved away)
            self.set_lost(live, Message.of("belote.lost.cannot_show", table=live.id,
                                           error=error.text or error.status))

    async def check_home(self, live: LiveTable) -> Any:
        """Mark the table lost (or move it out of a deleted thread) when its home is gone or
        the bot may no longer post there. The home found (a thread fetched when it was not in
        the cache), or None."""
        guild = self.bot.get_guild(live.row.guild_id)
        if guild is None or live.row.message_id is None or live.lost is not None:
            return None  # a server not (yet) available tells us nothing
        home: Any = guild.get_channel_or_thread(live.row.home_id)
        if home is None:  # threads are not all in the cache: ask
            try:
                home = await self.bot.fetch_channel(live.row.home_id)
            except discord.NotFound:
                home = None
            except discord.Forbidden:
                self.set_lost(live, Message.of("belote.lost.no_view_channel", table=live.id))
                return None
        if home is None and live.row.thread_id is not None:
            parent = guild.get_channel(live.row.channel_id)
            if isinstance(parent, discord.TextChannel) and not missing_permissions(parent):
                await self.move_to(live, parent, Message.of("belote.moved.thread_deleted"))
            else:
                self.set_lost(live, Message.of("belote.lost.thread_deleted", table=live.id))
        elif home is None:
            self.set_lost(live, Message.of("belote.lost.channel_deleted", table=live.id))
        elif missing := missing_permissions(home):
            self.set_lost(live, lost_permissions(live, missing))
        return home

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        for live in self.tables_in(payload.thread_id):
            if live.row.thread_id != payload.thread_id:
                continue
            parent = self.bot.get_channel(payload.parent_id)
            if isinstance(parent, discord.TextChannel) and not missing_permissions(parent):
                with sending(self.bot, f"table {live.id}: its move out of its deleted "
                             "thread") as moved:
                    await self.move_to(live, parent, Message.of("belote.moved.thread_deleted"))
                if moved.error is not None and is_transient(moved.error):
                    # Discord failing: the table's next edit finds the thread gone and
                    # comes back here (table_gone), in the Outbox, until it gets through.
                    self.refresh(live)
                    self.bot.service.listener.table_changed(live)
                elif moved.failed:
                    self.set_lost(live, Message.of("belote.lost.thread_deleted",
                                                   table=live.id))
            else:
                self.set_lost(live, Message.of("belote.lost.thread_deleted", table=live.id))

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        for live in self.tables_in(channel.id):
            self.set_lost(live, Message.of("belote.lost.channel_deleted", table=live.id))

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        for live in self.tables_in(after.id):
            home = self.bot.get_channel(live.row.home_id) or after
            missing = missing_permissions(home)
            if missing:
                self.set_lost(live, lost_permissions(live, missing))
            elif live.lost is not None and live.lost.message_id in PERMISSION_LOSSES:
                self.set_lost(live, None)  # given back: show the table as it is now

    async def move_to(self, live: LiveTable, channel: discord.abc.Messageable,
                      why: Message, *, thread_id: int | None = None) -> discord.Message:
        """Post the table message in ``channel`` and make it the table's home (``thread_id``:
        the table's thread, when ``channel`` is that thread), then say why there. The post
        is tried again when Discord fails on its way (its nonce makes a try whose answer was
        lost give back the message it made); then the failure is raised. The notice goes
        through the Outbox: sent again until Discord takes it."""
        delivery = self.bot.delivery
        once = ("table moved", live.id, getattr(channel, "id", None), live.row.message_id)
        message, current = await delivery.post_table(live, channel, once)
        self.refresh(live)
        if current:
            async with delivery.table_reply(live):  # the message posted shows it now
                await self.bot.service.attach(
                    live.id, thread_id=thread_id, message_id=message.id,
                    channel_id=None if thread_id is not None else message.channel.id)
        else:  # the table moved on while Discord failed: the message is edited to it now
            await self.bot.service.attach(
                live.id, thread_id=thread_id, message_id=message.id,
                channel_id=None if thread_id is not None else message.channel.id)
            # Through the service's listener: the live page hears of it too.
            self.bot.service.listener.table_changed(live)
        # Posted for everybody: in the table's language.
        notice = words(live.language)("belote.moved.notice", table=live.id, why=why)
        delivery.post(once, lambda: channel.send(notice, allowed_mentions=NO_MENTIONS,
                                                 nonce=nonce(*once, "notice")))
        log.info("table %s moved to channel %s (%s)", live.id, message.channel.id, why)
        return message


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Channels(bot))
