"""One error path for slash commands and controls: a refusal is answered privately in the rules'
words; anything unexpected gets a short private apology and exactly one logged traceback, never
Discord's "The application did not respond"."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot import answers, images
from bot.controls import UNKNOWN_CONTROL, button_id
from bot.errors import APOLOGY
from db.results import RatingRow
from service import Refusal
from tests.fakediscord import InteractionResult

from .table_helpers import World, open_table, seat_everyone
from .test_slow_answers import until


class Boom(RuntimeError):
    pass


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[BaseException | None]:
    """The exceptions logged with their traceback."""
    return [r.exc_info[1] for r in caplog.records if r.exc_info is not None]


def raising(error: BaseException) -> Any:
    async def fail(*args: Any, **kwargs: Any) -> Any:
        raise error
    return fail


async def test_a_failing_slash_command_apologises_privately_and_logs_one_traceback(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    boom = Boom("the database went away")
    monkeypatch.setattr(world.bot.service.db.results, "leaderboard", raising(boom))
    r = await world.fake.slash(world.bot, world.members[0], world.channel, "belote leaderboard")
    assert r.callback_type == 4 and r.ephemeral and r.text == APOLOGY
    assert tracebacks(caplog) == [boom]


async def test_a_slash_command_failing_after_its_defer_still_gets_its_apology(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Slow enough to be deferred ("thinking…" for the channel), then failing: the apology
    goes to its user alone, and the public placeholder does not stay."""
    boom = Boom("names lost")
    ana = world.members[0]
    started: list[InteractionResult] = []

    async def one_row(*args: Any) -> list[RatingRow]:
        return [RatingRow(ana.id, 1500.0, 1, 1)]

    async def lost_once_deferred(*args: Any) -> Any:
        await until(lambda: bool(started) and started[0].responded, "the command was deferred")
        raise boom
    monkeypatch.setattr(world.bot.service.db.results, "leaderboard", one_row)
    monkeypatch.setattr(world.bot.service.db.tables, "names", lost_once_deferred)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await world.fake.slash(world.bot, ana, world.channel, "belote leaderboard", wait=False)
    started.append(r)
    await world.fake.settle()
    assert r.callback_type == 5  # it had deferred ("thinking...") before it failed
    assert r.answer.deleted and [m.content for m in r.followups] == [APOLOGY]
    assert r.followups[0].ephemeral
    assert not r.rejected
    assert tracebacks(caplog) == [boom]


