"""The live table and tournament pages in a real browser (headless Chromium,
tests/web/browser.py), the tables played through the fake Discord: the live page changes within
2 s of a move with no reload and never shows a card of a hand; the tournament page follows the
tournament's rounds; both fit a phone's width. The live page served by a process that does not
run the table (two bot processes on PostgreSQL) changes within 2 s of a move at the owner too.

Waits are bounded: a move must show within 2 s; the tournament page's script looks for news
every second here (its interval shortened), and a result must show within 5 s. The tables run
on the injected clock, which nothing moves (no turn timer runs out), but for the other process's
poll: one interval passes after each move."""

from __future__ import annotations

from pathlib import Path

import pytest

import web.tournament
from bot.controls import button_id
from game.cards import cards_of
from game.players import RandomPlayer
from i18n import card_label
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord
from tests.web.browser import PHONE, Browser

from .table_helpers import (
    World,
    make_world,
    open_table,
    play_out,
    play_turn,
    seat_everyone,
    start_table,
)
from .test_shards import dm_turn
from .test_web import BASE, HOSTILE, site_of
from .test_web_live_shards import tick
from .test_web_live_shards import two as two  # a fixture: the owner and shard 0's process
from .test_web_tournament import NAMES, settled

MOVE_WAIT_MS = 2000


def url(w: World, path: str) -> str:
    return f"http://127.0.0.1:{w.bot.web.port}{path}"


