"""A player's page tells what /belote stats tells, line for line (service/stat_lines.py): after
a quick tournament played through the fake Discord to its final, with the final analysed, each
member's page in a real browser (headless Chromium) shows the command's lines in its order (the
analysed accuracy and the tournament podiums too), names as text where Discord has mentions;
the JSON API's player carries those figures.

The analysis worker runs tests/e2e/analysis_stub.py (made-up values at once); the tables run on
the injected clock, which nothing moves."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from service import analysis
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord
from tests.web.browser import PHONE, Browser

from . import analysis_stub
from .table_helpers import World, make_world, play_out
from .test_web import BASE, HOSTILE, get, site_of
from .test_web_browser import url

NAMES = ("ana", HOSTILE, "cy", "dee", "eve", "fay", "gus", "hal")


@pytest.fixture(autouse=True)
def stub_job(monkeypatch: pytest.MonkeyPatch, fake_discord: FakeDiscord) -> None:
    monkeypatch.setattr(analysis, "JOB", analysis_stub.deal_json)
    fake_discord.settle_ignores.append(lambda task: task.get_name() == "belote-analysis")


async def settled(w: World) -> None:
    await w.fake.settle()
    await w.bot.tournaments.settle()
    await w.fake.settle()


async def tournament_played(w: World, token: str) -> dict[str, Any]:
    """A quick tournament (two rounds) signed up for by the eight and played to its end."""
    fake, bot, mod = w.fake, w.bot, w.members[-1]
    signup = (await fake.slash(bot, mod, w.channel, "belote tournament new",
                               format="quick")).message
    assert signup is not None
    for member in w.members[:8]:
        await fake.click(bot, member, signup, "tn:join:1")
    await settled(w)
    for number in (0, 1):
        _, _, _, body = await get(w, f"/api/v1/{token}/tournament/1")
        for table in json.loads(body)["rounds"][number]["tables"]:
            assert await play_out(w, table["table"], seed=number + 1) > 0
        await settled(w)
    _, _, _, body = await get(w, f"/api/v1/{token}/tournament/1")
    state: dict[str, Any] = json.loads(body)
    assert state["stage"] == "finished"
    return state


def as_names(text: str, names: dict[int, str]) -> str:
    """A Discord line with its mentions written as the names they show."""
    return re.sub(r"<@(\d+)>", lambda m: names[int(m.group(1))], text)


async def test_the_player_page_shows_belote_stats_lines_with_analysis_and_podiums(
        fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock,
        browser: Browser) -> None:
    w = await make_world(fake_discord, database_path, names=NAMES, web_port=0,
                         web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    root = await site_of(w)
    token = root.split("/")[2]
    state = await tournament_played(w, token)
    final = state["rounds"][1]["tables"][0]["table"]
    await w.bot.analyses.ask(w.guild.id, final)
    await w.bot.analyses.settled()

    names = {m.id: m.name for m in w.members}
    variant = state["variant"]
    shown: set[str] = set()
    desktop, phone = await browser.page(), await browser.page(*PHONE)
    for member in w.members[:8]:
        said = await w.fake.slash(w.bot, member, w.channel, "belote stats",
                                  variant=variant)
        # Under its title, the command's lines; the page's, under its own title.
        expected = [as_names(line, names) for line in said.text.splitlines()[1:]]
        for tab in (desktop, phone):
            response = await tab.goto(url(w, f"{root}player/{member.id}?variant={variant}"))
            assert response is not None and response.status == 200
            assert await tab.locator("main > ul.lines").first.locator("li").all_inner_texts() \
                == expected, member.name
        shown.update(line.split(":")[0] for line in expected)

        _, _, _, body = await get(w, f"/api/v1/{token}/player/{member.id}?variant={variant}")
        api = json.loads(body)
        mine = await w.bot.analyses.member_stats(w.guild.id, member.id, variant)
        assert api["analysed"] == {"matches": mine.matches, "cards": mine.cards,
                                   "exact": mine.exact, "cost": mine.cost,
                                   "cost_points": mine.cost_points}
        won, second = await w.bot.tournaments.repo.podiums(w.guild.id, variant, member.id)
        assert api["tournaments"] == {"won": won, "second": second}
        if member.name in state["winners"]:
            assert (won, second) == (1, 0) and mine.cards > 0  # the final was analysed
            assert "Tournaments won: 1 · second places: 0" in expected
            assert any(line.startswith("Analysed: 1 match · accuracy ") for line in expected)
            await browser.shot(desktop, "player-podium-en-desktop")
            await browser.shot(phone, "player-podium-en-phone")
        elif member.name in state["runners_up"]:
            assert (won, second) == (0, 1)
            assert "Tournaments won: 0 · second places: 1" in expected
        else:
            assert (won, second) == (0, 0) and mine.cards == 0
            assert not any(line.startswith(("Tournaments", "Analysed")) for line in expected)
    assert {"Analysed", "Tournaments won", "Best partner"} <= shown
    assert await desktop.locator("main script").count() == 0 and browser.dialogs == []
