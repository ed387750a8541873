"""The replay's Analysis page (issue 42) through the fake Discord: the Analysis button asks for
a match not analysed yet, the message shows the progress deal by deal, then the page (par,
the bids that left points, the costly cards biggest first, each player's accuracy); a stop in
the middle is resumed once by the next start and the page then opens at once from storage;
page buttons, the way back to the deal sheet, French and Bulgarian words, forged buttons; the
replay's deal sheets drawn with their analysis strip once the analysis is done.

The worker runs tests/e2e/analysis_stub.py (made-up values at once; the real solver is
tested in tests/game/analysis, and once end to end in tests/e2e/test_analysis.py)."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image, ImageChops

import rendering
from bot import create_bot
from bot.controls import UNKNOWN_CONTROL
from rendering.sheet import STRIP_HEIGHT
from service import analysis
from service.analysis_page import sheet_analysis
from tests.fakediscord import FakeDiscord

from . import analysis_stub
from .table_helpers import World, make_world, play_out, start_table


@pytest.fixture(autouse=True)
def stub_job(monkeypatch: pytest.MonkeyPatch, fake_discord: FakeDiscord) -> None:
    monkeypatch.setattr(analysis, "JOB", analysis_stub.deal_json)
    # A click is answered before the analysis it starts is over: the harness waits for the
    # click's work, not for the analysis (the tests wait for that themselves).
    fake_discord.settle_ignores.append(lambda task: task.get_name() == "belote-analysis")


async def two_deals(world: World) -> int:
    table_id, _ = await start_table(world, "classic", target=300)
    assert await play_out(world, table_id, seed=3) > 0
    return table_id


def expected_accuracy(deals: dict[int, dict[str, Any]], seat: int) -> tuple[int, int]:
    """(accuracy %, cards) of a seat over the stored deals: its cards with an alternative
    (every card here was a person's click or forced), the share that cost nothing."""
    cards = [next(o for o in d["options"] if o["card"] == d["played"])
             for deal in deals.values() for d in deal["decisions"]
             if d["seat"] == seat and "card" in d["options"][0] and len(d["options"]) > 1]
    return round(100 * sum(o["cost"] == 0 for o in cards) / len(cards)), len(cards)


def costs_listed(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"— cost (\d+) \(", text)]