async def test_a_private_command_failing_after_its_defer_still_gets_its_apology(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    boom = Boom("the database went away")
    started: list[InteractionResult] = []

    async def lost_once_deferred(*args: Any, **kwargs: Any) -> Any:
        await until(lambda: bool(started) and started[0].responded, "the command was deferred")
        raise boom
    monkeypatch.setattr(world.bot.credits, "wallet", lost_once_deferred)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await world.fake.slash(world.bot, world.members[0], world.channel, "belote wallet",
                               wait=False)
    started.append(r)
    await world.fake.settle()
    assert r.callback_type == 5 and r.ephemeral  # "thinking…" for its user alone
    assert r.text == APOLOGY and not r.answer.flags & 128  # no longer "thinking"
    assert not r.rejected
    assert tracebacks(caplog) == [boom]


async def test_a_refusal_in_any_slash_command_is_answered_in_its_words(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(world.bot.service.db.results, "leaderboard",
                        raising(Refusal("tables.not_saved")))
    r = await world.fake.slash(world.bot, world.members[0], world.channel, "belote leaderboard")
    assert r.ephemeral and r.text == "That could not be saved; nothing changed. Try again."
    assert not tracebacks(caplog)  # a refusal is no error


async def test_refusals_of_slash_commands_keep_their_words(world: World) -> None:
    ana, bo = world.members[0], world.members[1]
    table_id, _ = await open_table(world, ana, variant="classic")
    r = await world.fake.slash(world.bot, bo, world.channel, "belote end", table=table_id)
    assert r.ephemeral and "host" in r.text.lower(), r.text
    r = await world.fake.slash(world.bot, ana, world.channel, "belote new", variant="classic")
    assert r.ephemeral and r.callback_type == 4, r.text
    assert world.bot.service.table_of(world.guild.id, ana.id).id == table_id


async def test_a_failing_control_apologises_privately_and_logs_one_traceback(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    ana = world.members[0]
    table_id, lobby = await open_table(world, ana, variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)
    boom = Boom("the dealer dropped the cards")
    monkeypatch.setattr(world.bot.service, "start", raising(boom))
    r = await world.fake.click(world.bot, ana, lobby, button_id("start", table_id))
    assert r.callback_type == 4 and r.ephemeral and r.text == APOLOGY
    assert tracebacks(caplog) == [boom]
    assert world.fake.message(lobby.id).content == lobby.content  # nothing changed


async def test_a_bug_deep_down_is_not_mistaken_for_an_unknown_control(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    ana = world.members[0]
    table_id, lobby = await open_table(world, ana, variant="classic")
    boom = ValueError("a bug, not a bad control")
    monkeypatch.setattr(world.bot.service, "sit", raising(boom))
    r = await world.fake.click(world.bot, world.members[1], lobby, button_id("sit", table_id, 1))
    assert r.ephemeral and r.text == APOLOGY
    assert tracebacks(caplog) == [boom]


async def test_a_malformed_control_is_still_an_unknown_control(world: World) -> None:
    ana = world.members[0]
    table_id, _ = await open_table(world, ana, variant="classic")
    view = discord.ui.View(timeout=None)
    for custom_id in (f"bt:sit:{table_id}", f"bt:sit:{table_id}:x", f"bt:act:{table_id}:1:fly"):
        view.add_item(discord.ui.Button(label=custom_id, custom_id=custom_id))
    old = await world.bot.get_partial_messageable(world.channel.id).send("old", view=view)
    for custom_id in (f"bt:sit:{table_id}", f"bt:sit:{table_id}:x", f"bt:act:{table_id}:1:fly"):
        r = await world.fake.click(world.bot, world.members[1], old.id, custom_id)
        assert r.ephemeral and r.text == UNKNOWN_CONTROL, (custom_id, r.text)


async def test_a_control_failing_after_its_defer_still_gets_its_apology(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    ana = world.members[0]
    table_id, lobby = await open_table(world, ana, variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)
    boom = Boom("out of ink")
    monkeypatch.setattr(answers, "BUDGET", 0.0)  # the table image is late: the click is deferred
    drawn = asyncio.Event()

    async def late_and_failing(*args: Any) -> Any:
        await drawn.wait()
        raise boom
    monkeypatch.setattr(images, "table_image", late_and_failing)
    r = await world.fake.click(world.bot, ana, lobby, button_id("start", table_id), wait=False)
    try:
        for _ in range(500):
            if r.callback_type is not None:
                break
            await asyncio.sleep(0.004)
    finally:
        drawn.set()
    await world.fake.settle()
    assert r.callback_type == 6  # deferred before the image failed
    assert [m.content for m in r.followups] == [APOLOGY] and r.followups[0].ephemeral
    assert not r.rejected
    assert tracebacks(caplog) == [boom]


async def test_an_answer_too_late_for_discord_is_one_warning_not_a_traceback(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    ana = world.members[0]
    table_id, lobby = await open_table(world, ana, variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)
    world.fake.callback_deadline = 0.0  # every answer from now on comes after Discord's limit
    mark = world.fake.mark()
    r = await world.fake.click(world.bot, ana, lobby, button_id("start", table_id))
    assert r.callback_type is None and set(r.error_codes) == {10062}
    assert not [q for q in world.fake.requests_to(since=mark) if "/webhooks/" in q.path]
    assert not tracebacks(caplog)
    assert [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name.startswith("bot.")] == [
        ("WARNING", f"answer not delivered (control start of table {table_id}): user {ana.id} "
         "was not told its answer (too late: Discord had forgotten the interaction)")]
