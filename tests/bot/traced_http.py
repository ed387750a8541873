"""A stand-in for discord.py's HTTPClient that sends each call the way discord.py's aiohttp
session does as far as the budget can tell: through the request hooks of ``http_trace`` (the
ones ``bot.budget.meter`` installs), one attempt per call, with an answer the test chooses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import aiohttp
from discord.http import Route
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL


class Answer:
    """What the stand-in's Discord answers: a status and headers (a 429's, say)."""

    def __init__(self, status: int = 200, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.headers = CIMultiDictProxy(CIMultiDict(headers or {}))


class TracedHTTP:
    def __init__(self, answer: Answer | None = None, error: BaseException | None = None,
                 *, drop: OSError | None = None,
                 clock: Callable[[], float] | None = None, round_trip: float = 0.0) -> None:
        self.http_trace: aiohttp.TraceConfig | None = None
        self.answer = answer or Answer()
        self.error = error  # raised after the answer, as discord.py would for it
        self.drop = drop  # the connection fails before any answer: raised instead of one
        # With a settable clock (a test's ``now``), each call's answer comes this much later.
        self.clock, self.round_trip = clock, round_trip
        self.sent: list[str] = []  # route templates, in the order they left
        self.bodies: list[Any] = []  # their JSON bodies

    async def request(self, route: Route, **kwargs: Any) -> Any:
        trace, url = self.http_trace, URL(route.url)
        session = cast(aiohttp.ClientSession, None)  # the hooks do not look at it
        if trace is not None:
            context = trace.trace_config_ctx()
            for start in trace.on_request_start:
                await start(session, context, aiohttp.TraceRequestStartParams(
                    route.method, url, CIMultiDict[str]()))
        self.sent.append(route.path)
        self.bodies.append(kwargs.get("json"))
        if self.clock is not None:
            setattr(self.clock, "now", self.clock() + self.round_trip)  # noqa: B010
        if self.drop is not None:
            if trace is not None:
                for failed in trace.on_request_exception:
                    await failed(session, context, aiohttp.TraceRequestExceptionParams(
                        route.method, url, CIMultiDict[str](), self.drop))
            raise self.drop
        if trace is not None:
            response = cast(aiohttp.ClientResponse, self.answer)
            for end in trace.on_request_end:
                await end(session, context, aiohttp.TraceRequestEndParams(
                    route.method, url, CIMultiDict[str](), response))
        if self.error is not None:
            raise self.error
        return {}
