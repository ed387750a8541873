"""A tournament's page through the real bot and the fake Discord: it follows the tournament from
its sign-up through each round to the final (the bracket, a link to each table in play, the
winners), its JSON says the same, its posts link to it, a wrong id or another server's is 404.
The tables run on the injected clock, which nothing moves: no turn timer runs out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, play_out
from .test_web import BASE, HOSTILE, get, link_urls, site_of

NAMES = ("ana", HOSTILE, "cy", "dee", "eve", "fay", "gus", "hal")


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path,
                table_clock: FakeClock) -> World:
    w = await make_world(fake_discord, database_path, names=NAMES, web_port=0,
                         web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    return w


async def api(w: World, token: str, tournament: int) -> dict[str, Any]:
    status, _, headers, body = await get(w, f"/api/v1/{token}/tournament/{tournament}")
    assert status == 200 and headers["Cache-Control"] == "no-store"
    state: dict[str, Any] = json.loads(body)
    return state


async def settled(w: World) -> None:
    await w.fake.settle()
    await w.bot.tournaments.settle()
    await w.fake.settle()


async def test_the_tournament_page_follows_its_rounds_to_the_final(world: World) -> None:
    fake, bot, mod = world.fake, world.bot, world.members[-1]
    root = await site_of(world)
    token = root.split("/")[2]
    page = f"{root}tournament/1"
    r = await fake.slash(bot, mod, world.channel, "belote tournament new", format="quick")
    signup = r.message
    assert signup is not None and link_urls(signup) == [BASE + page]
    status, html, _, _ = await get(world, page)
    assert status == 200 and "Quick tournament #1" in html
    assert "Sign-up is open: 0 of 8 entrants." in html and 'id="follow"' in html
    for member in world.members[:8]:
        await fake.click(bot, member, signup, "tn:join:1")
    await settled(world)
    assert link_urls(fake.message(signup.id)) == [BASE + page]  # still, with no Join button

    state = await api(world, token, 1)
    assert state["stage"] == "running" and state["tables_per_round"] == [2, 1]
    assert HOSTILE in [e["name"] for e in state["entrants"]]
    first = state["rounds"][0]["tables"]
    assert len(first) == 2 and all(t["live"] and t["winner"] is None for t in first)
    status, html, _, _ = await get(world, page)
    assert "Round 1" in html and "Round 2" in html and "Not drawn yet" in html
    assert HOSTILE not in html and "&lt;script&gt;" in html
    for t in first:  # each table in play links to its live page
        assert f'href="{root}table/{t["table"]}"' in html
        assert (await get(world, f"{root}table/{t['table']}"))[0] == 200

    versions = [state["version"]]
    for number, tables in ((1, [t["table"] for t in first]), (2, None)):
        if tables is None:
            state = await api(world, token, 1)
            tables = [t["table"] for t in state["rounds"][1]["tables"]]
            assert len(tables) == 1 and state["rounds"][1]["tables"][0]["live"]
        for table_id in tables:
            await play_out(world, table_id, seed=number)
            await settled(world)
            state = await api(world, token, 1)
            assert state["version"] != versions[-1]  # the page's script reloads on this
            versions.append(state["version"])
            done = state["rounds"][number - 1]["tables"]
            assert any(t["table"] == table_id and t["winner"] in (0, 1) and not t["live"]
                       for t in done)
    assert state["stage"] == "finished" and len(state["winners"]) == 2
    status, html, _, _ = await get(world, page)
    assert "Finished. Winners:" in html and "won by" in html
    assert 'id="follow"' not in html  # nothing changes any more: no script
    final = [m for m in fake.messages(world.channel) if "is over! Winners" in m.content][-1]
    assert link_urls(final) == [BASE + page]


async def test_a_wrong_or_another_servers_tournament_is_404(
        world: World, fake_discord: FakeDiscord) -> None:
    root = await site_of(world)
    token = root.split("/")[2]
    other = fake_discord.add_guild("Elsewhere")
    channel = other.add_text_channel("belote")
    mod = other.add_member("boss", manage_guild=True)
    r = await world.fake.slash(world.bot, mod, channel, "belote tournament new", format="quick")
    assert r.message is not None  # tournament 1, of the other server
    for bad in (f"{root}tournament/1", f"/api/v1/{token}/tournament/1", f"{root}tournament/2",
                f"{root}tournament/0", f"{root}tournament/x", f"/s/{'A' * 22}/tournament/1"):
        assert (await get(world, bad))[:2] == (404, "404"), bad


async def test_the_live_feed_hears_a_tournament_table_once_it_is_posted(world: World) -> None:
    """A tournament's table is posted in its thread after it starts: that change goes through
    the table service's listener, so the live page's feed hears it as the delivery does (it
    used to go to the delivery alone)."""
    fake, bot, mod = world.fake, world.bot, world.members[-1]
    feed = bot.live_feed
    assert feed is not None
    told: list[tuple[int, int | None]] = []
    changed = feed.changed

    def spy(table_id: int, table: Any) -> None:
        told.append((table_id, table.row.message_id))
        changed(table_id, table)

    feed.changed = spy
    signup = (await fake.slash(bot, mod, world.channel, "belote tournament new",
                               format="quick")).message
    assert signup is not None
    for member in world.members[:8]:
        await fake.click(bot, member, signup, "tn:join:1")
    await settled(world)
    tables = [t for t in bot.service.live.values() if t.tournament]
    assert len(tables) == 2
    for live in tables:
        posted = live.row.message_id
        assert posted is not None and fake.message(posted) is not None
        assert live.match is not None and live.match.to_act is not None  # nobody moved yet
        assert (live.id, posted) in told, told
