"""The Bot: opens the database, loads the cogs, registers persistent components, restores tables,
and syncs the slash commands only when they changed."""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import math
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from db import Database
from db.postgres import PostgresDatabase
from db.routing import ClickRoutes
from db.tables import LiveMark
from i18n import words
from service.analysis import AnalysisRunner
from service.audit import AuditLog
from service.challenge import DailyDeal
from service.challenge_review import REVIEW_WAIT, TryReview
from service.credits import Credits
from service.guild_settings import GuildSettingsStore
from service.records import Records
from service.seasons import SeasonKeeper
from service.tables import LiveTable, TableListener, TableService
from service.tables import state as table_state
from service.tournaments import TournamentRunner
from service.web_links import WebLinks
from web import WebServer
from web.live import Feed, Poller
from web.site import Site

from . import images
from .analysis_pool import AnalysisPool
from .answers import ANSWERS, PRIVATE, PUBLIC, SlowAnswer
from .budget import meter
from .click_router import ClickRouter
from .controls import CONTROLS
from .controls.analysis import resume_watches
from .delivery import THREAD_WAIT, Delivery
from .errors import answer_error, tell
from .health import Health
from .host import Host
from .languages import Readers, ServerLocales, member_language
from .live_watch import Watched
from .logjson import tag_interactions
from .metrics import BotMetrics
from .ratelimit import MemberLimits
from .settings import Settings
from .sharding import Shards, click_key
from .translator import CatalogueTranslator
from .undelivered import answering, guard_choices
from .web import start_web, web_links

log = logging.getLogger(__name__)

# New objects between two young garbage collections (Python's default: 700); see setup_hook.
GC_YOUNG = 20_000

# cogs.admin and cogs.stats after cogs.belote: their commands join the /belote group.
COGS = ("cogs.belote", "cogs.admin", "cogs.stats", "cogs.lobby", "cogs.channels",
        "cogs.tournaments", "cogs.credits", "cogs.seasons", "cogs.challenge",
        "cogs.fallback")

# The gateway events the bot hears: servers, their channels, threads and roles (what it may do
# where), and the messages deleted in them (a table message deleted is posted again at once:
# cogs/channels.py). Commands and clicks come as interactions whatever the intents; reactions,
# typing and voice are never heard, nor a message's content. A server's messages come with the
# deletions (Discord has no intent for these alone): each message sent or edited there is
# dropped as it arrives (DROPPED), before any object is made of it, and nothing is cached
# (max_messages=None). What that costs: docs/benchmarks.md, "A server's chat".
INTENTS = discord.Intents(guilds=True, guild_messages=True)
DROPPED = ("MESSAGE_CREATE", "MESSAGE_UPDATE")


def _dropped(data: Any) -> None:
    """A gateway event the bot does not read (DROPPED): its JSON is all it costs."""


def drop_unread(connection: Any) -> None:
    """Make discord.py drop the events the bot does not read as they come (DROPPED): its
    gateway looks each event's parser up in the connection's table (every shard's)."""
    for event in DROPPED:
        connection.parsers[event] = _dropped

# What the bot needs in a channel, and for its thread. Named in the invite link and checked at
# /belote new. No privileged intent is needed: slash commands and buttons bring everything.
NEEDED_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, attach_files=True, read_message_history=True,
    create_public_threads=True, send_messages_in_threads=True, embed_links=True)
# The invite link asks for Manage Threads too: a table's thread is locked as well as archived
# when the table is over (without it, archived only; nothing else needs it).
INVITE_PERMISSIONS = NEEDED_PERMISSIONS | discord.Permissions(manage_threads=True)


