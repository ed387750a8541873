"""Which language a reader gets: the one place that decides it, for a member, a seat and a
server.

- A member answered (a click, a command) reads their Discord client's language when the
  catalogue has it, else what the answer is about speaks (the table's, the server's):
  ``member_language``.
- A seat's hand is read by its player alone: their client's language as their last interaction
  said (``Readers``, kept across restarts), else the table's: ``seat_language``.
- What is posted for everybody in a server (a table, a leaderboard, a podium) speaks the
  server's language: the one a moderator chose, else ("auto") the server's preferred locale
  when the catalogue has it, else English: ``server_language``. A new table speaks it unless
  /belote new says otherwise. A process of a sharded bot that does not run the server has no
  guild for it (its pages are asked of every process): it reads the language the server's
  locale gave, which the process running the server records (``ServerLocales``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import discord

from i18n import DEFAULT_LANGUAGE, languages
from service.guild_settings import AUTO_LANGUAGE, GuildSettings

if TYPE_CHECKING:
    from db.guilds import GuildRepo
    from db.readers import MemberLanguagesRepo
    from service.tables import LiveTable

log = logging.getLogger(__name__)

# Discord's locales that have a catalogue of ours. English is the default text itself.
LANGUAGE_OF_LOCALE: Final[dict[discord.Locale, str]] = {
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
    discord.Locale.french: "fr",
    discord.Locale.bulgarian: "bg",
}


def locale_language(locale: discord.Locale | None) -> str | None:
    """The catalogue language for a Discord locale, or None when we do not speak it."""
    if locale is None:
        return None
    language = LANGUAGE_OF_LOCALE.get(locale)
    return language if language in languages() else None


class Readers:
    """The language each member's Discord client speaks, as their last interaction said. What
    the bot sends one member unasked (their DM hand) is written in it. Each change is written
    to the database in the background (one writer, newest value wins), and the players of the
    restored tables are read back at start: a restart keeps a French player's hand French."""

    def __init__(self) -> None:
        # None: their client speaks none of our languages (they read the table's).
        self._seen: dict[int, str | None] = {}
        self._repo: MemberLanguagesRepo | None = None
        self._unsaved: dict[int, str | None] = {}
        self._writer: asyncio.Task[None] | None = None

    def attach(self, repo: MemberLanguagesRepo) -> None:
        self._repo = repo

    async def load(self, user_ids: Iterable[int]) -> None:
        """Read back what was stored for these members (those seen since are newer: kept)."""
        if self._repo is None:
            return
        wanted = [u for u in set(user_ids) if u not in self._seen]
        stored = await self._repo.load(wanted)
        for user_id in wanted:
            self._seen.setdefault(user_id, stored.get(user_id))

    def note(self, user_id: int, locale: discord.Locale | None) -> None:
        language = locale_language(locale)
        if user_id in self._seen and self._seen[user_id] == language:
            return
        self._seen[user_id] = language
        if self._repo is not None:
            self._unsaved[user_id] = language
            if self._writer is None or self._writer.done():
                self._writer = asyncio.create_task(self._write(self._repo),
                                                   name="belote-member-languages")

    def language(self, user_id: int | None, otherwise: str) -> str:
        """``user_id``'s language when we speak it, else ``otherwise`` (the table's)."""
        known = self._seen.get(user_id) if user_id is not None else None
        return known or otherwise

    async def _write(self, repo: MemberLanguagesRepo) -> None:
        while self._unsaved:
            user_id, language = self._unsaved.popitem()
            try:
                await repo.save(user_id, language)
            except Exception as e:  # a language is a comfort: never worth a failed action
                log.warning("member %s's language not saved (%s): kept in memory", user_id,
                            e)

    async def flush(self) -> None:
        """Wait until every change is written (before the database closes)."""
        while self._writer is not None and not self._writer.done():
            await self._writer


