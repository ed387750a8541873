"""The live table page through the real bot and the fake Discord: the page and its JSON show the
public view of an open table; its event stream gives a new state within 2 s of each move and
never a card of a hand; a won table ends the stream and then answers 404, as a wrong token,
an unknown table or another server's table do; past the viewers' cap the stream says so.

Every wait on the stream is bounded (2 s); nothing sleeps: the tables run on the injected clock,
which no test here moves (no turn timer, no forced card runs out)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import create_bot
from bot.controls import button_id
from game.cards import card_str, cards_of
from game.players import RandomPlayer
from i18n import card_label
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import (
    TABLE_SEED,
    World,
    make_world,
    open_table,
    play_turn,
    seat_everyone,
    start_table,
)
from .test_web import BASE, HOSTILE, get, link_urls, site_of

MOVE_WAIT = 2.0  # a move reaches the page within this (the promise)


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path,
                table_clock: FakeClock) -> World:
    w = await make_world(fake_discord, database_path, names=("ana", HOSTILE, "cy", "dee"),
                         web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    return w


class Stream:
    """An open event stream: ``next`` reads one event, waiting at most MOVE_WAIT."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self) -> tuple[str, dict[str, Any], str]:
        async def read() -> tuple[str, dict[str, Any], str]:
            name, data = "", ""
            while True:
                line = (await self.response.content.readline()).decode()
                assert line, "the stream ended"
                line = line.rstrip("\n")
                if not line:
                    if data:
                        return name, json.loads(data), data
                    continue
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    data += line[6:]
        return await asyncio.wait_for(read(), MOVE_WAIT)


@asynccontextmanager
async def stream(w: World, path: str) -> AsyncIterator[Stream]:
    async with aiohttp.ClientSession() as s, \
            s.get(f"http://127.0.0.1:{w.bot.web.port}{path}") as r:
        assert r.status == 200, await r.text()
        assert r.headers["Content-Type"].startswith("text/event-stream")
        assert r.headers["Cache-Control"] == "no-store"
        yield Stream(r)


def hidden(w: World, table_id: int) -> list[str]:
    """How every card still in a hand would be written in an event: its code and its label."""
    deal = w.bot.service.live[table_id].match.deal
    cards = [c for hand in deal.hands for c in cards_of(hand)]
    assert len(cards) > 0
    return [f'"{card_str(c)}"' for c in cards] + [card_label(c) for c in cards]


async def test_the_stream_follows_each_move_within_2_s_and_never_shows_a_hand(
        world: World) -> None:
    table_id, _ = await start_table(world, "classic")
    root = await site_of(world)
    live = world.bot.service.live[table_id]
    status, html, headers, _ = await get(world, f"{root}table/{table_id}")
    assert status == 200 and headers["Cache-Control"] == "no-store"
    assert f"Table #{table_id}" in html and "ana" in html and "South: ana" in html
    assert HOSTILE not in html and "&lt;script&gt;" in html
    assert 'src="/static/js/live.js' in html and "Deal 1" in html
    # The script is kept a day: its address changes with what it is.
    script = re.findall(r'<script src="(/static/js/live\.js\?v=[0-9a-f]+)"', html)
    assert len(script) == 1
    status, _, headers, code = await get(world, script[0])
    assert status == 200 and "max-age=86400" in headers["Cache-Control"]
    assert script[0].endswith("?v=" + hashlib.sha256(code).hexdigest()[:10])
    for card in hidden(world, table_id):
        assert card not in html
    rng = RandomPlayer(5)
    async with stream(world, f"{root}table/{table_id}/events") as events:
        name, first, raw = await events.next()
        assert name == "state" and first["state"]["seq"] == live.seq
        assert first["state"]["to_act"] == live.match.to_act
        seen = [first["state"]["seq"]]
        for _ in range(24):  # the bidding and three tricks
            answer = await play_turn(world, table_id, rng)
            assert answer.callback_type == 7, answer.text
            name, event, raw = await events.next()  # within 2 s of the click's answer
            state = event["state"]
            assert name == "state" and state["seq"] == live.seq > seen[-1]
            seen.append(state["seq"])
            assert state["to_act"] == live.match.to_act
            for card in hidden(world, table_id):
                assert card not in raw, card
            assert HOSTILE not in event["html"]
        # The cards on the table are there: the trick (or the last one taken) and the score.
        assert state["trick"] or state["last_trick"]
        shown = state["trick"] or state["last_trick"]["cards"]
        assert all(c["label"] in event["html"] for c in shown)
        assert state["contract"] is not None and "Contract:" in event["html"]

    token = root.split("/")[2]
    status, _, headers, body = await get(world, f"/api/v1/{token}/table/{table_id}")
    assert status == 200 and headers["Cache-Control"] == "no-store"
    api = json.loads(body)
    assert api["seq"] == live.seq and api["status"] == "playing"
    assert [s["name"] for s in api["seats"]] == ["ana", HOSTILE, "cy", "dee"]
    assert api["scores"] == list(live.match.totals)
    for card in hidden(world, table_id):
        assert card not in body.decode()


