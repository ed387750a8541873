"""The bot as its parts see it: the services they reach through it.

``BeloteBot`` (bot/bot.py) builds these parts (the delivery, the controls' answers, health,
metrics, the web pages' source, the click router) and they reach the services through it. They
name this class, not bot/bot.py, so that no import runs back up to the module that builds them.
Declarations only: what is ``None`` until the database is open says so.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from discord.ext import commands

if TYPE_CHECKING:
    from db import Database
    from db.tables import LiveMark
    from service.analysis import AnalysisRunner
    from service.audit import AuditLog
    from service.guild_settings import GuildSettingsStore
    from service.records import Records
    from service.seasons import SeasonKeeper
    from service.tables import LiveTable, TableService
    from service.tournaments import TournamentRunner
    from service.web_links import WebLinks
    from web.live import Feed, Poller
    from web.site import Site

    from .delivery import Delivery
    from .languages import Readers, ServerLocales
    from .ratelimit import MemberLimits
    from .settings import Settings
    from .sharding import Shards


class Host(commands.Bot):
    settings: Settings
    sharding: Shards
    readers: Readers  # each member's language, for what they alone read
    # Each server's language by its locale, recorded for the processes without its guild.
    locales: ServerLocales
    limits: MemberLimits
    delivery: Delivery
    db: Database | None  # None until setup_hook opens it
    # Built once the database is open (setup_hook):
    service: TableService
    tournaments: TournamentRunner
    guild_settings: GuildSettingsStore
    audit: AuditLog
    records: Records
    seasons: SeasonKeeper
    analyses: AnalysisRunner
    web_links: WebLinks | None  # the servers' web tokens, when pages are served
    live_feed: Feed[LiveTable] | None  # the live tables' viewers (WEB_PORT)
    # The other processes' tables watched here, read from the database (sharded, WEB_PORT).
    live_poller: Poller[LiveTable, LiveMark] | None
    web_site: Site | None  # the servers' pages (WEB_PORT): what they keep built

    def chance(self, what: str) -> random.Random:
        """A generator for one use of chance (``what``: the retry jitter, a tournament's
        draws): seeded when the bot is told to be reproducible."""
        raise NotImplementedError
