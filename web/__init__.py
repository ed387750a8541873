"""The bot's HTTP side: one aiohttp app, served inside the bot's process when ``WEB_PORT`` is
set. ``server.WebServer`` holds the app and its routes; each part of the site adds its own
routes before the server starts (``ops``: health, readiness and metrics)."""

from .server import WebServer

__all__ = ["WebServer"]
