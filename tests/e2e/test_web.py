"""The web pages through the real bot and the fake Discord: after a match, /belote config gives
moderators the server's address; the board page and the API list what /belote leaderboard shows
in the same order; the player and match pages show the stats and every deal's sheet; a wrong
token or id is 404 and nothing else; a renewed token kills the old links; a hostile name is
text; a French server's pages are in French; every answer carries the security headers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, play_out, start_one_deal_table
from .test_stats import played

HOSTILE = "<script>alert(1)</script>"
BASE = "http://pages.example"
LINK = re.compile(re.escape(BASE) + r"(/s/[A-Za-z0-9_-]{22}/)")


async def get(w: World, path: str) -> tuple[int, str, dict[str, str], bytes]:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as s, \
            s.get(f"http://127.0.0.1:{w.bot.web.port}{path}") as r:
        body = await r.read()
        return r.status, body.decode(errors="replace"), dict(r.headers), body


async def site_of(w: World, *, renew: bool = False) -> str:
    mod = w.members[-1]
    options = {"renew_web_link": True} if renew else {}
    r = await w.fake.slash(w.bot, mod, w.channel, "belote config", **options)
    assert r.ephemeral
    found = LINK.search(r.text)
    assert found is not None, r.text
    return found.group(1)


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path) -> World:
    w = await make_world(fake_discord, database_path, names=("ana", HOSTILE, "cy", "dee"),
                         web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    return w


def board_ids(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^\d+\. .*?<@(\d+)>", text, re.M)]


async def test_the_board_page_shows_the_leaderboard_in_its_order_with_names_as_text(
        world: World) -> None:
    table_id = await played(world, target=1)
    root = await site_of(world)
    board = await world.fake.slash(world.bot, world.members[0], world.channel,
                                   "belote leaderboard")
    order = board_ids(board.text)
    assert len(order) == 4
    status, html, headers, _ = await get(world, root)
    assert status == 200
    assert [int(u) for u in re.findall(r'/player/(\d+)\?', html)] == order
    assert HOSTILE not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"].startswith("private")
    assert '<html lang="en">' in html and "Leaderboards" in html
    assert 'href="/static/site.css' in html and "http" not in html.replace(BASE, "")
    status, css, headers, _ = await get(world, "/static/site.css?v=1")
    assert status == 200 and "overflow-wrap" in css and "public" in headers["Cache-Control"]

    token = root.split("/")[2]
    status, _, _, body = await get(world, f"/api/v1/{token}/boards")
    assert status == 200
    api = json.loads(body)
    assert [int(r["user_id"]) for r in api["rows"]] == order
    assert HOSTILE in [r["name"] for r in api["rows"]]  # JSON carries the name as it is

    hostile = world.members[1].id
    status, html, _, _ = await get(world, f"{root}player/{hostile}")
    assert status == 200 and "Matches: 1" in html and HOSTILE not in html
    assert f"/match/{table_id}" in html and "<svg" in html

    status, html, _, _ = await get(world, f"{root}match/{table_id}")
    assert status == 200 and HOSTILE not in html
    deals = re.findall(rf'<img src="[^"]*/match/{table_id}/deal/(\d+)\.png"', html)
    assert deals and deals[0] == "1"
    # Each sheet opens alone (on a phone its figures are too small to read in the page).
    for n in deals:
        sheet = f"{root}match/{table_id}/deal/{n}.png"
        assert f'<a class="sheet" href="{sheet}"><img src="{sheet}"' in html
    status, _, headers, png = await get(world, f"{root}match/{table_id}/deal/1.png")
    assert status == 200 and png.startswith(b"\x89PNG") and headers["Content-Type"] == "image/png"
    status, _, _, body = await get(world, f"/api/v1/{token}/match/{table_id}")
    assert status == 200 and json.loads(body)["record"]["deals"]


async def test_a_wrong_token_or_id_is_404_and_a_renewed_token_kills_the_old_links(
        world: World) -> None:
    table_id = await played(world, target=1)
    root = await site_of(world)
    token = root.split("/")[2]
    wrong = ("A" * 22, "short", token[:-1] + ("B" if token[-1] != "B" else "C"))
    for bad in (*(f"/s/{t}/" for t in wrong), f"{root}match/{table_id + 999}",
                f"{root}match/99999999999999999999999", f"{root}player/12345",
                f"{root}?variant=chess", f"{root}?page=0", f"{root}match/{table_id}/deal/99.png",
                f"/api/v1/{'A' * 22}/boards", "/s/", "/nothing"):
        status, text, headers, _ = await get(world, bad)
        assert (status, text) == (404, "404"), bad
        assert headers["X-Content-Type-Options"] == "nosniff"
    new = await site_of(world, renew=True)
    assert new != root
    assert (await get(world, root))[:2] == (404, "404")
    assert (await get(world, new))[0] == 200
    assert await site_of(world) == new  # shown again: the same, until renewed


async def test_a_french_server_has_its_pages_in_french(fake_discord: FakeDiscord,
                                                       database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, locale="fr", web_port=0,
                         web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    table_id = await played(w, target=1)
    root = await site_of(w)
    status, html, _, _ = await get(w, root)
    assert status == 200 and '<html lang="fr">' in html and "Classements" in html
    assert "Belote classique" in html and "Cote" in html
    status, html, _, _ = await get(w, f"{root}match/{table_id}")
    assert status == 200 and f"Partie n°\u00a0{table_id}" in html and "Donne 1" in html


async def test_config_says_so_when_the_bot_serves_no_pages(world: World,
                                                           fake_discord: FakeDiscord,
                                                           database_path: Path) -> None:
    await fake_discord.disconnect(world.bot)
    w = await make_world(fake_discord, tmp_db(database_path))
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await w.fake.slash(w.bot, mod, w.channel, "belote config")
    assert "serves no web pages" in r.text
    r = await w.fake.slash(w.bot, mod, w.channel, "belote config", renew_web_link=True)
    assert "serves no web pages" in r.text


def tmp_db(path: Path) -> Path:
    return path.with_name("other.sqlite3")


def link_urls(message: object) -> list[str]:
    components = getattr(message, "components", [])
    return [c["url"] for row in components for c in row.get("components", [])
            if c.get("style") == 5]


async def test_leaderboard_stats_history_and_replay_link_to_their_pages(world: World) -> None:
    table_id = await played(world, target=1)
    root = BASE + await site_of(world)
    ana = world.members[0]
    board = await world.fake.slash(world.bot, ana, world.channel, "belote leaderboard")
    assert link_urls(board.messages[-1]) == [
        f"{root}?variant=classic&period=all&pairs=0&page=1"]
    stats = await world.fake.slash(world.bot, ana, world.channel, "belote stats")
    assert link_urls(stats.messages[-1]) == [f"{root}player/{ana.id}?variant=classic"]
    history = await world.fake.slash(world.bot, ana, world.channel, "belote history")
    assert link_urls(history.messages[-1]) == [f"{root}player/{ana.id}"]
    replay = await world.fake.slash(world.bot, ana, world.channel, "belote replay",
                                    match=table_id)
    assert link_urls(replay.messages[-1]) == [f"{root}match/{table_id}#deal-1"]
    for url in (*link_urls(board.messages[-1]), *link_urls(replay.messages[-1])):
        assert (await get(world, url.removeprefix(BASE)))[0] == 200
    # The other buttons still work beside the link.
    opened = await world.fake.click(world.bot, world.members[1], history.messages[-1],
                                    f"rk:rp:{table_id}:0")
    assert f"**Match #{table_id}**" in opened.text


async def test_without_a_base_url_messages_carry_no_link(fake_discord: FakeDiscord,
                                                         database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, web_port=0)
    await played(w, target=1)
    board = await w.fake.slash(w.bot, w.members[0], w.channel, "belote leaderboard")
    assert link_urls(board.messages[-1]) == []


async def test_the_player_page_and_its_json_know_the_same_players(world: World) -> None:
    await played(world, target=1)
    root = await site_of(world)
    token = root.split("/")[2]
    ana = world.members[0].id
    for path in (f"player/{ana}", f"player/{ana}?variant=coinche"):
        assert (await get(world, root + path))[0] == 200
        status, _, _, body = await get(world, f"/api/v1/{token}/{path}")
        assert status == 200 and json.loads(body)["user_id"] == str(ana)
    assert json.loads((await get(world, f"/api/v1/{token}/player/{ana}"))[3])["matches"] == 1
    for bad in ("player/12345", f"player/{ana}?variant=chess", "player/0", "player/x"):
        assert (await get(world, root + bad))[:2] == (404, "404"), bad
        assert (await get(world, f"/api/v1/{token}/{bad}"))[:2] == (404, "404"), bad


async def test_the_player_page_says_the_matches_they_left_as_belote_stats_does(
        world: World) -> None:
    table_id = await start_one_deal_table(world)
    leaver = world.members[2]
    assert "computer" in (await world.fake.slash(world.bot, leaver, world.channel,
                                                 "belote leave")).text
    await world.fake.settle()
    assert await play_out(world, table_id) > 0
    stats = await world.fake.slash(world.bot, leaver, world.channel, "belote stats")
    assert "Matches left: 1" in stats.text
    root = await site_of(world)
    status, html, _, _ = await get(world, f"{root}player/{leaver.id}")
    assert status == 200 and "Matches left: 1" in html
    status, html, _, _ = await get(world, f"{root}player/{world.members[0].id}")
    assert status == 200 and "Matches left" not in html  # who stayed: no such line
    token = root.split("/")[2]
    assert json.loads((await get(world, f"/api/v1/{token}/player/{leaver.id}"))[3])["left"] == 1


async def test_the_bot_slows_a_flooding_address_on_its_pages_not_on_the_operators_routes(
        fake_discord: FakeDiscord, database_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit as the bot wires it (bot/web.py): the pages, their JSON and their static
    files share an address's bucket; /healthz is never slowed. The limit's clock stands still."""
    import bot.web
    from web.guard import RateLimit

    monkeypatch.setattr(bot.web, "RateLimit", lambda: RateLimit(rate=1.0, burst=3,
                                                                clock=lambda: 0.0))
    w = await make_world(fake_discord, database_path, web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    root = await site_of(w)
    token = root.split("/")[2]
    answers = [await get(w, path) for path in (root, f"/api/v1/{token}/boards",
                                               "/static/site.css", root)]
    assert [a[0] for a in answers] == [200, 200, 200, 429]
    _, text, headers, _ = answers[-1]
    assert text == "429" and headers["Retry-After"] == "1"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert all([(await get(w, "/healthz"))[0] == 200 for _ in range(5)])
