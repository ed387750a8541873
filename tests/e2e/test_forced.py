"""Forced cards through the bot (issue 46): a person whose only legal card is left (the last
trick's always) has it played for them after a short beat, on the tables' injected clock, with
no click; the table says so, the log records it as decided "forced", no turn timer runs on it;
a server's ``autoplay: off`` plays nothing by itself; a restart in the beat loses nothing and
plays nothing twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.settings as bot_settings
from game.cards import card_str
from game.choices import forced_card
from game.players import RandomPlayer
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, play_turn, restart, start_table

BEAT = 0.8


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock,
                monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(bot_settings, "DEFAULT_FORCED_DELAY", BEAT)  # as a live bot has it
    return await make_world(fake_discord, database_path)


async def to_a_forced_card(w: World, table_id: int) -> int:
    """People click at random until the one to act has a single legal card; their seat."""
    rng = RandomPlayer(7)
    live = w.bot.service.live[table_id]
    while forced_card(live.match.deal) is None:
        r = await play_turn(w, table_id, rng)
        assert r.callback_type == 7, r.text
    await w.fake.settle()
    seat: int | None = live.match.to_act
    assert seat is not None
    return seat


async def advance(w: World, clock: FakeClock, seconds: float) -> None:
    clock.advance(seconds)
    await w.fake.settle()


async def actions(w: World, table_id: int) -> list[dict[str, object]]:
    return [e.payload for e in await w.bot.service.db.log.entries(table_id)
            if e.kind == "action"]


async def test_a_forced_card_is_played_after_the_beat_and_no_timer_runs(
        world: World, table_clock: FakeClock) -> None:
    fake, bot = world.fake, world.bot
    table_id, lobby = await start_table(world, target=1, turn_timer=30)
    live = bot.service.live[table_id]
    seat = await to_a_forced_card(world, table_id)
    card = forced_card(live.match.deal)
    assert card is not None
    seq, logged = live.seq, len(await actions(world, table_id))
    assert live.timer_key is None and live.deadline is None  # nobody is waited for
    assert "time runs out" not in fake.message(lobby.id).content

    await advance(world, table_clock, BEAT - 0.1)
    assert live.seq == seq  # the beat: the others see the trick before the card comes
    await advance(world, table_clock, 0.1)
    assert live.seq > seq  # played, with no click
    played = (await actions(world, table_id))[logged]
    assert played["seat"] == seat and played["by"] == "forced"
    assert played["card"] == card_str(card)
    assert live.seats[seat].missed == 0 and live.seats[seat].computer is None
    name = live.seats[seat].name
    if table_id in bot.service.live:  # the deal goes on: the table message marks it
        assert f"⏩ {name} had only " in fake.message(lobby.id).content
    # What a person clicks is still theirs: no other entry says "forced" unless it was.
    for payload in (await actions(world, table_id))[:logged]:
        assert "by" not in payload


async def test_autoplay_off_plays_nothing_by_itself(world: World, table_clock: FakeClock) -> None:
    fake, bot = world.fake, world.bot
    mod = world.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, world.channel, "belote config", autoplay="off")
    assert "Forced cards played for the player: off (changed)" in r.text, r.text
    table_id, lobby = await start_table(world, target=1, turn_timer=30)
    live = bot.service.live[table_id]
    assert not live.row.autoplay
    seat = await to_a_forced_card(world, table_id)
    seq = live.seq
    await advance(world, table_clock, 10)
    assert live.seq == seq and live.match.to_act == seat  # waits for their click
    assert live.timer_key == (seq, seat)  # and their timer runs, as for any turn
    assert "⏩" not in fake.message(lobby.id).content


async def test_a_restart_in_the_beat_loses_nothing_and_plays_nothing_twice(
        world: World, table_clock: FakeClock, database_path: Path) -> None:
    table_id, _ = await start_table(world, target=1)
    live = world.bot.service.live[table_id]
    seat = await to_a_forced_card(world, table_id)
    seq, logged = live.seq, len(await actions(world, table_id))
    await advance(world, table_clock, BEAT / 2)
    await restart(world, database_path)
    live = world.bot.service.live[table_id]
    assert live.seq == seq and live.match.to_act == seat  # nothing lost, nothing played yet
    await advance(world, table_clock, BEAT)
    after = await actions(world, table_id)
    forced = [p for p in after[logged:] if p.get("by") == "forced" and p["seat"] == seat]
    assert len(forced) == 1  # played once, by the restarted bot only
    assert after[logged]["seat"] == seat


async def test_a_table_from_before_migration_0022_plays_its_forced_cards(
        world: World, table_clock: FakeClock, database_path: Path) -> None:
    """A table opened before the autoplay column holds NULL there: after the upgrade (a
    restart) it goes on where it was, and plays forced cards as the default says."""
    table_id, _ = await start_table(world, target=1)
    seq = world.bot.service.live[table_id].seq
    await world.bot.service.db.write("UPDATE tables SET autoplay = NULL WHERE id = ?",
                                     (table_id,))
    await restart(world, database_path)
    live = world.bot.service.live[table_id]
    assert live.seq == seq and live.row.autoplay
    seat = await to_a_forced_card(world, table_id)
    seq = live.seq
    await advance(world, table_clock, BEAT)
    assert live.seq > seq
    assert any(p.get("by") == "forced" and p["seat"] == seat
               for p in await actions(world, table_id))