async def test_analysis_shows_progress_then_the_page_and_resumes_once_after_a_restart(
        fake_discord: FakeDiscord, database_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BELOTE_TEST_ANALYSIS_HANG", "1")  # deal 2's job never answers
    world = await make_world(fake_discord, database_path)
    fake = world.fake
    table_id = await two_deals(world)
    replay = (await fake.slash(world.bot, world.members[2], world.channel, "belote replay",
                               match=table_id)).answer
    assert "deal 1 of 2" in replay.content
    first_stored = asyncio.get_running_loop().create_future()

    async def heard(p: analysis.Progress) -> None:
        if p.done == 1 and not first_stored.done():
            first_stored.set_result(p)
    world.bot.analyses.listen(table_id, heard)
    clicked = await fake.click(world.bot, world.members[3], replay, label="Analysis")
    assert clicked.callback_type == 7 and not clicked.ephemeral
    shown = fake.message(replay.id).content
    assert shown.startswith(f"**Match #{table_id} · analysis**"), shown
    assert "Analysing" in shown or "Waiting for its turn" in shown, shown
    assert not fake.message(replay.id).attachments  # the deal sheet is the replay page's
    await first_stored
    await world.bot.analyses.told()
    assert "Analysing: deal 2 of 2…" in fake.message(replay.id).content

    # The bot stops in the middle; the next start resumes the analysis from its stored deal,
    # and the message follows it again: its click's token is gone with the process, so the
    # page comes as an ordinary edit of the message, without anybody clicking.
    monkeypatch.delenv("BELOTE_TEST_ANALYSIS_HANG")
    await fake.disconnect(world.bot)
    mark = fake.mark()
    world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    await world.bot.analyses.settled()
    await world.bot.analyses.told()
    assert world.bot.analyses.ran == [(table_id, 1)]  # deal 1 was not analysed again
    edits = fake.edits_of(replay.id, since=mark)
    assert edits and all(r.status == 200 and "/channels/" in r.path for r in edits), edits
    page = fake.message(replay.id).content
    assert page.startswith(f"**Match #{table_id} · analysis** · deal 1 of 2"), page
    assert "Par: " in page and "card points" in page
    assert [b["label"] for b in fake.message(replay.id).walk_components()
            if b.get("type") == 2] == ["Previous", "Next", "Deal sheet"]
    costs = costs_listed(page)
    assert costs and costs == sorted(costs, reverse=True) and 0 not in costs, page
    deals = await world.bot.analyses.repo.stored_deals(table_id)
    for seat, member in enumerate(world.members[:4]):
        accuracy, cards = expected_accuracy(deals, seat)
        assert f"{member.name}: accuracy {accuracy}% of {cards} cards · " in page, page
    assert world.bot.analyses.ran == [(table_id, 1)]
    # Once shown, the message is no longer followed: another restart leaves it alone.
    assert await world.bot.analyses.repo.watches() == []
    await fake.disconnect(world.bot)
    mark = fake.mark()
    world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    await world.bot.analyses.settled()
    assert fake.edits_of(replay.id, since=mark) == [] and fake.message(replay.id).content == page

    assert "Bids that left points on the table:" in page or "No bid left points" in page

    # Its page buttons, and back to the deal sheet.
    await fake.click(world.bot, world.members[1], replay, label="Next")
    page2 = fake.message(replay.id).content
    assert "· deal 2 of 2" in page2 and page2 != page
    back = await fake.click(world.bot, world.members[1], replay, label="Deal sheet")
    assert back.callback_type == 7
    sheet = fake.message(replay.id)
    assert "deal 2 of 2" in sheet.content and "analysis" not in sheet.content
    assert any(a.filename.startswith("deal") for a in sheet.attachments)


async def test_the_page_follows_the_analysis_to_its_end_then_opens_at_once_in_fr_and_bg(
        world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id = await two_deals(world)
    replay = (await fake.slash(bot, world.members[1], world.channel, "belote replay",
                               match=table_id)).answer
    mark = fake.mark()
    clicked = await fake.click(bot, world.members[1], replay, label="Analysis")
    assert clicked.callback_type == 7
    await bot.analyses.settled()
    await bot.analyses.told()
    # Nobody clicked again: the message went from the progress to the page by itself,
    # through the click's token (outside the global limit).
    edits = [r for r in fake.requests_to(since=mark)
             if r.method == "PATCH" and r.path.endswith("/messages/@original")]
    assert edits and all(r.status == 200 for r in edits)
    page = fake.message(replay.id).content
    assert page.startswith(f"**Match #{table_id} · analysis** · deal 1 of 2"), page
    assert [b["label"] for b in fake.message(replay.id).walk_components()
            if b.get("type") == 2] == ["Previous", "Next", "Deal sheet"]
    # /belote stats: each member's accuracy and cost per card over their analysed matches.
    deals = await bot.analyses.repo.stored_deals(table_id)
    for seat, member in enumerate(world.members[:4]):
        accuracy, cards = expected_accuracy(deals, seat)
        stats = await fake.slash(bot, world.members[0], world.channel, "belote stats",
                                 member=member)
        assert f"Analysed: 1 match · accuracy {accuracy}% of {cards} chosen cards · " \
            in stats.text, stats.text
    newcomer = world.guild.add_member("eve")
    stats = await fake.slash(bot, newcomer, world.channel, "belote stats")
    assert "Analysed" not in stats.text
    for language, button, words in (
            ("fr", "Analyse", ("· analyse** · donne 1 sur 2", "Par\u00a0: ", "Sur la partie\u00a0:",
                               "précision", "points de cartes", "Cartes coûteuses")),
            ("bg", "Анализ", ("· анализ** · раздаване 1 от 2", "Пар: ", "За цялата игра:",
                              "точност", "точки от карти", "Скъпи карти"))):
        await bot.guild_settings.change(world.guild.id, {"language": language}, [])
        replay = (await fake.slash(bot, world.members[0], world.channel, "belote replay",
                                   match=table_id)).answer
        mark = fake.mark()
        await fake.click(bot, world.members[0], replay, label=button)
        assert len(fake.requests_to(since=mark)) == 1  # one answer: nothing to wait for
        text = fake.message(replay.id).content
        for word in words:
            assert word in text, (language, word, text)
        assert "Analysis" not in text and "accuracy" not in text, text
        assert len(text) <= 2000


async def test_forged_and_stale_analysis_buttons_change_nothing(world: World) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id = await two_deals(world)
    forged = (f"rk:an:{table_id + 50}:1", "rk:an:99999999999999999999:1", "rk:an:x:1")
    view = discord.ui.View(timeout=None)
    for custom_id in forged:
        view.add_item(discord.ui.Button(label=custom_id, custom_id=custom_id))
    old = await bot.get_partial_messageable(world.channel.id).send("old", view=view)
    answers = []
    for custom_id in forged:
        r = await fake.click(bot, ana, old.id, custom_id)
        assert r.callback_type == 4 and r.ephemeral, custom_id
        answers.append(r.content)
    assert answers[0] == f"No finished match #{table_id + 50} in this server."
    assert answers[1] == answers[2] == UNKNOWN_CONTROL
    assert fake.message(old.id).content == "old"
    await bot.analyses.settled()
    assert bot.analyses.ran == [] and await bot.analyses.progress(table_id) is None
    # Another server's match is not found from here.
    other = fake.add_guild("Elsewhere")
    channel = other.add_text_channel("belote")
    stranger = other.add_member("eve")
    r = await fake.slash(bot, stranger, channel, "belote replay", match=table_id)
    assert r.ephemeral and f"No finished match #{table_id}" in r.text


def sheet_of(message: Any) -> Any:
    """The deal sheet attached to a replay page."""
    sheets = [a for a in message.attachments if a.filename.startswith("deal")]
    assert len(sheets) == 1, message.attachments
    return sheets[0]


async def test_the_replay_s_deal_sheet_shows_the_analysis_strip_once_it_is_done(
        world: World) -> None:
    """Before the analysis, the replay's sheet is the sheet posted after the deal; once the
    analysis is done, the replay's pages draw it with its strip (par, each player's accuracy
    and costliest card of the deal), in the table's language, from what is stored."""
    fake, bot = world.fake, world.bot
    table_id = await two_deals(world)
    replay = (await fake.slash(bot, world.members[1], world.channel, "belote replay",
                               match=table_id)).answer
    before = sheet_of(fake.message(replay.id))
    rp = await bot.records.replay(world.guild.id, table_id)
    assert rp is not None
    plain, _ = rendering.render_deal_sheet(rp.match.results[0], rp.match.variant, rp.players, 1)
    assert before.data == plain  # no strip before the analysis

    await fake.click(bot, world.members[1], replay, label="Analysis")
    await bot.analyses.settled()
    await bot.analyses.told()
    back = await fake.click(bot, world.members[1], replay, label="Deal sheet")
    assert back.callback_type == 7
    after = sheet_of(fake.message(replay.id))
    assert after.width == before.width and after.height == before.height + STRIP_HEIGHT
    # Drawn from the stored analysis of deal 1, with the record saying who played each card.
    stored = await bot.analyses.repo.stored_deal(table_id, 0)
    assert stored is not None
    strip = sheet_analysis(stored, rp.record["deals"][0]["actions"])
    assert strip.par is not None and any(s.costliest for s in strip.seats)
    drawn, _ = rendering.render_deal_sheet(rp.match.results[0], rp.match.variant, rp.players, 1,
                                           analysis=strip)
    assert after.data == drawn
    # The sheet above the strip is the sheet as it was (each sheet has its own 256 colours:
    # within a few levels), the strip is drawn on.
    old = Image.open(io.BytesIO(before.data)).convert("RGB")
    new = Image.open(io.BytesIO(after.data)).convert("RGB")
    top = old.height - 24
    above = ImageChops.difference(old.crop((0, 0, 800, top)), new.crop((0, 0, 800, top)))
    assert max(above.tobytes()) <= 8
    assert len(new.crop((0, top, 800, new.height)).getcolors(1 << 16) or []) > 10
    # Deal 2's page has deal 2's strip.
    await fake.click(bot, world.members[1], replay, label="Next")
    strip2 = sheet_analysis(await bot.analyses.repo.stored_deal(table_id, 1) or {},
                            rp.record["deals"][1]["actions"])
    drawn2, _ = rendering.render_deal_sheet(rp.match.results[1], rp.match.variant, rp.players,
                                            2, analysis=strip2)
    assert sheet_of(fake.message(replay.id)).data == drawn2

    # A new /belote replay opens with it at once, in the table's language.
    for language in ("fr", "bg"):
        await bot.guild_settings.change(world.guild.id, {"language": language}, [])
        shown = (await fake.slash(bot, world.members[0], world.channel, "belote replay",
                                  match=table_id)).answer
        drawn, _ = rendering.render_deal_sheet(rp.match.results[0], rp.match.variant,
                                               rp.players, 1, language=language, analysis=strip)
        assert sheet_of(fake.message(shown.id)).data == drawn, language
