"""After a daily-deal try (issue 45), through the fake Discord: the score says the review
follows; once the try's deals are analysed (in the analysis worker process, the stand-in job
of tests/e2e/analysis_stub.py), its thread shows the par of each deal and the member's
costliest cards, and only then is archived and locked."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import service.challenge
from service import analysis
from tests.clocks import DateClock
from tests.fakediscord import FakeDiscord

from . import analysis_stub
from .table_helpers import World, make_world
from .test_challenge import play_try, start

DAY = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(service.challenge, "utc_now", DateClock(DAY))
    monkeypatch.setattr(analysis, "JOB", analysis_stub.deal_json)
    return await make_world(fake_discord, database_path)


async def test_the_par_of_each_deal_and_the_costliest_cards_after_a_try(world: World) -> None:
    w = world
    ana = w.members[0]
    await start(w, ana)
    live = w.bot.service.table_of(w.guild.id, ana.id)
    assert live is not None
    thread = w.fake.channel(live.row.thread_id)
    await play_try(w, ana)
    await w.bot.analyses.settled()
    await w.fake.settle()
    said = [m.content for m in w.fake.messages(thread)]
    score = next(i for i, text in enumerate(said) if "your daily deal is over" in text)
    assert said[score].endswith("The par of each deal and your costliest cards follow here "
                                "once your deals are analysed."), said[score]
    reviews = [text.splitlines() for text in said[score:]
               if text.startswith("**Your try, every hand seen**")]
    assert len(reviews) == 1, said
    review = reviews[0]
    assert review[0] == "**Your try, every hand seen** (both sides playing their best):"
    stored = await w.bot.analyses.repo.stored_deals(live.id)
    pars = [line for line in review if line.startswith("Deal ")]
    assert [line.split(":")[0] for line in pars] == [f"Deal {i + 1}" for i in sorted(stored)]
    # The stand-in's par: each deal's contract played, 40 for its side.
    for line, index in zip(pars, sorted(stored), strict=True):
        contract = stored[index]["par"]["contract"]
        if contract is None:
            assert "par is to pass" in line, line
        elif contract["team"] == 0:
            assert line.endswith("for your side, +40."), line
        else:
            assert line.endswith("for the opponents, -40 for your side."), line
    # Her costliest cards: of the cards she chose at South (seat 0) that cost anything, the
    # three dearest, as the stored analysis has them.
    costs = sorted((o["cost"] for deal in stored.values() for d in deal["decisions"]
                    if d["seat"] == 0 and "card" in d["options"][0] and len(d["options"]) > 1
                    for o in d["options"] if o["card"] == d["played"] and o["cost"] > 0),
                   reverse=True)[:3]
    cards = [line for line in review if line.startswith("• deal ")]
    assert costs and [int(line.split(" cost ")[1].split()[0]) for line in cards] == costs
    assert "Your costliest cards:" in review
    # The thread is closed after the review (a locked thread would have refused it).
    assert thread.archived and thread.locked


async def test_a_stop_before_the_review_closes_the_thread_without_it(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELOTE_TEST_ANALYSIS_HANG", "0")  # the first deal never answers
    w = world
    ana = w.members[0]
    await start(w, ana)
    live = w.bot.service.table_of(w.guild.id, ana.id)
    assert live is not None
    thread = w.fake.channel(live.row.thread_id)
    # The analysis, and the thread's close waiting for its review, never end by themselves.
    w.fake.settle_ignores.append(lambda task: task.get_name().startswith(
        ("belote-analysis", "belote-send-('thread'")))
    await play_try(w, ana)
    assert not thread.archived  # waiting for the review
    await w.fake.disconnect(w.bot)  # the worker on deal 1 ends with the bot
    assert thread.archived and thread.locked
    said = [m.content for m in w.fake.messages(thread)]
    assert any("your daily deal is over" in text for text in said)
    assert not any(text.startswith("**Your try, every hand seen**") for text in said)
