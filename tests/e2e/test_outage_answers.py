"""Answers that cannot reach Discord while it is down: a refusal, an "unknown control", the
choices of an option, a page. Each is one WARNING saying what could not be told to whom (never
a card of a hand), counted with the outage's other failures; nothing is logged above WARNING,
nothing escapes a handler, and no action is lost or applied twice. With 5xx answers and with
dropped connections, and across a restart in the middle of the outage."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.controls import button_id, encode_action
from game.players import RandomPlayer
from game.view import Stage, table_view
from tests.fakediscord import FakeDiscord, InteractionResult

from .failing_discord import (
    ManualClock,
    assert_shows_now,
    clocked_world,
    delivered,
    restart,
    until_parked,
)
from .table_helpers import World, member_of, play_out, play_turn, start_one_deal_table
from .test_discord_outage import LOGIN

pytestmark = pytest.mark.usefixtures("instant_discord_retries")

LOST = "answer not delivered"  # how each WARNING of a lost answer begins


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: ManualClock) -> World:
    return await clocked_world(fake_discord, database_path, clock,
                               names=("ana", "bo", "cy", "dee", "eve"))


def above_warning(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name} {r.levelname}: {r.getMessage()}" for r in caplog.records
            if r.levelno > logging.WARNING or r.exc_info]


def lost(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno == logging.WARNING and r.getMessage().startswith(LOST)]


@dataclass
class Card:
    """A card button on a player's DM hand."""

    player: Any
    dm: Any
    custom_id: str
    code: str


async def play_a_card(w: World, table_id: int) -> tuple[Card, InteractionResult]:
    """The player to act plays a card: applied, but its answer (the hand's edit) is lost."""
    live = w.bot.service.live[table_id]
    seat = live.match.to_act
    code = encode_action(RandomPlayer(3).choose(table_view(live.match, seat)))
    card = Card(member_of(w, live.seats[seat].user_id),
                w.fake.message(live.seats[seat].dm_message_id),
                button_id("act", table_id, live.seq, code), code)
    seq = live.seq
    result = await w.fake.click(w.bot, card.player, card.dm, card.custom_id)
    assert live.seq > seq
    return card, result


async def clicks_of_every_kind(w: World, table_id: int, card: Card, leaderboard: Any,
                               ) -> list[tuple[int, InteractionResult]]:
    """During the outage: every kind of interaction whose answer is lost, and who made it."""
    fake, bot = w.fake, w.bot
    live = bot.service.live[table_id]
    eve = w.members[4]
    player = card.player
    # The DM still shows the card played (its edit failed): clicked again, it is stale.
    done = [(player.id, await fake.click(bot, player, card.dm, card.custom_id))]
    # A watcher presses a button for the players ("My hand": they do not play).
    done.append((eve.id, await fake.click(bot, eve, fake.message(live.row.message_id),
                                          button_id("hand", table_id))))
    # A refused command: a member at a table opens another one.
    done.append((player.id, await fake.slash(bot, player, w.channel, "belote new",
                                             variant="classic")))
    # A command answered in words: a watcher asks to leave a table they do not sit at.
    done.append((eve.id, await fake.slash(bot, eve, w.channel, "belote leave")))
    # Typing in an option: its choices are lost.
    done.append((eve.id, await fake.autocomplete(bot, eve, w.channel, "belote new", "target",
                                                 target="5")))
    # A page of the leaderboard, and a control no version of the bot knows.
    done.append((eve.id, await fake.click(bot, eve, leaderboard, "rk:lb:classic:all:0:1")))
    done.append((eve.id, await fake.click(bot, eve, leaderboard, "zz:gone")))
    for _, result in done:
        assert not result.responded, result
    return done


def told(caplog: pytest.LogCaptureFixture, clicks: list[tuple[int, InteractionResult]],
         card: str) -> None:
    """One WARNING per lost answer, naming who was not told; nothing louder; no card."""
    warned = lost(caplog)
    assert sorted(int(re.findall(r"user ([0-9]+)", line)[0]) for line in warned) == \
        sorted(user_id for user_id, _ in clicks), warned
    assert above_warning(caplog) == []
    assert not [r.getMessage() for r in caplog.records if card in r.getMessage()]


async def post_leaderboard(w: World) -> Any:
    """A board's page button, and a button of no control of ours, on a message of the bot."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="next", custom_id="rk:lb:classic:all:0:1"))
    view.add_item(discord.ui.Button(label="old", custom_id="zz:gone"))
    sent = await w.bot.get_partial_messageable(w.channel.id).send("board", view=view)
    return w.fake.message(sent.id)


@pytest.mark.parametrize("failing", ["5xx", "dropped"])
async def test_answers_lost_in_an_outage_are_one_warning_each(
        world: World, clock: ManualClock, database_path: Path,
        caplog: pytest.LogCaptureFixture, failing: str) -> None:
    fake = world.fake
    table_id = await start_one_deal_table(world)
    board = await post_leaderboard(world)
    rng = RandomPlayer(8)
    live = world.bot.service.live[table_id]
    while table_view(live.match, 0).stage is not Stage.PLAY:  # cards are played: none is named
        await play_turn(world, table_id, rng)
    await play_turn(world, table_id, rng)
    caplog.set_level(logging.INFO)
    caplog.clear()
    fake.faults.start_outage(spare=LOGIN, drop=failing == "dropped",
                             **({"status": 503} if failing == "5xx" else {}))
    card, played = await play_a_card(world, table_id)
    before = [(card.player.id, played),
              *await clicks_of_every_kind(world, table_id, card, board)]
    await fake.settle()
    assert world.bot.delivery.jobs.down  # the lost answers count with the outage's failures
    told(caplog, before, card.code)
    await restart(world, database_path, clock)  # in the middle of the outage
    for _ in range(3):
        await until_parked(world)
        clock.advance(5)
        await fake.settle()
    caplog.clear()
    # The same again after a restart (the acting player's DM is out of date: the card played
    # before is all a player can click, and it is stale).
    after = await clicks_of_every_kind(world, table_id, card, board)
    await fake.settle()
    told(caplog, after, card.code)
    fake.faults.end_outage()
    await delivered(world, clock)
    live = world.bot.service.live[table_id]
    await assert_shows_now(world, live)
    assert len(await world.bot.service.db.log.entries(table_id)) == live.seq  # nothing lost
    assert await play_out(world, table_id, seed=9) > 0
    await delivered(world, clock)

