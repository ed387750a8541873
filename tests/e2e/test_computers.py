"""Computer players through the bot: added by the host, named and marked, acting after the
delay, deciding off the event loop, and the hard level playing a whole match."""

from __future__ import annotations

import functools
import threading
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

import game.ai.hard as hard
import service.tables.state as table_state
from bot import create_bot
from bot.controls import button_id
from game.actions import Action
from game.ai.hard import HardPlayer
from game.players import Player, RandomPlayer
from game.view import TableView
from service import computers
from tests.fakediscord import FakeDiscord

from .table_helpers import World, open_table, play_out, play_turn


async def world_with(fake: FakeDiscord, database_path: Path, **settings: Any) -> World:
    guild = fake.add_guild("Cafe")
    channel = guild.add_text_channel("belote")
    members = [guild.add_member(n) for n in ("ana", "bo", "cy")]
    bot = await fake.start_bot(create_bot, database_path, **settings)
    return World(fake, bot, guild, channel, members)


async def test_the_host_adds_computers_and_people_may_take_their_seats(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    w = await world_with(fake_discord, database_path, computer_delay=0)
    fake, bot = w.fake, w.bot
    ana, bo, cy = w.members
    table_id, lobby = await open_table(w, ana, variant="classic", target=1)
    r = await fake.click(bot, bo, lobby, button_id("cpu", table_id, 2))
    assert r.ephemeral and "Only the host" in r.text
    r = await fake.click(bot, ana, lobby, button_id("cpu", table_id, 2))
    assert r.callback_type == 7
    content = fake.message(lobby.id).content
    assert "North: ⚙ Nora (easy)" in content
    assert fake.message(lobby.id).component(button_id("sit", table_id, 2))["label"] == \
        "North: ⚙ Nora (easy)"
    assert button_id("cpu", table_id, 2) not in fake.message(lobby.id).custom_ids
    r = await fake.click(bot, cy, lobby, button_id("sit", table_id, 2))  # a person takes it
    assert r.callback_type == 7 and "North: cy" in r.answer.content
    for seat in (1, 3):
        r = await fake.click(bot, ana, lobby, button_id("cpu", table_id, seat))
        assert r.callback_type == 7
    live = bot.service.live[table_id]
    assert [live.seats[s].computer for s in range(4)] == [None, "easy", None, "easy"]
    r = await fake.click(bot, ana, lobby, button_id("start", table_id))
    assert r.callback_type == 7
    table = fake.message(lobby.id).content
    assert "East: ⚙ Remy" in table and "West: ⚙ Lou" in table
    assert live.match.players[1] == "⚙ Remy"  # the names the table image draws
    assert await play_out(w, table_id, seed=1) > 0
    rows = await bot.service.db.fetchall(
        "SELECT seat, user_id, computer FROM match_players p JOIN matches m ON m.seq = p.seq"
        " WHERE m.table_id = ? ORDER BY seat",
        (table_id,))
    assert [(r[0], r[2]) for r in rows] == [(0, None), (1, "easy"), (2, None), (3, "easy")]


async def test_computers_wait_the_delay_and_think_off_the_loop(
        fake_discord: FakeDiscord, database_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real = computers.make_player

    def spying(level: str, seed: int) -> Player:
        player = real(level, seed)
        choose = player.choose

        def choose_and_note(view: TableView) -> Action:
            threads.append(threading.current_thread().name)
            return choose(view)

        player.choose = choose_and_note  # type: ignore[method-assign]
        return player

    monkeypatch.setattr(table_state, "make_player", spying)
    delay = 0.25
    w = await world_with(fake_discord, database_path, computer_delay=delay)
    table_id, lobby = await open_table(w, w.members[0], variant="bulgarian", computers=True)
    await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    for _ in range(3):
        await play_out_steps(w, table_id)
    rows = await w.bot.service.db.fetchall(
        "SELECT user_id, created_at FROM actions WHERE table_id = ? AND kind = 'action'"
        " ORDER BY seq", (table_id,))
    times = [(r[0], datetime.fromisoformat(r[1].replace("Z", "+00:00"))) for r in rows]
    # A run of computer moves (batch.py) starts one delay after the person's action.
    gaps = [(b - a).total_seconds() for (person, a), (who, b) in pairwise(times)
            if who is None and person is not None]
    assert gaps and min(gaps) >= delay - 0.01, gaps
    assert threads and threading.main_thread().name not in threads


async def play_out_steps(w: World, table_id: int) -> None:
    """One click by the person at the table when it is their turn."""
    live = w.bot.service.live[table_id]
    if live.seats[live.match.to_act].computer is None:
        await play_turn(w, table_id, RandomPlayer(live.seq))


async def test_the_hard_level_plays_a_whole_match(fake_discord: FakeDiscord, database_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # A small budget keeps the test quick; the search and sampling are the real ones.
    monkeypatch.setattr(hard, "Budget", functools.partial(hard.Budget, work=1500,
                                                          max_samples=8, min_samples=2,
                                                          exact_cards=6))
    w = await world_with(fake_discord, database_path, computer_delay=0, computer_level="hard")
    table_id, lobby = await open_table(w, w.members[0], variant="coinche", target=1,
                                       computers=True)
    await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    live = w.bot.service.live[table_id]
    assert "⚙ Remy" in w.fake.message(lobby.id).content
    assert all(isinstance(live.player(s), HardPlayer) for s in (1, 2, 3))
    assert await play_out(w, table_id, seed=3) > 0
    assert (await w.bot.service.db.results.winner_of(table_id)) in (0, 1)


@pytest.fixture(autouse=True)
def _quick_settle(fake_discord: FakeDiscord) -> None:
    fake_discord.settle_timeout = 30  # three computers in a row after one click
