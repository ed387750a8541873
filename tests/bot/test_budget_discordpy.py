"""The budget on discord.py's real request path: a loopback stand-in for Discord's REST API
answers a real ``discord.http.HTTPClient``, so what is counted is what discord.py sends
(its own retries after a 429 included) and a global 429 holds the bot's other calls."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from discord.http import HTTPClient, Route

from bot.budget import Budget, meter


def edit_route() -> Route:
    """A message edit (made in the test: a Route reads ``Route.BASE`` when made)."""
    return Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1,
                 message_id=2)


@dataclass
class Arrival:
    method: str
    path: str
    at: float  # time.monotonic() when it arrived


@dataclass
class API:
    """Answers each request with the next scripted answer for its path, else 200 {}."""

    arrivals: list[Arrival] = field(default_factory=list)
    script: dict[str, list[web.Response]] = field(default_factory=dict)

    async def handle(self, request: web.Request) -> web.Response:
        self.arrivals.append(Arrival(request.method, request.path, time.monotonic()))
        answers = self.script.get(request.path)
        if answers:
            return answers.pop(0)
        return web.json_response({"id": "1", "username": "bot"})

    def seen(self, path: str) -> list[Arrival]:
        return [a for a in self.arrivals if a.path == path]


def too_many(retry_after: float, *, is_global: bool) -> web.Response:
    """Discord's 429: JSON (with the bare content type discord.py compares against) and the Via
    header discord.py looks for (else it takes the 429 for Cloudflare's and gives up)."""
    return web.Response(
        status=429,
        body=json.dumps({"message": "You are being rate limited.", "retry_after": retry_after,
                         "global": is_global}).encode(),
        headers={"Content-Type": "application/json", "Via": "1.1 google",
                 "Retry-After": str(retry_after),
                 "X-RateLimit-Scope": "global" if is_global else "user"})


@pytest.fixture
async def api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[API]:
    api = API()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", api.handle)
    server = TestServer(app)
    await server.start_server()
    monkeypatch.setattr(Route, "BASE", str(server.make_url("/api/v10")))
    yield api
    await server.close()


@pytest.fixture
async def client(api: API) -> AsyncIterator[tuple[HTTPClient, Budget]]:
    budget = Budget()
    http = HTTPClient(asyncio.get_running_loop())
    meter(http, budget)
    await http.static_login("token")
    yield http, budget
    await http.close()


async def test_a_429_discord_py_sends_again_by_itself_takes_a_second_turn(
        api: API, client: tuple[HTTPClient, Budget]) -> None:
    http, budget = client
    api.script["/api/v10/channels/1/messages/2"] = [too_many(0.01, is_global=False)]
    taken = budget.taken
    await http.request(edit_route(), json={"content": "x"})
    # Discord saw two requests, and both took their turn: counted as they left.
    assert len(api.seen("/api/v10/channels/1/messages/2")) == 2
    assert budget.taken - taken == 2
    assert budget.held == 0  # a route's own 429 holds nothing else


async def test_a_global_429_holds_the_bots_other_calls_for_what_discord_asked(
        api: API, client: tuple[HTTPClient, Budget]) -> None:
    http, budget = client
    api.script["/api/v10/channels/1/messages/2"] = [too_many(0.2, is_global=True)]
    edit = asyncio.create_task(http.request(edit_route(), json={"content": "x"}))
    for _ in range(2000):  # until the 429 is in (bounded: never an endless wait)
        if budget.held:
            break
        await asyncio.sleep(0.005)
    assert budget.held == 1
    await http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=3),
                       json={"content": "y"})
    # The hold began when the 429 came back, after it reached the API: another channel's
    # post, asked for during the hold, reached it at least the 0.2 s Discord asked later.
    limited = api.seen("/api/v10/channels/1/messages/2")[0]
    other = api.seen("/api/v10/channels/3/messages")
    assert len(other) == 1 and other[0].at >= limited.at + 0.2
    await edit
    assert len(api.seen("/api/v10/channels/1/messages/2")) == 2


async def test_an_interaction_answer_goes_through_a_spent_budget(
        api: API, client: tuple[HTTPClient, Budget]) -> None:
    http, budget = client
    budget.limit = budget.taken  # spent for this second
    taken = budget.taken
    await http.request(Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                             interaction_id=5, interaction_token="t"), json={"type": 6})
    assert budget.taken == taken and budget.waited == 0  # it never waited for a turn
    assert len(api.seen("/api/v10/interactions/5/t/callback")) == 1
