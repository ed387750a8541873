"""A season's board on the web (``?period=s<number>``): the same lines as /belote leaderboard
season:, in its order, linked from that message; a season that is not there is 404; the JSON
boards answer the same."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.clocks import DateClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world
from .test_seasons import NOVEMBER, OCTOBER, board_lines, record
from .test_seasons import clock as clock  # the fixture, asked for by name
from .test_web import BASE, get, link_urls, site_of


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: DateClock) -> World:
    w = await make_world(fake_discord, database_path,
                         names=("ana", "bo", "cy", "dee", "eve", "fay"), web_port=0,
                         web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    return w


async def test_a_season_board_page_lists_the_season_leaderboard(world: World) -> None:
    w = world
    ana, bo, cy, dee, eve, fay = w.members[:6]
    for _ in range(3):
        await record(w, OCTOBER, (eve, fay), (bo, dee))
    for _ in range(3):
        await record(w, NOVEMBER, (ana, cy), (bo, dee))
    await record(w, NOVEMBER, (eve, ana), (fay, bo))
    root = await site_of(w)
    r = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard", season="current")
    order = [int(u) for u in re.findall(r"<@(\d+)>", "\n".join(board_lines(r.text)))]
    assert order == [ana.id, cy.id, dee.id, bo.id]
    assert link_urls(r.messages[-1]) == [
        f"{BASE}{root}?variant=classic&period=s1&pairs=0&page=1"]

    status, html, _, _ = await get(w, f"{root}?variant=classic&period=s1&pairs=0&page=1")
    assert status == 200
    assert [int(u) for u in re.findall(r"/player/(\d+)\?", html)] == order
    assert "Classic Belote leaderboard: season 1" in html
    assert "Ranked from 3 rated matches in the season" in html
    assert 'period=s1&amp;pairs=0&amp;page=1" class="on"' in html  # the season is a choice
    assert "+" in html.split("<tbody>")[1]  # gains, signed
    status, html, _, _ = await get(w, f"{root}?period=s1&pairs=1")
    assert status == 200 and len(re.findall(r"<tr><td", html)) == 2  # ana & cy, bo & dee

    token = root.split("/")[2]
    status, _, _, body = await get(w, f"/api/v1/{token}/boards?period=s1")
    assert status == 200
    api = json.loads(body)
    assert api["period"] == "s1" and [int(x["user_id"]) for x in api["rows"]] == order
    for bad in ("?period=s2", "?period=s0", "?period=s", "?period=s1x", "?period=S1"):
        assert (await get(w, root + bad))[:2] == (404, "404"), bad