async def test_a_won_table_ends_its_stream_then_answers_404(world: World) -> None:
    table_id, _ = await start_table(world, "classic", target=1)
    root = await site_of(world)
    token = root.split("/")[2]
    rng = RandomPlayer(3)
    async with stream(world, f"{root}table/{table_id}/events") as events:
        name, _, _ = await events.next()
        assert name == "state"
        while table_id in world.bot.service.live:
            assert (await play_turn(world, table_id, rng)).callback_type == 7
            name, event, _ = await events.next()
            if name == "end":
                break
        assert name == "end" and event["state"]["status"] == "over"
        assert event["state"]["winner"] in (0, 1) and "win the match" in event["html"]
        assert await events.response.content.read() == b""  # the stream ended
    for path in (f"{root}table/{table_id}", f"{root}table/{table_id}/events",
                 f"/api/v1/{token}/table/{table_id}"):
        assert (await get(world, path))[:2] == (404, "404"), path


async def test_wrong_tokens_unknown_or_other_servers_tables_are_404(
        world: World, fake_discord: FakeDiscord) -> None:
    table_id, _ = await open_table(world, world.members[0])
    root = await site_of(world)
    token = root.split("/")[2]
    assert (await get(world, f"{root}table/{table_id}"))[0] == 200  # a lobby has its page
    # Another server's table, under this server's token.
    other = fake_discord.add_guild("Elsewhere")
    channel = other.add_text_channel("belote")
    host = other.add_member("zed")
    opened = await world.fake.slash(world.bot, host, channel, "belote new")
    assert opened.callback_type == 5, opened.text
    theirs = world.bot.service.table_of(other.id, host.id)
    assert theirs is not None
    for bad in (f"/s/{'A' * 22}/table/{table_id}", f"{root}table/{table_id + 999}",
                f"{root}table/{theirs.id}", f"{root}table/{theirs.id}/events",
                f"{root}table/0", f"{root}table/x1", f"{root}table/{'9' * 30}",
                f"/api/v1/{token}/table/{theirs.id}", f"/api/v1/{'A' * 22}/table/{table_id}",
                f"/s/{'A' * 22}/table/{table_id}/events"):
        assert (await get(world, bad))[:2] == (404, "404"), bad


async def test_past_the_viewers_cap_the_stream_says_so_and_a_place_frees_after_leaving(
        world: World) -> None:
    """A viewer who went away is noticed at the next write to them (the next move, or the
    keep-alive), and their place is free again."""
    table_id, _ = await start_table(world, "classic")
    root = await site_of(world)
    feed = world.bot.live_feed
    feed.per_table = 1
    path = f"{root}table/{table_id}/events"
    async with stream(world, path) as events:
        await events.next()
        status, text, headers, _ = await get(world, path)
        assert status == 503 and "Too many people are watching" in text
        assert headers["Retry-After"] == "60"
    assert feed.watching(table_id) == 1
    assert (await play_turn(world, table_id, RandomPlayer(1))).callback_type == 7
    await world.fake.settle()
    assert feed.watching(table_id) == 0
    async with stream(world, path) as events:
        assert (await events.next())[0] == "state"


async def test_a_french_server_has_its_live_page_in_french(fake_discord: FakeDiscord,
                                                           database_path: Path,
                                                           table_clock: FakeClock) -> None:
    w = await make_world(fake_discord, database_path, locale="fr", web_port=0,
                         web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    table_id, _ = await start_table(w, "classic")
    root = await site_of(w)
    status, html, _, _ = await get(w, f"{root}table/{table_id}")
    assert status == 200 and '<html lang="fr">' in html
    assert f"Table n°\u00a0{table_id}" in html and "Donne 1" in html and "Sud\u00a0: ana" in html
    assert "Belote classique" in html


async def test_the_table_message_links_to_its_page_and_one_posted_before_still_works(
        fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock) -> None:
    """A table posted by a bot without the link (no WEB_BASE_URL, as before this page
    existed): after a restart with it, the old message's buttons work, and its next edit
    carries the link to the live page."""
    w = await make_world(fake_discord, database_path, web_port=0)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    table_id, lobby = await open_table(w, w.members[0])
    assert link_urls(w.fake.message(lobby.id)) == []
    await w.fake.disconnect(w.bot)
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0,
                                   table_seed=TABLE_SEED, web_port=0, web_base_url=BASE)
    await w.fake.settle()
    await seat_everyone(w, table_id, lobby, w.members[:4])  # the old message's buttons
    root = BASE + await site_of(w)
    page = f"{root}table/{table_id}"
    assert link_urls(w.fake.message(lobby.id)) == [page]
    started = await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    assert started.callback_type == 7, started.text
    await w.fake.settle()
    message = w.fake.message(lobby.id)
    assert link_urls(message) == [page]
    assert any(c.get("custom_id") == button_id("hand", table_id)
               for row in message.components for c in row["components"])
    assert (await get(w, page.removeprefix(BASE)))[0] == 200
    assert (await play_turn(w, table_id, RandomPlayer(2))).callback_type == 7
