"""The bot's web server (web/): started in the bot's setup_hook when ``WEB_PORT`` is set, with
the operators' routes (health, readiness, metrics); the web pages add theirs here too."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry

from web import WebServer
from web.ops import add_ops_routes

if TYPE_CHECKING:
    from .bot import BeloteBot

log = logging.getLogger(__name__)


class WebUnavailable(RuntimeError):
    """The web server could not listen where it was asked (a port in use, say)."""


async def start_web(bot: BeloteBot) -> WebServer | None:
    settings = bot.settings
    if settings.web_port is None:
        return None
    server = WebServer(settings.web_port, host=settings.web_host,
                       base_url=settings.web_base_url)
    registry = bot.metrics.registry if bot.metrics is not None else CollectorRegistry()
    add_ops_routes(server, bot.health.problems, registry)
    try:
        await server.start()
    except OSError as e:
        raise WebUnavailable(f"cannot listen on {settings.web_host}:{settings.web_port} "
                             f"(WEB_HOST, WEB_PORT): {e.strerror or e}") from None
    if bot.metrics is not None:
        bot.metrics.start()
    log.info("web server on http://%s:%d (/healthz, /readyz, /metrics)", settings.web_host,
             server.port)
    return server
