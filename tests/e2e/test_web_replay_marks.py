"""The web replay marks what nobody clicked (issue 46), in a real browser (tests/web/browser.py):
after a match played through the fake Discord with forced cards played after their beat, a
card chosen ahead and a claim, the match page's step of each says so in words (a card "played
for them", "chosen ahead", "played out by the claim") and marks that card in the trick; the
cards people clicked carry no mark. On a phone's width the page does not scroll sideways and
the dealer's label stands clear of South's cards. /belote replay says the same of the deal."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import bot.settings as bot_settings
from bot.controls import button_id
from game.cards import card_str, cards_of
from game.choices import forced_card
from game.deal import Phase
from game.view import table_view
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord
from tests.web.browser import PHONE, Browser

from .table_helpers import World, make_world, member_of, play_turn, start_table
from .test_ahead import after_move, choose_ahead, click_move
from .test_claim import Greedy, claimable
from .test_forced import BEAT, advance
from .test_web import BASE, site_of
from .test_web_browser import url

if TYPE_CHECKING:
    from playwright.async_api import Page

WORDS = {"forced": "only card: played for them", "ahead": "chosen ahead",
         "claim": "played out by the claim"}


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock,
                monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(bot_settings, "DEFAULT_FORCED_DELAY", BEAT)  # as a live bot has it
    w = await make_world(fake_discord, database_path, web_port=0, web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    # The browser's own tasks (its pipe to Chromium, the pages' open connections) are no work
    # of the bot's that settling should wait for.
    w.fake.settle_ignores.append(lambda t: getattr(t.get_coro(), "__qualname__", "") in (
        "RequestHandler.start", "PipeTransport.run", "Connection.run"))
    return w


async def play_with_every_mark(w: World, clock: FakeClock, table_id: int) -> None:
    """Play the match out: forced cards wait for their beat, one card is chosen ahead (and
    played on its turn), the first sure claim is made."""
    live = w.bot.service.live[table_id]
    rng = Greedy(1)
    ahead = claimed = False
    for _ in range(3000):
        if table_id not in w.bot.service.live:
            return
        match = live.match
        deal = match.deal
        if deal is not None and not deal.is_over and forced_card(deal) is not None:
            await advance(w, clock, BEAT)
            continue
        if not claimed and claimable(w, table_id):
            s = live.seats[match.to_act]
            r = await w.fake.click(w.bot, member_of(w, s.user_id),
                                   w.fake.message(s.dm_message_id),
                                   button_id("claim", table_id, live.seq))
            assert r.callback_type == 7, r.text
            await w.fake.settle()
            claimed = True
            continue
        if not ahead and deal.phase is Phase.PLAY and deal.trick and len(deal.trick) < 3:
            seat = match.to_act
            action = rng.choose(table_view(match, seat))
            nxt = (seat + 1) % 4
            allowed = after_move(w, table_id, action)
            mine = sorted(set(cards_of(deal.hands[nxt])) & allowed)
            if mine and len(allowed) > 1:  # a choice, not a forced card
                await w.fake.settle()
                await choose_ahead(w, table_id, nxt, card_str(mine[0]))
                await click_move(w, table_id, action)
                ahead = True
                continue
        r = await play_turn(w, table_id, rng)
        assert r.callback_type == 7, r.text
        await w.fake.settle()
    raise AssertionError("the match did not end")


async def steps_by(w: World, table_id: int) -> list[str | None]:
    """Each step of the match (a deal's start, then each action) and who decided it."""
    return [e.payload.get("by") if e.kind == "action" else None
            for e in await w.bot.service.db.log.entries(table_id)
            if e.kind in ("deal", "action")]


async def shown(page: Page) -> str:
    return await page.locator("article.step:not([hidden])").inner_text()


async def test_the_replay_marks_forced_ahead_and_claimed_cards(
        world: World, table_clock: FakeClock, browser: Browser) -> None:
    w = world
    table_id, _ = await start_table(w, target=200)
    await play_with_every_mark(w, table_clock, table_id)
    by = await steps_by(w, table_id)
    assert {"forced", "ahead", "claim"} <= set(by), by
    root = await site_of(w)
    page = await browser.page()
    for kind, words in WORDS.items():
        step = by.index(kind)
        await page.goto(url(w, f"{root}match/{table_id}?step={step}#replay"))
        now = page.locator("article.step:not([hidden])")
        assert words in await now.locator(".what").inner_text()
        assert await now.locator(f".what .by-{kind}").count() == 1
        assert await now.locator(f".trick .slot.by-{kind} .card").count() == 1
        assert await now.locator(f".trick .slot.by-{kind}").get_attribute("title") == words
        if kind == "claim":
            assert "claims the rest" in await now.locator(".what").inner_text()
            await browser.shot(page, f"replay-marks-{kind}-desktop")
    # A card the person clicked is not marked, in words or in the trick.
    clicked = next(i for i, b in enumerate(by) if b is None and i > 0 and i + 1 < len(by))
    await page.goto(url(w, f"{root}match/{table_id}?step={clicked}#replay"))
    assert await page.locator("article.step:not([hidden]) .by").count() == 0
    # Stepping with the script (no reload) reaches the marks too: every claimed card says so.
    first = by.index("claim")
    await page.goto(url(w, f"{root}match/{table_id}?step={first}#replay"))
    await page.evaluate("window.kept = true")
    for _ in range(by.count("claim") - 1):
        await page.keyboard.press("ArrowRight")
        assert WORDS["claim"] in await shown(page)
    assert await page.evaluate("window.kept === true")

    phone = await browser.page(*PHONE)
    for kind in WORDS:
        await phone.goto(url(w, f"{root}match/{table_id}?step={by.index(kind)}#replay"))
        assert await browser.horizontal_overflow(phone) == 0, kind
        await browser.shot(phone, f"replay-marks-{kind}-phone")
    # The dealer's label stands clear of the cards of the seat that dealt.
    await phone.goto(url(w, f"{root}match/{table_id}?step=0#replay"))
    seat = phone.locator("article.step:not([hidden]) .seat:has(.dealer)")
    label = await seat.locator(".dealer").bounding_box()
    cards = await seat.locator(".hand").bounding_box()
    assert label is not None and cards is not None
    assert label["y"] + label["height"] <= cards["y"] or \
        label["x"] + label["width"] + 4 <= cards["x"], (label, cards)
    await browser.shot(phone, "replay-marks-dealt-phone")
    assert browser.dialogs == []


async def test_belote_replay_says_what_nobody_clicked(
        world: World, table_clock: FakeClock) -> None:
    w = world
    table_id, _ = await start_table(w, target=200)
    await play_with_every_mark(w, table_clock, table_id)
    by = await steps_by(w, table_id)
    entries = [e for e in await w.bot.service.db.log.entries(table_id)
               if e.kind in ("deal", "action")]
    deals: list[list[dict[str, object]]] = []
    for e in entries:
        if e.kind == "deal":
            deals.append([])
        else:
            deals[-1].append(e.payload)
    assert len(deals) > 1
    r = await w.fake.slash(w.bot, w.members[2], w.channel, "belote replay", match=table_id)
    message = r.messages[-1]
    names = {s.seat: s.name for s in await w.bot.service.db.tables.seats(table_id)}
    for number, actions in enumerate(deals, start=1):
        if number > 1:
            await w.fake.click(w.bot, w.members[3], message, label="Next")
        text = str(w.fake.message(message.id).content)
        assert f"deal {number} of {len(deals)}" in text
        forced = sum(a.get("by") == "forced" for a in actions)
        ahead = sum(a.get("by") == "ahead" for a in actions)
        claim = [a for a in actions if a.get("by") == "claim"]
        if not (forced or ahead or claim):
            assert "Not clicked" not in text
            continue
        line = next(t for t in text.split("\n") if t.startswith("Not clicked in this deal: "))
        if forced:
            assert (f"{forced} only card played for its holder" if forced == 1 else
                    f"{forced} only cards played for their holders") in line
        if ahead:
            assert f"{ahead} chosen ahead" in line
        if claim:
            who = names[int(str(claim[0]["seat"]))]
            assert f"{who} claimed the rest ({len(claim)} cards played out)" in line
    assert {"forced", "ahead", "claim"} <= set(by)
