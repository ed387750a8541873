"""The per-address limit of the web pages: a burst is answered, the next request of that
address waits (429 with Retry-After), another address is not slowed, and time refills it."""

from __future__ import annotations

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from web.guard import ClientAddress, RateLimit, guard


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


def _request(peer: str, forwarded: list[str] | None = None) -> web.Request:
    from aiohttp.test_utils import make_mocked_request
    from multidict import CIMultiDict

    headers = CIMultiDict([("X-Forwarded-For", v) for v in forwarded or []])
    request = make_mocked_request("GET", "/s/x", headers=headers)
    return request.clone(remote=peer)


def test_behind_a_trusted_proxy_the_client_is_the_nearest_untrusted_hop() -> None:
    client = ClientAddress(["10.0.0.0/8", "127.0.0.1"])
    # A client's own X-Forwarded-For is not believed: the proxy appended the address it saw.
    assert client(_request("10.0.0.5", ["6.6.6.6, 203.0.113.7"])) == "203.0.113.7"
    # Two proxies in a row: the second's entry names the first, which is trusted.
    assert client(_request("127.0.0.1", ["203.0.113.7, 10.1.2.3"])) == "203.0.113.7"
    assert client(_request("127.0.0.1", ["203.0.113.7", "10.1.2.3"])) == "203.0.113.7"
    # A dual-stack socket sees the IPv4 proxy as a mapped IPv6 address.
    assert client(_request("::ffff:127.0.0.1", ["198.51.100.2"])) == "198.51.100.2"
    # One client, one bucket, however a proxy writes its address.
    assert client(_request("10.0.0.5", ["2001:0DB8:0::1"])) == "2001:db8::1"
    # No header, or one that is not addresses: the proxy's own address (all its clients share).
    assert client(_request("10.0.0.5")) == "10.0.0.5"
    assert client(_request("10.0.0.5", ["unknown"])) == "10.0.0.5"
    assert client(_request("10.0.0.5", ["203.0.113.7, junk"])) == "10.0.0.5"


def test_without_trusted_proxies_or_from_another_peer_the_header_is_ignored() -> None:
    assert ClientAddress()(_request("192.0.2.1", ["203.0.113.7"])) == "192.0.2.1"
    client = ClientAddress(["10.0.0.0/8"])
    assert client(_request("192.0.2.1", ["203.0.113.7"])) == "192.0.2.1"


async def test_behind_a_trusted_proxy_one_client_flooding_does_not_slow_another() -> None:
    clock = Clock()
    app = web.Application(middlewares=[guard(RateLimit(rate=1.0, burst=2, clock=clock),
                                             ("/s/",), ClientAddress(["127.0.0.1"]))])

    async def hello(request: web.Request) -> web.Response:
        return web.Response(text="hi")

    app.router.add_get("/s/x", hello)
    async with TestClient(TestServer(app)) as client:
        a = {"X-Forwarded-For": "203.0.113.7"}
        b = {"X-Forwarded-For": "198.51.100.2"}
        assert [(await client.get("/s/x", headers=a)).status for _ in range(3)] == \
            [200, 200, 429]
        assert (await client.get("/s/x", headers=b)).status == 200
        # Forging another client's address ahead of one's own changes nothing.
        forged = {"X-Forwarded-For": "198.51.100.99, 203.0.113.7"}
        assert (await client.get("/s/x", headers=forged)).status == 429
