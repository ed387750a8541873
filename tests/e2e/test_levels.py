"""Computer levels per seat: the host picks easy or hard for each computer added, /belote new
sets the table's level (filling seats and taking over), and every seat shows its level."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.controls import button_id
from game.ai.easy import EasyPlayer
from game.ai.hard import HardPlayer
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, open_table


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path) -> World:
    # The bot's default level is hard: the tables below choose otherwise.
    return await make_world(fake_discord, database_path, ("ana", "bo"), computer_level="hard")


async def test_the_host_picks_a_level_for_each_computer(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members
    table_id, lobby = await open_table(world, ana, variant="coinche", level="easy")
    message = fake.message(lobby.id)
    assert "computers: easy" in message.content
    # Two rows of buttons: the table's level (easy) first, then hard.
    assert message.component(button_id("cpu", table_id, 1))["label"] == "Easy → East"
    assert message.component(button_id("cpu", table_id, 1, "hard"))["label"] == "Hard → East"
    r = await fake.click(bot, bo, lobby, button_id("cpu", table_id, 1, "hard"))
    assert r.ephemeral and "Only the host" in r.text
    r = await fake.click(bot, ana, lobby, button_id("cpu", table_id, 1, "hard"))
    assert r.callback_type == 7
    r = await fake.click(bot, ana, lobby, button_id("cpu", table_id, 2))
    assert r.callback_type == 7
    message = fake.message(lobby.id)
    assert "East: ⚙ Remy (hard)" in message.content
    assert "North: ⚙ Nora (easy)" in message.content
    assert message.component(button_id("sit", table_id, 1))["label"] == \
        "East: ⚙ Remy (hard)"
    assert not [c for c in message.custom_ids if c.startswith(f"bt:cpu:{table_id}:1")]
    live = bot.service.live[table_id]
    assert [live.seats[s].computer for s in (1, 2)] == ["hard", "easy"]
    card = await fake.click(bot, bo, lobby, button_id("rules", table_id))
    assert "Computers play at level easy (East hard)" in card.text
    await fake.click(bot, ana, lobby, button_id("cpu", table_id, 3, "hard"))
    await fake.click(bot, ana, lobby, button_id("start", table_id))
    assert isinstance(live.player(1), HardPlayer) and isinstance(live.player(2), EasyPlayer)
    assert "East: ⚙ Remy" in fake.message(lobby.id).content


async def test_the_tables_level_fills_seats_and_takes_over(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members
    table_id, lobby = await open_table(world, ana, variant="classic", computers=True,
                                       level="easy")
    r = await fake.click(bot, bo, lobby, button_id("sit", table_id, 2))
    assert r.callback_type == 7
    live = bot.service.live[table_id]
    assert [live.seats[s].computer for s in range(4)] == [None, "easy", None, "easy"]
    await fake.click(bot, ana, lobby, button_id("start", table_id))
    r = await fake.slash(bot, bo, world.channel, "belote leave")
    assert "a computer plays your seat" in r.text
    assert live.seats[2].computer == "easy"  # the table's level, not the bot's (hard)
    assert "bo (⚙ Nora)" in fake.message(lobby.id).content
    # A table without the option uses the bot's level.
    mod = world.guild.add_member("mod", manage_guild=True)  # who may end a game (issue 48)
    await fake.slash(bot, mod, world.channel, "belote end", table=table_id)
    table_id, lobby = await open_table(world, ana, variant="classic", computers=True)
    assert [s.computer for s in bot.service.live[table_id].seats.values()][1:] == ["hard"] * 3
    assert "computers: hard" in fake.message(lobby.id).content
    assert not [c for c in fake.message(lobby.id).custom_ids if ":cpu:" in c]  # all seats full
