"""What operators and their tools read: ``/healthz`` (the process answers), ``/readyz`` (it
can play: 200, else 503 with what is wrong) and ``/metrics`` (Prometheus's text format, from a
registry of the caller's)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from .server import WebServer

# What is wrong, in a few words each (empty: ready).
Problems = Callable[[], Awaitable[list[str]]]

NO_STORE = {"Cache-Control": "no-store"}


def add_ops_routes(server: WebServer, problems: Problems, registry: CollectorRegistry) -> None:
    async def healthz(request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"}, headers=NO_STORE)

    async def readyz(request: web.Request) -> web.Response:
        wrong = await problems()
        if wrong:
            return web.json_response({"status": "not ready", "problems": wrong}, status=503,
                                     headers=NO_STORE)
        return web.json_response({"status": "ready"}, headers=NO_STORE)

    async def metrics(request: web.Request) -> web.Response:
        # Rendered on the event loop: a few hundred lines, well under a millisecond.
        body = generate_latest(registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST,
                                                **NO_STORE})

    server.add("GET", "/healthz", healthz)
    server.add("GET", "/readyz", readyz)
    server.add("GET", "/metrics", metrics)