def member_language(interaction: discord.Interaction[Any],
                    otherwise: str = DEFAULT_LANGUAGE) -> str:
    """The language to answer a member in: their Discord client's when we speak it, else
    ``otherwise`` (the table's or the server's language)."""
    return locale_language(interaction.locale) or otherwise


def seat_language(readers: Readers, live: LiveTable, seat: int) -> str:
    """A seat's hand is read by its player alone: in their client's language when we speak it,
    else the table's."""
    s = live.seats.get(seat)
    return readers.language(s.user_id if s is not None else None, live.language)


def server_language(settings: GuildSettings, guild: discord.Guild | None,
                    recorded: str | None = None) -> str:
    """The server's language, and a new table's when /belote new does not say: the language a
    moderator chose, else ("auto") the server's preferred locale when the bot speaks it (a
    French or Bulgarian community), else English. Without the guild (another process runs
    its server), ``recorded`` stands for its locale: what that process recorded
    (``ServerLocales``), when it is a language the bot speaks."""
    if settings.language != AUTO_LANGUAGE:
        return settings.language
    if guild is not None:
        return locale_server_language(guild)
    return recorded if recorded is not None and recorded in languages() else DEFAULT_LANGUAGE


def locale_server_language(guild: discord.Guild) -> str:
    """What an "auto" server speaks by its preferred locale (what ``ServerLocales`` records)."""
    return locale_language(guild.preferred_locale) or DEFAULT_LANGUAGE


class ServerLocales:
    """The language each server's preferred locale gives, recorded in the database by the
    process that runs the server (it has the guild), so that a process without it (another
    shard's, asked for the server's pages) speaks it too. Written only when it changed: what
    the database holds is read once per server (at ready, all in one go; a server available
    again or joined later, alone), then each change (a guild update) is written in the
    background (one writer, newest value wins)."""

    def __init__(self) -> None:
        self._repo: GuildRepo | None = None
        self._stored: dict[int, str | None] = {}  # what the database holds, as we know it
        self._unsaved: dict[int, str] = {}
        self._writer: asyncio.Task[None] | None = None

    def attach(self, repo: GuildRepo) -> None:
        self._repo = repo

    async def learn(self, guilds: Iterable[discord.Guild]) -> None:
        """These servers, as the gateway gave them: each whose stored language differs from
        what its locale gives now is written."""
        guilds = list(guilds)
        if self._repo is None or not guilds:
            return
        unknown = [g.id for g in guilds if g.id not in self._stored]
        if unknown:
            try:
                stored = await self._repo.locale_languages(unknown)
            except Exception as e:  # a comfort for the other processes' pages: never fatal
                log.warning("servers' recorded languages not read (%s): written anew", e)
                stored = {}
            for guild_id in unknown:
                self._stored.setdefault(guild_id, stored.get(guild_id))
        for guild in guilds:
            self.note(guild)

    def note(self, guild: discord.Guild) -> None:
        """The server as it is now (its preferred locale may have changed): recorded if its
        language is not what the database holds."""
        language = locale_server_language(guild)
        if guild.id in self._stored and self._stored[guild.id] == language:
            return
        self._stored[guild.id] = language
        if self._repo is not None:
            self._unsaved[guild.id] = language
            if self._writer is None or self._writer.done():
                self._writer = asyncio.create_task(self._write(self._repo),
                                                   name="belote-server-locales")

    async def recorded(self, guild_id: int) -> str | None:
        """What the process running the server recorded (None: nothing yet)."""
        return None if self._repo is None else await self._repo.locale_language(guild_id)

    async def _write(self, repo: GuildRepo) -> None:
        while self._unsaved:
            guild_id, language = self._unsaved.popitem()
            try:
                await repo.set_locale_language(guild_id, language)
            except Exception as e:
                log.warning("server %s's language not recorded (%s)", guild_id, e)
                self._stored.pop(guild_id, None)  # tried again when it is next seen

    async def flush(self) -> None:
        """Wait until every change is written (before the database closes)."""
        while self._writer is not None and not self._writer.done():
            await self._writer
