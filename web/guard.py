"""What every response of the web pages carries, and the per-address limit.

Security headers: a strict Content-Security-Policy (only the bot's own scripts, styles and
images: the pages load nothing from elsewhere), no framing, no MIME sniffing, and no Referer
(a page's address holds the server's token: a link followed out must not hand it over).
A client that floods is slowed: each address has a bucket of ``burst`` requests refilled at
``rate`` a second; past it the answer is 429 with Retry-After, and nothing is read. Behind
reverse proxies the operator names (WEB_TRUSTED_PROXIES), the client is the address the nearest
untrusted hop is seen from in X-Forwarded-For (each proxy appends the address it was reached
from, so only the entries the trusted proxies wrote are believed: a client cannot pick its own).
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Final

from aiohttp import web
from aiohttp.typedefs import Middleware

from .server import Handler

SECURITY: Final = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self';"
                               " img-src 'self' data:; connect-src 'self'; base-uri 'none';"
                               " form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
# Addresses remembered at most (the oldest forgotten first): a flood from many addresses
# cannot grow the table without bound.
KEPT: Final = 10_000


class RateLimit:
    """Token buckets by client address, with an injectable clock (tests)."""

    def __init__(self, rate: float = 10.0, burst: int = 40,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def wait(self, address: str) -> float:
        """0 when ``address`` may be answered now (its request is counted), else the seconds
        until it may."""
        now = self.clock()
        level, then = self._buckets.pop(address, (float(self.burst), now))
        level = min(float(self.burst), level + (now - then) * self.rate)
        if level >= 1.0:
            self._buckets[address] = (level - 1.0, now)
            wait = 0.0
        else:
            self._buckets[address] = (level, now)
            wait = (1.0 - level) / self.rate
        while len(self._buckets) > KEPT:
            self._buckets.popitem(last=False)
        return wait


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ClientAddress:
    """The address a request is limited by: its peer's, or behind trusted proxies the one the
    nearest of them saw (the rightmost X-Forwarded-For entry that is not a trusted proxy)."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.trusted: tuple[Network, ...] = tuple(ipaddress.ip_network(n, strict=False)
                                                  for n in trusted)

    def _is_trusted(self, address: str) -> bool:
        try:
            return self._trusts(ipaddress.ip_address(address))
        except ValueError:
            return False

    def _trusts(self, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped  # a dual-stack socket's view of an IPv4 peer
        return any(ip in net for net in self.trusted)

    def __call__(self, request: web.Request) -> str:
        peer = request.remote or "?"
        if not self.trusted or not self._is_trusted(peer):
            return peer
        hops = [h.strip() for value in request.headers.getall("X-Forwarded-For", [])
                for h in value.split(",")]
        client = peer
        for hop in reversed(hops):
            try:
                ip = ipaddress.ip_address(hop)
            except ValueError:
                # Not an address a proxy writes: nothing left of it can be believed.
                break
            client = str(ip)  # its normal form: one bucket a client however it is written
            if not self._trusts(ip):
                break
        return client


def guard(limit: RateLimit, prefixes: tuple[str, ...],
          client: ClientAddress | None = None) -> Middleware:
    """The middleware: the limit for paths under ``prefixes`` (the pages, not the operators'
    routes, which a scraper polls) by ``client``'s address of each request (default: its
    peer's), the security headers for every answer."""
    address_of = client or ClientAddress()

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith(prefixes):
            wait = limit.wait(address_of(request))
            if wait > 0:
                raise web.HTTPTooManyRequests(
                    text="429", headers={"Retry-After": str(max(1, round(wait))), **SECURITY,
                                         "Cache-Control": "no-store"})
        try:
            response = await handler(request)
        except web.HTTPException as e:
            # A 404 says nothing else: the same short body whatever was wrong.
            if e.status == 404:
                raise web.HTTPNotFound(text="404", headers={**SECURITY,
                                                            "Cache-Control": "no-store"}) from None
            for key, value in SECURITY.items():
                e.headers.setdefault(key, value)
            raise
        if not response.prepared:  # a stream (events) sets its own before it starts
            for key, value in SECURITY.items():
                response.headers.setdefault(key, value)
        return response

    return middleware
