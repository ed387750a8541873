"""The analysis of finished matches (issue 42) through the fake Discord: run in its worker
process deal by deal, stored, resumed once after a restart in its middle, and asked for at
every match's end on a server with ``analysis: on``.

The stand-in job (tests/e2e/analysis_stub.py) answers at once with made-up values where the
real solver's would take seconds a deal; one test runs the real one on a one-deal match."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import analysis_pool, create_bot
from db.analyses import DONE, RUNNING
from service import analysis
from tests.fakediscord import FakeDiscord

from . import analysis_stub
from .table_helpers import World, make_world, play_out, start_table


@pytest.fixture
def stub_job(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "JOB", analysis_stub.deal_json)


@pytest.fixture(autouse=True)
def _clicks_do_not_wait_for_analyses(fake_discord: FakeDiscord) -> None:
    """A click is answered before the analysis it may start is over: the harness waits for
    a click's work, not for the analysis (the tests wait for that themselves)."""
    fake_discord.settle_ignores.append(lambda task: task.get_name() == "belote-analysis")


async def finished_match(world: World, variant: str = "classic", target: int = 300,
                         seed: int = 3) -> int:
    """A match played to its end by the four members (two deals at these settings)."""
    table_id, _ = await start_table(world, variant, target=target)
    assert await play_out(world, table_id, seed=seed) > 0
    return table_id


async def test_a_restart_in_the_middle_of_an_analysis_resumes_it_once(
        fake_discord: FakeDiscord, database_path: Path, monkeypatch: pytest.MonkeyPatch,
        stub_job: None) -> None:
    monkeypatch.setenv("BELOTE_TEST_ANALYSIS_HANG", "1")  # the second deal never answers
    world = await make_world(fake_discord, database_path)
    table_id = await finished_match(world)
    first = world.bot.analyses
    one_done = asyncio.get_running_loop().create_future()

    async def heard(p: analysis.Progress) -> None:
        if p.done == 1 and not one_done.done():
            one_done.set_result(p)
    first.listen(table_id, heard)
    asked = await first.ask(world.guild.id, table_id)
    assert asked is not None and asked.state == "queued"
    progress = await one_done
    assert (progress.state, progress.done, progress.deals) == (RUNNING, 1, 2)
    assert first.ran == [(table_id, 0)]
    # Asked again while it runs: nothing more is queued.
    again = await first.ask(world.guild.id, table_id)
    assert again is not None and (again.state, again.done) == (RUNNING, 1)
    assert list(first.pending()) == [table_id]

    monkeypatch.delenv("BELOTE_TEST_ANALYSIS_HANG")
    await fake_discord.disconnect(world.bot)  # the worker on deal 2 ends with the bot
    world.bot = await fake_discord.start_bot(create_bot, database_path, computer_delay=0)
    second = world.bot.analyses
    await second.settled()
    # Resumed from the stored deal: only the second deal analysed, once.
    assert second.ran == [(table_id, 1)]
    row = await second.repo.get(table_id)
    assert row is not None and (row.state, row.done, row.deals, row.starts) == (DONE, 2, 2, 2)
    stored = await second.repo.stored_deals(table_id)
    assert sorted(stored) == [0, 1]
    # What each member's cards cost is stored once, under their id.
    players = await second.repo.players(table_id)
    assert {p.user_id for p in players} == {m.id for m in world.members[:4]}
    # A later ask, or a restart, analyses nothing again.
    done = await second.ask(world.guild.id, table_id)
    assert done is not None and done.state == DONE
    await fake_discord.disconnect(world.bot)
    world.bot = await fake_discord.start_bot(create_bot, database_path, computer_delay=0)
    await world.bot.analyses.settled()
    assert world.bot.analyses.ran == []


async def test_a_running_match_is_not_analysed(world: World, stub_job: None) -> None:
    table_id, _ = await start_table(world, "classic", target=300)
    assert await world.bot.analyses.ask(world.guild.id, table_id) is None
    assert await world.bot.analyses.progress(table_id) is None


async def test_a_server_with_analysis_on_has_every_match_analysed_at_its_end(
        fake_discord: FakeDiscord, database_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real solver, in its worker process, on a one-deal match. Its worker at the
    suite's own priority here (tests/bot/test_analysis_pool.py checks the niceness): at the
    lowest, beside a whole suite running in parallel, it would wait for minutes."""
    monkeypatch.setattr(analysis_pool, "NICENESS", 0)
    world = await make_world(fake_discord, database_path)
    fake, bot = world.fake, world.bot
    mod = world.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, world.channel, "belote config", analysis="on")
    assert "Every match analysed at its end: on (changed)" in r.text, r.text
    table_id = await finished_match(world, target=1)
    await bot.analyses.settled()
    assert bot.analyses.ran == [(table_id, 0)]
    row = await bot.analyses.repo.get(table_id)
    assert row is not None and (row.state, row.done, row.deals) == (DONE, 1, 1)
    [deal] = (await bot.analyses.repo.stored_deals(table_id)).values()
    cards = [d for d in deal["decisions"] if "card" in d["options"][0]]
    assert len(cards) == 32 and all(min(o["cost"] for o in d["options"]) == 0 for d in cards)


async def test_analysis_is_off_by_default(world: World, stub_job: None) -> None:
    table_id = await finished_match(world, target=1)
    await world.bot.analyses.settled()
    assert await world.bot.analyses.progress(table_id) is None
