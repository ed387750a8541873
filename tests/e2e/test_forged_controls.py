"""Controls a modified client could send: ids past what the database holds (a 30-digit table
or tournament), and controls naming another server's table or tournament. Each is answered
like a stale button, changes nothing, and logs no traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.controls import button_id

from .table_helpers import World, open_table

HUGE = "9" * 30
PAST_64_BITS = str(2**63)  # 19 digits, one more than the largest 64-bit integer


async def forged_click(w: World, member: Any, message: Any, custom_id: str) -> Any:
    """A button click with a custom_id the bot never made (discord.py answers a click only
    for a custom_id on the message it came from: the message comes with it here too)."""
    fake = w.fake
    with fake.lock:
        channel = fake._message_channel(member, message)
        data = {"custom_id": custom_id, "component_type": 2}
        payload, record = fake._interaction_payload(3, member, channel, data, message)
    payload["message"]["components"] = [*payload["message"].get("components", []), {
        "type": 1, "components": [{"type": 2, "style": 2, "label": "x",
                                   "custom_id": custom_id}]}]
    return await fake._dispatch(w.bot, payload, record, wait=True)


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.exc_info is not None or r.levelno >= logging.ERROR]


@pytest.mark.parametrize("forged", [HUGE, PAST_64_BITS])
async def test_ids_past_the_databases_integers_are_unknown_controls(
        world: World, caplog: pytest.LogCaptureFixture, forged: str) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, lobby = await open_table(world, ana)
    before = fake.message(lobby.id).content
    for custom_id in (f"bt:sit:{forged}:1", f"bt:hand:{forged}",
                      f"bt:act:{table_id}:{forged}:pass", f"tn:join:{forged}",
                      f"tn:leave:{forged}", f"rk:rp:{forged}:2",
                      f"rk:lb:classic:all:0:{forged}"):
        r = await forged_click(world, world.members[1], lobby, custom_id)
        # 19 digits fit the sign-up buttons' template: a tournament no one has.
        said = "There is no such tournament." if custom_id.startswith("tn:") and \
            forged == PAST_64_BITS else "I do not know this control"
        assert r.ephemeral and said in r.text, (custom_id, r.text)
    assert fake.message(lobby.id).content == before
    assert sorted(bot.service.live[table_id].seats) == [0]
    assert tracebacks(caplog) == []


async def test_a_control_naming_another_servers_table_is_refused_as_stale(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await open_table(world, world.members[0])
    other = fake.add_guild("Elsewhere")
    there = other.add_text_channel("belote")
    eve = other.add_member("eve")
    their_id, their_lobby = await open_table(
        World(fake, bot, other, there, [eve]), eve)
    mallory = other.add_member("mallory")
    # On a message of their own server, a click naming the first server's table.
    r = await forged_click(world, mallory, their_lobby, button_id("sit", table_id, 1))
    assert r.ephemeral and f"Table #{table_id} is closed" in r.text, r.text
    r = await forged_click(world, mallory, their_lobby, button_id("rules", table_id))
    assert r.ephemeral and f"Table #{table_id} is closed" in r.text, r.text
    assert sorted(bot.service.live[table_id].seats) == [0]  # nobody sat
    assert bot.service.table_of(other.id, mallory.id) is None
    # Their own server's table still answers them.
    r = await fake.click(bot, mallory, their_lobby, button_id("sit", their_id, 1))
    assert r.callback_type == 7, r.text
    assert tracebacks(caplog) == []


async def test_a_sign_up_button_naming_another_servers_tournament_is_refused(
        world: World) -> None:
    fake, bot = world.fake, world.bot
    mod = world.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, world.channel, "belote tournament new", format="quick")
    signup = r.answer
    other = fake.add_guild("Elsewhere")
    there = other.add_text_channel("belote")
    boss = other.add_member("boss", manage_guild=True)
    theirs = await fake.slash(bot, boss, there, "belote tournament new", format="quick")
    eve = other.add_member("eve")
    r = await forged_click(world, eve, theirs.answer, "tn:join:1")  # the first server's
    assert r.ephemeral and "no such tournament" in r.text.lower(), r.text
    assert await bot.tournaments.repo.entrants(1) == []
    r = await fake.click(bot, world.members[0], signup, "tn:join:1")
    assert r.ephemeral and "signed up" in r.text, r.text