class BeloteTree(app_commands.CommandTree["BeloteBot"]):
    """The slash commands, with one error handler for all of them (bot/errors.py)."""

    async def interaction_check(self, interaction: discord.Interaction[BeloteBot], /) -> bool:
        """Each member's commands are rate-limited (bot/ratelimit.py); the refusal says when
        to try again. Typing in an option (autocomplete) is not a command."""
        self.client.readers.note(interaction.user.id, interaction.locale)
        if interaction.type is discord.InteractionType.autocomplete:
            guard_choices(interaction)  # choices Discord does not take are one WARNING
            return True
        if interaction.type is not discord.InteractionType.application_command:
            return True
        again = self.client.limits.commands.take((interaction.guild_id, interaction.user.id))
        if again is not None:
            raise app_commands.CheckFailure(
                words(member_language(interaction))("admin.limit.commands",
                                             when=f"<t:{math.ceil(again)}:R>"))
        # Its answer armed now, like a click's: a command slow to act (a table's lock, the
        # database) is deferred in time, and answers through it (bot/answers.py).
        command = interaction.command
        answers = command.extras.get(ANSWERS) if command is not None else None
        if answers in (PRIVATE, PUBLIC):
            SlowAnswer.armed(interaction, update=False, ephemeral=answers == PRIVATE)
        return True

    async def on_error(self, interaction: discord.Interaction[BeloteBot],
                       error: app_commands.AppCommandError, /) -> None:
        await SlowAnswer.closing(interaction)  # a defer on its way lands before the answer
        where = f"/{interaction.command.qualified_name}" if interaction.command else "a command"
        if isinstance(error, app_commands.CommandInvokeError):
            await answer_error(interaction, error.original, where)
        elif isinstance(error, app_commands.CheckFailure):  # says what is missing: no bug
            with answering(interaction, "why the command cannot be used", where):
                await tell(interaction, str(error))
        else:
            await answer_error(interaction, error, where)


