"""The one web server of the bot process: an aiohttp app on ``WEB_PORT``, no second process.

Routes are added by whoever serves pages (``add``, or ``add_routes`` with an aiohttp
RouteTableDef) before ``start``; aiohttp freezes its router once the app runs. ``start`` binds
the port (0: a free one, read back from ``port``, for tests); ``stop`` closes the listening
socket and the connections, waiting at most ``shutdown_timeout`` for requests on their way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class WebServer:
    def __init__(self, port: int, *, host: str = "127.0.0.1", base_url: str | None = None,
                 shutdown_timeout: float = 5.0) -> None:
        self.host, self.wanted_port = host, port
        # The address users reach the pages at (behind a reverse proxy, say): for links.
        self.base_url = base_url.rstrip("/") if base_url else None
        self.shutdown_timeout = shutdown_timeout
        self.app = web.Application()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    def add(self, method: str, path: str, handler: Handler) -> None:
        self.app.router.add_route(method, path, handler)

    def add_routes(self, routes: Iterable[web.AbstractRouteDef]) -> None:
        self.app.router.add_routes(routes)

    def link(self, path: str) -> str | None:
        """The public address of ``path`` (None without ``WEB_BASE_URL``)."""
        return None if self.base_url is None else self.base_url + path

    @property
    def port(self) -> int:
        """The port it listens on (the one picked when asked for 0)."""
        if self._site is not None and self._runner is not None:
            for address in self._runner.addresses:
                return int(address[1])
        return self.wanted_port

    @property
    def running(self) -> bool:
        return self._site is not None

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                               shutdown_timeout=self.shutdown_timeout)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.wanted_port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner, self._site = runner, site

    async def stop(self) -> None:
        runner, self._runner, self._site = self._runner, None, None
        if runner is not None:
            await runner.cleanup()
