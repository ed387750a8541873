"""The match's web page shows its stored analysis (issues 42, 43): under each deal's sheet its
par, the bids that left points and the costly cards, and each player's accuracy after the
deals, the same lines as the replay's Analysis page in Discord, and each sheet drawn with its
analysis strip at an address of its own; nothing before the analysis is done; a hostile name
stays text; in a real browser (headless Chromium) it fits a phone.

The worker runs tests/e2e/analysis_stub.py (made-up values at once)."""

from __future__ import annotations

import io
import re
from html import unescape
from pathlib import Path

import pytest
from PIL import Image

from rendering.sheet import STRIP_HEIGHT
from service import analysis
from tests.fakediscord import FakeDiscord
from tests.web.browser import PHONE, Browser

from . import analysis_stub
from .table_helpers import World, make_world, play_out, start_table
from .test_web import BASE, get, site_of
from .test_web_browser import HOSTILE, url


@pytest.fixture(autouse=True)
def stub_job(monkeypatch: pytest.MonkeyPatch, fake_discord: FakeDiscord) -> None:
    monkeypatch.setattr(analysis, "JOB", analysis_stub.deal_json)
    fake_discord.settle_ignores.append(lambda task: task.get_name() == "belote-analysis")


async def analysed_match(fake: FakeDiscord, database_path: Path) -> tuple[World, int, str]:
    w = await make_world(fake, database_path, names=("ana", HOSTILE, "cy", "dee"),
                         web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    table_id, _ = await start_table(w, "classic", target=300)
    assert await play_out(w, table_id, seed=3) > 0
    return w, table_id, await site_of(w)


async def test_the_match_page_shows_the_analysis_once_it_is_done(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    w, table_id, root = await analysed_match(fake_discord, database_path)
    status, before, _, _ = await get(w, f"{root}match/{table_id}")
    assert status == 200 and 'class="analysis"' not in before
    status, again, _, _ = await get(w, f"{root}match/{table_id}")
    site = w.bot.web_site
    assert again == before and site is not None and site.pages.hits >= 1  # kept built
    await w.bot.analyses.ask(w.guild.id, table_id)
    await w.bot.analyses.settled()
    status, html, _, _ = await get(w, f"{root}match/{table_id}")
    assert status == 200
    # Each deal's section has its analysis under its sheet, as the Discord page words it.
    for n in (1, 2):
        section = html.split(f'id="deal-{n}"')[1].split("</section>")[0]
        assert section.index("<img ") < section.index('class="analysis"')
        text = unescape(re.sub(r"<[^>]+>", "\n", section))
        assert "Par: " in text and "every hand seen" in text
        assert "Costly cards, biggest first:" in text or "No chosen card cost" in text
        costs = [int(c) for c in re.findall(r"— cost (\d+) \(", text)]
        assert costs == sorted(costs, reverse=True)
    players = unescape(re.sub(r"<[^>]+>", "\n", html.split('id="analysis"')[1]))
    assert "Over the match:" in players
    assert sum(": accuracy " in line for line in players.splitlines()) == 4
    assert f"{HOSTILE}: accuracy " in players  # the name as typed, as text
    assert "<script>alert" not in html and "&lt;script&gt;" in html


async def test_the_match_page_s_sheets_show_the_analysis_strip_at_their_own_address(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    """The deal sheets a browser keeps for a day: once the analysis is done, the page links
    each at another address, drawn with its strip; the old address still gives the sheet as
    it was, and the strip's address is no page before the analysis."""
    w, table_id, root = await analysed_match(fake_discord, database_path)
    sheet = f"{root}match/{table_id}/deal/1.png"
    _, before, _, _ = await get(w, f"{root}match/{table_id}")
    assert re.findall(rf"<img src=\"[^\"]*(/match/{table_id}/deal/\d+\.png[^\"]*)", before) == [
        f"/match/{table_id}/deal/1.png", f"/match/{table_id}/deal/2.png"]
    status, _, headers, plain = await get(w, sheet)
    assert status == 200 and headers["Cache-Control"] == "private, max-age=86400"
    assert (await get(w, f"{sheet}?analysis=1"))[:2] == (404, "404")
    await w.bot.analyses.ask(w.guild.id, table_id)
    await w.bot.analyses.settled()
    _, html, _, _ = await get(w, f"{root}match/{table_id}")
    assert re.findall(rf"<img src=\"[^\"]*(/match/{table_id}/deal/\d+\.png[^\"]*)", html) == [
        f"/match/{table_id}/deal/1.png?analysis=1", f"/match/{table_id}/deal/2.png?analysis=1"]
    status, _, headers, with_strip = await get(w, f"{sheet}?analysis=1")
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert (await get(w, sheet))[3] == plain  # the old address: the sheet as it was
    old, new = (Image.open(io.BytesIO(data)) for data in (plain, with_strip))
    assert new.width == old.width and new.height == old.height + STRIP_HEIGHT


async def test_the_analysis_in_a_browser_is_text_and_fits_a_phone(
        fake_discord: FakeDiscord, database_path: Path, browser: Browser) -> None:
    w, table_id, root = await analysed_match(fake_discord, database_path)
    await w.bot.analyses.ask(w.guild.id, table_id)
    await w.bot.analyses.settled()
    for size, tab in (("desktop", await browser.page()), ("phone", await browser.page(*PHONE))):
        response = await tab.goto(url(w, f"{root}match/{table_id}"))
        assert response is not None and response.status == 200
        first = await tab.locator("#deal-1 .analysis").inner_text()
        assert "Par: " in first and ("Bids" in first or "No bid" in first)
        overall = await tab.locator("#analysis").inner_text()
        assert f"{HOSTILE}: accuracy " in overall
        assert await tab.locator("#analysis script").count() == 0
        if size == "phone":
            assert await browser.horizontal_overflow(tab) == 0
        await browser.shot(tab, f"match-analysis-{size}")
    assert browser.dialogs == []