class BeloteBot(Host):
    reviews: TryReview
    # How long a process waits for its shards' locks: a process that was just killed may hold
    # them a moment more (until PostgreSQL sees its connection end).
    shard_lock_wait = 30.0
    shards_lost = False  # it stopped because another process took its shards

    def __init__(self, settings: Settings) -> None:
        shards = Shards.of(settings)
        super().__init__(command_prefix=commands.when_mentioned, intents=INTENTS,
                         max_messages=None, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(),
                         tree_cls=BeloteTree, **self.shard_options(shards, settings))
        drop_unread(self._connection)
        self.settings = settings
        self.sharding = shards
        self.readers = Readers()  # each member's language, for what they alone read
        # Each server's language by its preferred locale, recorded for the other processes.
        self.locales = ServerLocales()
        self.delivery = Delivery(self)
        # Every REST call takes its turn in the global budget (interaction answers excepted);
        # the budget is the bot's, so each process of a sharded bot takes its shards' part.
        budget = self.delivery.jobs.budget
        budget.limit = shards.budget(budget.limit)
        meter(self.http, budget)
        # Another process runs some shards: clicks on its tables' hands are carried there.
        self.router = None if shards.whole else ClickRouter(self, shards)
        self.routes: ClickRoutes | None = None
        self.db: Database | None = None
        self.limits = MemberLimits()
        # Readiness and metrics for operators, served with the web pages on WEB_PORT (no
        # port: nothing is measured, nothing served).
        self.health = Health(self)
        tag_interactions(self)  # log lines name the server an interaction came from
        self.metrics = BotMetrics(self) if settings.web_port is not None else None
        if self.metrics is not None:
            self.metrics.instrument()
        self.web: WebServer | None = None
        self.web_links: WebLinks | None = None
        self.live_feed: Feed[LiveTable] | None = None  # the live tables' viewers (WEB_PORT)
        # The other processes' tables watched here (sharded, WEB_PORT): bot/web.py.
        self.live_poller: Poller[LiveTable, LiveMark] | None = None
        self.web_site: Site | None = None  # the servers' pages (WEB_PORT)

    def chance(self, what: str) -> random.Random:
        """A generator for one use of chance (``what``: the retry jitter, a tournament's
        draws): seeded from TABLE_SEED when it is set, so a run can be reproduced (the tests
        set it), else the system's randomness."""
        seed = self.settings.table_seed
        return table_state.system_rng() if seed is None else random.Random(f"{seed}:{what}")

    @staticmethod
    def shard_options(shards: Shards, settings: Settings) -> dict[str, Any]:
        """discord.py's sharding arguments: none unless SHARD_COUNT is set; one shard as
        ``shard_id``, several as ``shard_ids`` (ShardedBeloteBot)."""
        if settings.shard_count is None:
            return {}
        if len(shards.ids) == 1:
            return {"shard_id": shards.ids[0], "shard_count": shards.count}
        return {"shard_ids": list(shards.ids), "shard_count": shards.count}

    async def setup_hook(self) -> None:
        # First: /healthz answers (and /readyz says what is still missing) while tables load.
        self.web = await start_web(self, self.health, self.metrics)
        self.db = await Database.open(self.settings.database)
        if self.metrics is not None:
            self.metrics.database(self.db)
        if self.router is not None:
            # The shards' locks first: a second process started for the same shards stops
            # here, before it restores (and would run) tables another process runs.
            assert isinstance(self.db, PostgresDatabase)  # Settings refuse SQLite
            routes = ClickRoutes(self.db, self.router.taken, self.lost_shards,
                                 key=click_key(self.settings))
            try:
                await routes.start(self.sharding.ids, wait=self.shard_lock_wait)
            except BaseException:
                await self.db.close()
                self.db = None
                raise
            self.routes = self.router.routes = routes
        self.guild_settings = GuildSettingsStore(self.db)
        self.readers.attach(self.db.languages)
        self.locales.attach(self.db.guilds)
        self.audit = AuditLog(self.db)
        self.records = Records(self.db)
        # Finished matches' double-dummy analysis, in a worker process (bot/analysis.py).
        self.analysis_pool = AnalysisPool()
        self.analyses = AnalysisRunner(self.db, self.records, self.analysis_pool.run)
        self.seasons = SeasonKeeper(self.db, self.guild_settings)
        # Each server's web address (WEB_PORT): its pages' token and the links messages carry.
        self.web_links = web_links(self)
        self.credits = Credits(self.db, self.guild_settings)
        # With the pages served, the live table pages hear of each change too.
        listener: TableListener = self.delivery if self.live_feed is None \
            else Watched(self.delivery, self.live_feed)
        self.service = TableService(self.db, listener=listener,
                                    computer_delay=self.settings.computer_delay,
                                    forced_delay=self.settings.forced_delay,
                                    computer_level=self.settings.computer_level,
                                    rng=None if self.settings.table_seed is None
                                    else random.Random(self.settings.table_seed))
        self.service.tables.balance_of = self.credits.balance  # stakes at tables
        self.analyses.watch_ends(self.service, self.guild_settings)  # analysis: on
        self.tournaments = TournamentRunner(
            self.db, self.service, self.guild_settings, names=self.member_name,
            present=self.is_member,
            # Seeded, the tournaments draw from the tables' seed, as they always have.
            rng=self.chance("tournaments") if self.settings.table_seed is None
            else random.Random(self.settings.table_seed))
        self.tournaments.balance_of = self.credits.balance  # entry fees
        # Before the restore: a daily deal's table restored still scores its try at its end.
        self.daily = DailyDeal(self.db, self.service)
        self.delivery.thread_waits.append((self.daily.scored, THREAD_WAIT))
        # After a try: its par and costliest cards, from its analysis (the worker's).
        self.reviews = TryReview(self.daily, self.analyses)
        self.delivery.thread_waits.append((self.reviews.reviewed, REVIEW_WAIT))
        self.add_dynamic_items(*CONTROLS)
        await self.tree.set_translator(CatalogueTranslator())
        for cog in COGS:
            await self.load_extension(cog)
        if 0 in self.sharding.ids:  # one process syncs the commands: shard 0's
            await self.sync_commands()
        # The restored tables are shown again only once the Channels cog has checked, when
        # the bot is ready, that their thread, channel and permissions are still there: an
        # edit sent before that check would fail on every table whose home is gone.
        await self.service.restore(self.sharding)
        # After the tables: it looks at which are still open.
        await self.tournaments.resume(owns=self.sharding.owns)
        # The analyses a stop cut short, from their stored deals (this process's servers'),
        # each message that showed one's progress following it again first.
        await resume_watches(self)
        await self.analyses.resume(owns=self.sharding.owns)
        # Each seated player's hand in their own language, as before the restart.
        await self.readers.load(s.user_id for live in self.service.live.values()
                                for s in live.seats.values() if s.user_id is not None)
        await self.delivery.load_shown()  # what Discord shows already is not sent again
        # The threads of tables that ended before the last stop and are still open.
        await self.delivery.close_owed_threads()
        # What is loaded by now (modules, cogs, restored tables) lives as long as the process:
        # keep it out of the collector's full passes, which otherwise pause the event loop for
        # tens of milliseconds under load.
        gc.freeze()
        # discord.py's interactions and views are cycles, freed by the collector only; each
        # player's last click is kept for its token while they think. With young collections
        # every 700 new objects, a busy bot ran ten a second, so those clicks outlived enough
        # of them to reach the oldest generation, and full collections (five a minute at 200
        # tables) paused the event loop up to 226 ms. Collecting the young generation less
        # often let them die young: no full collection in a minute at 200 tables. Kept clicks
        # and sent views are now unlinked and freed at once (answers.kept_for_token,
        # controls.let_go); the threshold stays, measured with them (bench/bench_bot.py
        # reports each generation: 5 young collections a minute at 200 tables).
        gc.set_threshold(GC_YOUNG, 10, 10)

    def lost_shards(self) -> None:
        """Another process now runs our shards (we lost their locks and could not take them
        back): stop, so that no table is run twice. A supervisor starts the process again,
        and it waits for the shards to be free."""
        log.error("stopping: this process no longer holds its shards")
        self.shards_lost = True
        self.loop.create_task(self.close(), name="belote-stop-lost-shards")

    def member_name(self, guild_id: int, user_id: int) -> str:
        """The name a tournament table shows for an entrant."""
        guild = self.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        return member.display_name if member is not None else f"#{user_id}"

    def is_member(self, guild_id: int, user_id: int) -> bool:
        """An entrant still in the server when the tournament starts (else a no-show). Without
        the members intent the cache is not complete: only a cached departure counts."""
        guild = self.get_guild(guild_id)
        return guild is None or not guild.chunked or guild.get_member(user_id) is not None

    async def command_hash(self, guild: discord.abc.Snowflake | None) -> str:
        """The digest of what ``tree.sync`` would send: the translated payloads, so a changed
        translation (a name or description in any language) is synced too."""
        translator = self.tree.translator
        commands = self.tree.get_commands(guild=guild)
        payload = [await c.get_translated_payload(self.tree, translator) if translator
                   else c.to_dict(self.tree) for c in commands]
        blob = json.dumps(payload, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()

    async def sync_commands(self) -> bool:
        """Sync the command tree when it differs from the last one synced (hash in the db)."""
        assert self.db is not None
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id \
            else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        key = f"command_hash:{self.application_id}:{guild.id if guild else 'global'}"
        digest = await self.command_hash(guild)
        if await self.db.guilds.meta(key) == digest:
            log.info("slash commands unchanged: not syncing")
            return False
        await self.tree.sync(guild=guild)
        await self.db.guilds.set_meta(key, digest)
        log.info("slash commands synced %s", f"to guild {guild.id}" if guild else "globally")
        return True

    async def on_ready(self) -> None:
        log.info("ready as %s in %d server(s)", self.user, len(self.guilds))
        # The language each server's locale gives, for the pages other processes serve.
        await self.locales.learn(self.guilds)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server back after an outage (those of the start are on_ready's, all at once)."""
        if self.is_ready():
            await self.locales.learn([guild])

    async def on_guild_join(self, guild: discord.Guild) -> None:
        if self.is_ready():
            await self.locales.learn([guild])

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        """Its preferred locale may have changed (Server Settings > Community): recorded if
        so (a name changed is no write)."""
        self.locales.note(after)

    async def on_app_command_completion(self, interaction: discord.Interaction[Any],
                                        command: app_commands.Command[Any, ..., Any] |
                                        app_commands.ContextMenu) -> None:
        """A command done: its armed answer, if it has not answered (a bug), defers no more."""
        await SlowAnswer.closing(interaction)

    async def close(self) -> None:
        if self.web is not None:  # no request runs into what closes below
            await self.web.stop()
            self.web = None
        if self.metrics is not None:
            await self.metrics.close()
        if getattr(self, "service", None) is not None:
            await self.service.close()
        if getattr(self, "analyses", None) is not None:
            await self.analyses.close()  # before the database: a run stays resumable
            self.analysis_pool.shutdown()
            self.reviews.close()  # no try's thread waits for a review that cannot come now
        # Sends on their way stop before the HTTP session and the database close under them.
        await self.delivery.close()
        if self.router is not None:
            await self.router.close()
        await super().close()
        images.shutdown()  # no render worker outlives the bot
        await self.readers.flush()
        await self.locales.flush()
        if self.routes is not None:
            await self.routes.close()
        if self.db is not None:
            if getattr(self, "service", None) is not None:
                await self.service.stopped()  # last: nothing runs at a table after it
            await self.db.close()
            self.db = None


class ShardedBeloteBot(BeloteBot, commands.AutoShardedBot):
    """The bot running several shards in one process (discord.py's AutoShardedBot)."""


def create_bot(database_path: str | None = None, **settings: Any) -> BeloteBot:
    """A bot ready to ``start``; nothing connects until then (tests log it in to a fake)."""
    if database_path is not None:
        settings["database_path"] = str(database_path)
    checked = Settings.build(**settings)
    shards = Shards.of(checked)
    sharded = checked.shard_count is not None and len(shards.ids) > 1
    return (ShardedBeloteBot if sharded else BeloteBot)(checked)
