"""The bot's web server (web/): started in the bot's setup_hook when ``WEB_PORT`` is set, with
the operators' routes (health, readiness, metrics) and each server's pages (web/site.py), which
read through :class:`BotSource` what the stats commands read."""

from __future__ import annotations

import logging
from collections.abc import Container
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry

from db.analyses import DONE
from db.tables import OPEN_STATUSES, LiveMark
from service.analysis_page import sheet_analysis_of
from service.guild_settings import AUTO_LANGUAGE
from service.tables import clock as clocks
from service.tables.restore import stored_table
from service.web_links import WebLinks
from web import WebServer
from web.guard import ClientAddress, RateLimit, guard
from web.live import Feed, Poller, add_live_routes
from web.ops import add_ops_routes
from web.site import add_site_routes
from web.tournament import add_tournament_routes

from . import images
from .languages import server_language
from .live_watch import public_state, tournament_state

if TYPE_CHECKING:
    from db.analyses import AnalysedStats, PlayerCost
    from service.analysis import AnalysisRunner
    from service.records import Records, Replay
    from service.tables import LiveTable

    from .health import Health
    from .host import Host
    from .metrics import BotMetrics

log = logging.getLogger(__name__)


class WebUnavailable(RuntimeError):
    """The web server could not listen where it was asked (a port in use, say)."""


class BotSource:
    """What the pages read, from the running bot (its database opens after the server starts:
    until then every token is unknown)."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @property
    def records(self) -> Records:
        return self.bot.records

    async def guild_of(self, token: str) -> int | None:
        links = self.bot.web_links
        return None if links is None else await links.guild_of(token)

    async def language(self, guild_id: int) -> str:
        """The server's language, as its public messages speak it (bot/languages.py); a
        server this process has no guild for (another process runs it) by what that process
        recorded of its locale, and by its settings as stored now (its moderator's changes
        reach that process, not this one's cache)."""
        guild = self.bot.get_guild(guild_id)
        store = self.bot.guild_settings
        settings = await (store.get(guild_id) if guild is not None else store.stored(guild_id))
        recorded = None
        if guild is None and settings.language == AUTO_LANGUAGE:
            recorded = await self.bot.locales.recorded(guild_id)
        return server_language(settings, guild, recorded)

    def open_table(self, guild_id: int, table_id: int) -> LiveTable | None:
        """The table if it is open in this server (and this process runs it)."""
        service = getattr(self.bot, "service", None)  # none until the database is open
        live = service.live.get(table_id) if service is not None else None
        return live if live is not None and live.row.guild_id == guild_id else None

    # ---- the tables another process runs (web/live.py's StoredTables) ----------------------
    def elsewhere(self, guild_id: int) -> bool:
        return self.bot.db is not None and not self.bot.sharding.owns(guild_id)

    async def mark(self, table_id: int) -> LiveMark | None:
        return None if self.bot.db is None else await self.bot.db.tables.live_mark(table_id)

    @staticmethod
    def is_open(mark: LiveMark) -> bool:
        return mark.status in OPEN_STATUSES

    async def load(self, guild_id: int, table_id: int, mark: LiveMark) -> LiveTable | None:
        """The table rebuilt from the database as a restart rebuilds it (its process writes
        every action there), if it is this server's."""
        if self.bot.db is None:
            return None
        live = await stored_table(self.bot.db, table_id, mark)
        return live if live is not None and live.row.guild_id == guild_id else None

    async def tournament(self, guild_id: int, tournament_id: int,
                         language: str) -> dict[str, Any] | None:
        runner = getattr(self.bot, "tournaments", None)  # none until the database is open
        if runner is None:
            return None
        # The tables in play: this process's, or (another process runs the server) the
        # database's, whose live pages this process serves too (web/live.py's Poller).
        db = self.bot.db
        open_tables: Container[int] = await db.tables.open_ids(guild_id) \
            if db is not None and self.elsewhere(guild_id) else self.bot.service.live
        return await tournament_state(runner, open_tables, guild_id, tournament_id, language)

    async def analysis(self, table_id: int
                       ) -> tuple[dict[int, dict[str, Any]], list[PlayerCost]]:
        """A match's stored analysis (empty until it is done: service/analysis.py)."""
        runner: AnalysisRunner | None = getattr(self.bot, "analyses", None)  # once the db is open
        if runner is None:
            return {}, []
        progress = await runner.progress(table_id)
        if progress is None or progress.state != DONE:
            return {}, []
        return await runner.stored(table_id)

    async def analysed(self, table_id: int) -> bool:
        runner: AnalysisRunner | None = getattr(self.bot, "analyses", None)  # once the db is open
        if runner is None:
            return False
        progress = await runner.progress(table_id)
        return progress is not None and progress.state == DONE

    async def member_analysis(self, guild_id: int, user_id: int, variant: str
                              ) -> AnalysedStats:
        """As /belote stats reads it (the page is asked for once the database is open)."""
        return await self.bot.analyses.member_stats(guild_id, user_id, variant)

    async def podiums(self, guild_id: int, variant: str, user_id: int) -> tuple[int, int]:
        return await self.bot.tournaments.repo.podiums(guild_id, variant, user_id)

    async def deal_sheet(self, replay: Replay, deal: int, language: str,
                         analysed: bool = False) -> bytes:
        runner: AnalysisRunner | None = getattr(self.bot, "analyses", None)  # once the db is open
        analysis = await sheet_analysis_of(runner, replay, deal) \
            if analysed and runner is not None else None
        file = await images.deal_sheet_image(replay.match.results[deal - 1],
                                             replay.match.variant, replay.players, deal,
                                             language, analysis)
        data: bytes = file.fp.read()
        return data


def web_links(bot: Host) -> WebLinks | None:
    """The server tokens' service, once the database is open and when pages are served."""
    if bot.settings.web_port is None or bot.db is None:
        return None
    return WebLinks(bot.db, bot.settings.web_base_url)


async def start_web(bot: Host, health: Health, metrics: BotMetrics | None
                    ) -> WebServer | None:
    settings = bot.settings
    if settings.web_port is None:
        return None
    server = WebServer(settings.web_port, host=settings.web_host,
                       base_url=settings.web_base_url)
    registry = metrics.registry if metrics is not None else CollectorRegistry()
    add_ops_routes(server, health.problems, registry)
    server.app.middlewares.append(guard(RateLimit(), ("/s/", "/api/", "/static/"),
                                        ClientAddress(settings.web_trusted_proxies)))
    source = BotSource(bot)
    bot.web_site = add_site_routes(server, source)
    # The live tables' viewers: the table service tells it each change (bot/live_watch.py).
    bot.live_feed = Feed(public_state)
    # With several processes, the tables the others run are read from the database and
    # polled while somebody watches them (web/live.py's Poller), on the tables' clock.
    bot.live_poller = None if bot.sharding.whole else \
        Poller(bot.live_feed, source, clocks.system_clock())
    add_live_routes(server, source, bot.live_feed, bot.live_poller)
    add_tournament_routes(server, source)
    try:
        await server.start()
    except OSError as e:
        raise WebUnavailable(f"cannot listen on {settings.web_host}:{settings.web_port} "
                             f"(WEB_HOST, WEB_PORT): {e.strerror or e}") from None
    if metrics is not None:
        metrics.start()
    log.info("web server on http://%s:%d (/healthz, /readyz, /metrics)", settings.web_host,
             server.port)
    return server
