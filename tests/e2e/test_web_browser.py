"""The web pages in a real browser (headless Chromium, tests/web/browser.py), after matches
played through the fake Discord: the board lists what /belote leaderboard shows, in its order;
a hostile name is text (and no script of it runs); a board's later pages are the command's
later pages, turned by the pager; a wrong token is 404; a French server's pages are in French;
on a phone-sized window no page scrolls sideways."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from db import MatchPlayer
from db.tables import SeatRow
from i18n import words
from rendering.chart import rating_scale
from tests.fakediscord import FakeDiscord
from tests.web.browser import PHONE, Browser

from .table_helpers import World, make_world
from .test_stats import played
from .test_web import BASE, board_ids, site_of

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

    from tests.fakediscord import FakeMember

HOSTILE = "<script>alert(1)</script>**x**"


async def served(fake: FakeDiscord, database_path: Path, locale: str = "en-US"
                 ) -> tuple[World, int, str]:
    """A server whose members (one with a hostile name) played a match; its pages' root."""
    w = await make_world(fake, database_path, names=("ana", HOSTILE, "cy", "dee"),
                         locale=locale, web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    table_id = await played(w, target=1)
    return w, table_id, await site_of(w)


def url(w: World, path: str) -> str:
    return f"http://127.0.0.1:{w.bot.web.port}{path}"


async def test_the_board_lists_the_leaderboard_in_its_order_and_names_are_text(
        fake_discord: FakeDiscord, database_path: Path, browser: Browser) -> None:
    w, table_id, root = await served(fake_discord, database_path)
    board = await w.fake.slash(w.bot, w.members[0], w.channel, "belote leaderboard")
    order = board_ids(board.text)
    assert len(order) == 4
    page = await browser.page()
    response = await page.goto(url(w, root))
    assert response is not None and response.status == 200
    links = page.locator("table tbody a")
    hrefs = [await a.get_attribute("href") or "" for a in await links.all()]
    assert [int(h.split("/player/")[1].split("?")[0]) for h in hrefs] == order
    names = {m.id: m.name for m in w.members}
    assert await links.all_inner_texts() == [names[u] for u in order]
    assert HOSTILE in await links.all_inner_texts()
    # Shown as text: no script of the name in the page, none ran, no bold made of **x**.
    assert await page.locator("script").count() == 0
    assert await page.locator("table strong, table b").count() == 0
    assert browser.dialogs == []

    hostile = w.members[1].id
    await page.goto(url(w, f"{root}player/{hostile}"))
    assert HOSTILE in await page.locator("h1").inner_text()
    await page.goto(url(w, f"{root}match/{table_id}"))
    assert HOSTILE in await page.locator("main").inner_text()
    assert browser.dialogs == []


async def test_a_wrong_token_or_id_is_404_and_nothing_else(
        fake_discord: FakeDiscord, database_path: Path, browser: Browser) -> None:
    w, table_id, root = await served(fake_discord, database_path)
    token = root.split("/")[2]
    wrong = token[:-1] + ("B" if token[-1] != "B" else "C")
    page = await browser.page()
    for path in (f"/s/{wrong}/", f"/s/{wrong}/match/{table_id}", f"{root}match/{table_id + 9}",
                 f"/api/v1/{wrong}/boards"):
        response = await page.goto(url(w, path))
        assert response is not None and response.status == 404, path
        assert (await page.locator("body").inner_text()).strip() == "404"


@pytest.mark.parametrize(("locale", "words"), [
    ("en-US", ("Leaderboards", "Rating", "Match #")),
    ("fr", ("Classements", "Cote", "Partie n°")),
    ("bg", ("Класации", "Рейтинг", "Игра №")),
])
async def test_each_page_speaks_the_servers_language_and_fits_a_phone(
        fake_discord: FakeDiscord, database_path: Path, browser: Browser, locale: str,
        words: tuple[str, str, str]) -> None:
    w, table_id, root = await served(fake_discord, database_path, locale)
    language = locale[:2]
    board, rating, match = words
    pages = {"board": root, "player": f"{root}player/{w.members[1].id}",
             "match": f"{root}match/{table_id}"}
    for size, tab in (("desktop", await browser.page()), ("phone", await browser.page(*PHONE))):
        for name, path in pages.items():
            response = await tab.goto(url(w, path))
            assert response is not None and response.status == 200
            assert await tab.get_attribute("html", "lang") == language
            assert board in await tab.locator("header").inner_text()
            if size == "phone":
                assert await browser.horizontal_overflow(tab) == 0, (name, language)
                # A column's head is never broken mid-word ("Match|es").
                for head in await tab.locator("th").all():
                    lines = await head.evaluate(
                        "th => { const r = document.createRange(); r.selectNodeContents(th);"
                        " return new Set([...r.getClientRects()].map(c => c.top)).size; }")
                    assert lines <= 1, (name, language, await head.inner_text())
            if name == "player":
                await chart_scale_shown(w, tab, language)
            await browser.shot(tab, f"{name}-{language}-{size}")
        await tab.goto(url(w, root))
        assert rating in await tab.locator("table thead").inner_text()
        await tab.goto(url(w, pages["match"]))
        assert match in await tab.locator("h1").inner_text()
    assert browser.dialogs == []


async def chart_scale_shown(w: World, tab: Page, language: str) -> None:
    """The player's rating chart has its scale: the bottom and top ratings of the image
    /belote stats draws (rendering/chart.py), in the page's language, each beside its line
    of the plot, inside the window; the last rating is marked inside the plot."""
    user = int(tab.url.split("/player/")[1].split("?")[0])
    chart = await w.bot.records.rating_history(w.guild.id, "classic", user)
    low, high = rating_scale(chart)
    number = words(language).number
    scale = tab.locator(".chart .scale")
    assert await scale.locator(".top").inner_text() == number(round(high))
    assert await scale.locator(".low").inner_text() == number(round(low))
    if high >= 1000 and language != "en":
        assert "," not in number(round(high))  # 1 000: the language's own way
    svg = await tab.locator(".chart svg").bounding_box()
    assert svg is not None
    lines = [await line.bounding_box() for line in await tab.locator(".chart svg line").all()]
    for label, line in zip((".low", ".top"), lines[:2], strict=True):
        box = await scale.locator(label).bounding_box()
        assert box is not None and line is not None
        assert abs(box["y"] + box["height"] / 2 - (line["y"] + line["height"] / 2)) < 3, label
        assert box["x"] >= 0 and box["x"] + box["width"] <= svg["x"]
    dot = await tab.locator(".chart svg line.last").bounding_box()
    assert dot is not None and svg["x"] <= dot["x"] and dot["x"] + dot["width"] <= \
        svg["x"] + svg["width"]


async def test_the_replay_steps_card_by_card_to_the_posted_score(
        fake_discord: FakeDiscord, database_path: Path, browser: Browser) -> None:
    w = await make_world(fake_discord, database_path, web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    table_id = await played(w, target=301)
    row = await w.bot.db.tables.get(table_id)
    assert row is not None
    posted = w.fake.message(row.message_id).content
    won, lost = (int(n.replace(",", "")) for n in re.findall(
        r"win the match \(([\d,]+) to ([\d,]+)\)", posted)[0])
    result = await w.bot.db.results.match(w.guild.id, table_id)
    assert result is not None and result.deals > 1 and sorted(result.totals) == [lost, won]
    root = await site_of(w)
    page = await browser.page()
    await page.goto(url(w, f"{root}match/{table_id}"))

    def shown() -> Locator:
        return page.locator("article.step:not([hidden])")

    assert await page.locator("article.step:not([hidden])").count() == 1
    assert "Step 1 of" in await shown().locator(".stepper").inner_text()
    # The buttons step without reloading the page (the script), one action at a time.
    await page.evaluate("window.kept = true")
    await shown().locator('a[rel="next"]').click()
    assert "Step 2 of" in await shown().locator(".stepper").inner_text()
    assert await page.evaluate("window.kept === true")
    await shown().locator('a[rel="prev"]').click()
    assert "Step 1 of" in await shown().locator(".stepper").inner_text()
    # The keyboard: → steps, End goes to the match's last step (another deal's page), the
    # last card, whose score is the one the table posted.
    await page.keyboard.press("ArrowRight")
    assert "Step 2 of" in await shown().locator(".stepper").inner_text()
    async with page.expect_navigation():
        await page.keyboard.press("End")
    last = await shown().inner_text()
    count = int(await page.locator("#replay").get_attribute("data-steps") or 0)
    assert f"Step {count} of {count}" in last
    a, b = result.totals
    assert f"Final score: {a:,}–{b:,}" in last
    assert f"Match: {a:,}–{b:,}" in last
    assert "plays" in await shown().locator(".what").inner_text()  # the last card
    assert await shown().locator(".hand .card").count() == 0  # every card played
    assert await shown().locator(".trick .card").count() == 4
    await page.keyboard.press("ArrowLeft")
    assert f"Step {count - 1} of {count}" in await shown().locator(".stepper").inner_text()
    assert await shown().locator(".hand .card").count() == 1
    async with page.expect_navigation():
        await page.keyboard.press("Home")
    assert "Step 1 of" in await shown().locator(".stepper").inner_text()
    await browser.shot(page, "replay-en-desktop")
    phone = await browser.page(*PHONE)
    for step in (0, 12, count // 2, count - 1):
        await phone.goto(url(w, f"{root}match/{table_id}?step={step}#replay"))
        assert f"Step {step + 1} of {count}" in await phone.locator(
            "article.step:not([hidden]) .stepper").inner_text()
        assert await browser.horizontal_overflow(phone) == 0, step
        await browser.shot(phone, f"replay-en-phone-{step}")
    assert browser.dialogs == []


async def recorded(w: World, members: list[FakeMember], winner: int) -> None:
    """A rated match of these four stored as a table's end stores it, under their names."""
    db = w.bot.service.db
    t = await db.tables.create(guild_id=w.guild.id, channel_id=w.channel.id,
                               host_id=members[0].id, variant="classic", options={},
                               private=False, seed=1)
    for seat, m in enumerate(members):
        await db.tables.put_seat(SeatRow(t.id, seat, m.id, m.name))
    await db.results.record_match(table_id=t.id, guild_id=w.guild.id, variant="classic",
                                  winner=winner, totals=(1001, 400), deals=4,
                                  players=[MatchPlayer(s, m.id, None)
                                           for s, m in enumerate(members)])


async def test_a_boards_second_page_lists_the_leaderboards_second_page(
        fake_discord: FakeDiscord, database_path: Path, browser: Browser) -> None:
    """24 rated players: three pages of ten, in /belote leaderboard's order page after page;
    the pager says where it is and its links turn the pages; no fourth page."""
    w = await make_world(fake_discord, database_path, tuple(f"p{i:02d}" for i in range(24)),
                         web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    # Two rounds of six matches, the second with other tables, so that ratings spread.
    for step, winner in ((1, 0), (5, 1)):
        for i in range(0, 24, 4):
            await recorded(w, [w.members[(i + step * k) % 24] for k in range(4)], winner)
    discord_pages = []
    board = (await w.fake.slash(w.bot, w.members[0], w.channel, "belote leaderboard")).messages[-1]
    for _ in range(3):
        discord_pages.append(board_ids(w.fake.message(board.id).content))
        if len(discord_pages) < 3:
            assert (await w.fake.click(w.bot, w.members[0], board, label="Next")).responded
    assert [len(p) for p in discord_pages] == [10, 10, 4]
    assert len({u for p in discord_pages for u in p}) == 24

    root = await site_of(w)
    page = await browser.page(*PHONE)

    async def shown(number: int) -> None:
        assert f"page={number}" in page.url
        assert await page.locator(".pager p").inner_text() == f"Page {number} of 3"
        ranks = await page.locator("table tbody td.r").all_inner_texts()
        assert ranks == [str(r) for r in range(10 * number - 9, 10 * number - 9 + len(ranks))]
        hrefs = [await a.get_attribute("href") or ""
                 for a in await page.locator("table tbody a").all()]
        assert [int(h.split("/player/")[1].split("?")[0]) for h in hrefs] == \
            discord_pages[number - 1]
        assert await browser.horizontal_overflow(page) == 0

    await page.goto(url(w, f"{root}?variant=classic&period=all&pairs=0&page=1"))
    assert await page.locator(".pager a", has_text="Previous").count() == 0
    await page.locator(".pager a", has_text="Next").click()
    await shown(2)
    await browser.shot(page, "board-page2-en-phone")
    await page.locator(".pager a", has_text="Previous").click()
    await shown(1)
    await page.locator(".pager a", has_text="Next").click()
    await page.locator(".pager a", has_text="Next").click()
    await shown(3)
    assert await page.locator(".pager a", has_text="Next").count() == 0
    response = await page.goto(url(w, f"{root}?variant=classic&period=all&pairs=0&page=4"))
    assert response is not None and response.status == 404
    assert (await page.locator("body").inner_text()).strip() == "404"