async def served(fake: FakeDiscord, database_path: Path,
                 names: tuple[str, ...] = ("ana", HOSTILE, "cy", "dee")) -> tuple[World, str]:
    w = await make_world(fake, database_path, names=names, web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    # The browser keeps its connections to the pages open between requests: an idle
    # connection is no work of the bot's that settling should wait for.
    w.fake.settle_ignores.append(
        lambda t: getattr(t.get_coro(), "__qualname__", "") == "RequestHandler.start")
    return w, await site_of(w)


def in_hands(w: World, table_id: int) -> list[str]:
    deal = w.bot.service.live[table_id].match.deal
    return [card_label(c) for hand in deal.hands for c in cards_of(hand)]


async def test_the_live_page_follows_each_move_within_2_s_and_never_shows_a_hand(
        fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock,
        browser: Browser) -> None:
    w, root = await served(fake_discord, database_path)
    table_id, _ = await start_table(w, "classic")
    live = w.bot.service.live[table_id]
    page = await browser.page(*PHONE)
    response = await page.goto(url(w, f"{root}table/{table_id}"))
    assert response is not None and response.status == 200
    shown = page.locator("#live")
    # A selector, not a script: the page's Content-Security-Policy refuses eval, which a
    # string predicate of wait_for_function may need.
    await page.locator(f"#live[data-seq='{live.seq}']").wait_for(
        timeout=MOVE_WAIT_MS)  # the stream is open: its first state is in
    assert "Live:" in await page.locator("#live-note").inner_text()
    rng = RandomPlayer(4)
    for _ in range(12):
        assert (await play_turn(w, table_id, rng)).callback_type == 7
        await page.locator(f"#live[data-seq='{live.seq}']").wait_for(timeout=MOVE_WAIT_MS)
        text = await shown.inner_text()
        for card in in_hands(w, table_id):
            assert card not in text, card
        seat = live.match.to_act
        assert f"{live.names()[seat]} to" in text  # whose turn, as the table message says
    assert HOSTILE in await shown.inner_text()  # a name is text
    assert browser.dialogs == [] and await page.locator("#live script").count() == 0
    assert await browser.horizontal_overflow(page) == 0
    await browser.shot(page, "live-table-phone")


async def test_the_tournament_page_follows_the_rounds(
        fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock,
        browser: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web.tournament, "POLL", 1)
    w, root = await served(fake_discord, database_path, NAMES)
    r = await w.fake.slash(w.bot, w.members[-1], w.channel, "belote tournament new",
                           format="quick")
    assert r.message is not None
    page = await browser.page(*PHONE)
    await page.goto(url(w, f"{root}tournament/1"))
    assert "Sign-up is open: 0 of 8" in await page.locator("main").inner_text()
    for member in w.members[:8]:
        await w.fake.click(w.bot, member, r.message, "tn:join:1")
    await settled(w)
    watch = page.locator("li.match a")
    await watch.nth(1).wait_for(timeout=5000)  # reloaded: round 1 drawn, its tables in play
    assert await watch.count() == 2  # each table in play links to its live page
    tables = [int((await a.get_attribute("href") or "").rsplit("/", 1)[1])
              for a in await watch.all()]
    await play_out(w, tables[0], seed=1)
    await settled(w)
    await page.locator("li.match span.won").first.wait_for(timeout=5000)
    assert "won by" in await page.locator("main").inner_text()
    assert HOSTILE in await page.locator("main").inner_text()  # as text
    assert browser.dialogs == []
    assert await browser.horizontal_overflow(page) == 0
    await browser.shot(page, "tournament-phone")


async def test_the_live_page_of_another_process_s_table_follows_each_move_within_2_s(
        two: tuple[World, World], table_clock: FakeClock, browser: Browser) -> None:
    owner, other = two
    for w in (owner, other):
        w.fake.settle_ignores.append(
            lambda t: getattr(t.get_coro(), "__qualname__", "") == "RequestHandler.start")
    table_id, _ = await start_table(owner, "classic")
    live = owner.bot.service.live[table_id]
    root = await site_of(owner)
    page = await browser.page(*PHONE)
    response = await page.goto(url(other, f"{root}table/{table_id}"))  # shard 0's process
    assert response is not None and response.status == 200
    shown = page.locator("#live")
    await page.locator(f"#live[data-seq='{live.seq}']").wait_for(timeout=MOVE_WAIT_MS)
    assert "Live:" in await page.locator("#live-note").inner_text()
    rng = RandomPlayer(4)
    for _ in range(10):
        assert (await dm_turn(owner, other.bot, table_id, rng)).callback_type == 7
        await tick(owner, table_clock)  # the other process's next poll
        await page.locator(f"#live[data-seq='{live.seq}']").wait_for(timeout=MOVE_WAIT_MS)
        text = await shown.inner_text()
        for card in in_hands(owner, table_id):
            assert card not in text, card
        assert f"{live.names()[live.match.to_act]} to" in text
    assert HOSTILE in await shown.inner_text()
    assert table_id not in other.bot.service.live
    assert browser.dialogs == [] and await browser.horizontal_overflow(page) == 0
    await browser.shot(page, "live-table-other-process-phone")


@pytest.mark.parametrize(("locale", "words"), [
    ("fr", ("Tour 1", "Suivre la table", "Donne 1", "Classements")),
    ("bg", ("Кръг 1", "Гледай маса", "Раздаване 1", "Класации")),
])
async def test_the_tournament_and_live_pages_speak_the_servers_language_and_fit_a_phone(
        fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock,
        browser: Browser, locale: str, words: tuple[str, str, str, str]) -> None:
    rounds, watch, deal, home = words
    w = await make_world(fake_discord, database_path, names=NAMES, locale=locale, web_port=0,
                         web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    w.fake.settle_ignores.append(
        lambda t: getattr(t.get_coro(), "__qualname__", "") == "RequestHandler.start")
    root = await site_of(w)
    r = await w.fake.slash(w.bot, w.members[-1], w.channel, "belote tournament new",
                           format="quick")
    assert r.message is not None
    for member in w.members[:8]:
        await w.fake.click(w.bot, member, r.message, "tn:join:1")
    await settled(w)
    page = await browser.page(*PHONE)
    response = await page.goto(url(w, f"{root}tournament/1"))
    assert response is not None and response.status == 200
    assert await page.get_attribute("html", "lang") == locale
    text = await page.locator("main").inner_text()
    assert rounds in text and watch in text and home in await page.locator("header").inner_text()
    assert HOSTILE in text
    assert await browser.horizontal_overflow(page) == 0
    await browser.shot(page, f"tournament-{locale}-phone")
    table = await page.locator("li.match a").first.get_attribute("href")
    assert table is not None
    await page.goto(url(w, table))
    assert await page.get_attribute("html", "lang") == locale
    await page.locator("#live[data-seq]").wait_for(timeout=MOVE_WAIT_MS)
    assert deal in await page.locator("#live").inner_text()
    assert await browser.horizontal_overflow(page) == 0
    await browser.shot(page, f"live-table-{locale}-phone")
    assert browser.dialogs == []


async def test_a_tables_empty_seats_take_no_cards_room(
        fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock,
        browser: Browser) -> None:
    """Before its first deal a table shows its seats, taken or not, with no room kept for a
    card (nothing is played yet); once it plays every seat keeps a card's room."""
    w, root = await served(fake_discord, database_path)
    table_id, lobby = await open_table(w, w.members[0])
    await seat_everyone(w, table_id, lobby, w.members[:2])
    page = await browser.page(*PHONE)
    await page.goto(url(w, f"{root}table/{table_id}"))
    await page.locator("#live[data-seq]").wait_for(timeout=MOVE_WAIT_MS)
    seats = page.locator(".felt .seat")
    assert await seats.count() == 4 and await page.locator(".felt .seat.empty").count() == 2
    assert await page.locator(".felt .seat .card").count() == 0
    for seat in await seats.all():
        box, who = await seat.bounding_box(), await seat.locator(".who").bounding_box()
        assert box is not None and who is not None
        assert box["height"] - who["height"] < 12  # its name, and no empty card below it
    assert await browser.horizontal_overflow(page) == 0
    await browser.shot(page, "live-table-lobby-phone")
    for place in (2, 3):
        sat = await w.fake.click(w.bot, w.members[place], lobby,
                                 button_id("sit", table_id, place))
        assert sat.callback_type == 7, sat.text
    assert (await w.fake.click(w.bot, w.members[0], lobby, f"bt:start:{table_id}")).responded
    await page.locator(".felt .seat:nth-child(4) .card").wait_for(state="attached",
                                                                  timeout=MOVE_WAIT_MS)
    assert await page.locator(".felt .seat .card").count() == 4
    assert await page.locator(".felt .seat.empty").count() == 0
