"""The per-address limit of the web pages: a burst is answered, the next request of that
address waits (429 with Retry-After), another address is not slowed, and time refills it."""

from __future__ import annotations

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from web.guard import RateLimit, guard


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_waiting_then_refilled() -> None:
    clock = Clock()
    limit = RateLimit(rate=2.0, burst=3, clock=clock)
    assert [limit.wait("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.wait("a") == 0.5
    assert limit.wait("b") == 0.0  # another address is not slowed
    clock.now = 0.5
    assert limit.wait("a") == 0.0
    assert limit.wait("a") > 0


async def test_a_flood_is_answered_429_and_the_routes_of_operators_are_not_limited() -> None:
    clock = Clock()
    app = web.Application(middlewares=[guard(RateLimit(rate=1.0, burst=2, clock=clock),
                                             ("/s/",))])

    async def hello(request: web.Request) -> web.Response:
        return web.Response(text="hi")

    app.router.add_get("/s/x", hello)
    app.router.add_get("/healthz", hello)
    async with TestClient(TestServer(app)) as client:
        statuses = [(await client.get("/s/x")).status for _ in range(3)]
        assert statuses == [200, 200, 429]
        r = await client.get("/s/x")
        assert r.status == 429 and r.headers["Retry-After"] == "1"
        assert r.headers["X-Frame-Options"] == "DENY"
        assert all([(await client.get("/healthz")).status == 200 for _ in range(5)])
        clock.now = 1.0
        assert (await client.get("/s/x")).status == 200
