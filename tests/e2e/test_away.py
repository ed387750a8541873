"""Turns away (the server's away_turns): a player who lets their timer run out has a computer
play that turn for them, their seat still theirs; once they let away_turns turns in a row run
out they are away: a computer plays their seat until they press "Take my seat back". A turn
played in time starts the count again."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.controls import button_id
from game.players import RandomPlayer
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, open_table, play_turn


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock) -> World:
    w = await make_world(fake_discord, database_path, ("ana",))
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await w.fake.slash(w.bot, mod, w.channel, "belote config", away_turns=2)
    assert "Turns away before a takeover: 2 (changed)" in r.text, r.text
    return w


async def test_a_takeover_after_away_turns_in_a_row(world: World, table_clock: FakeClock) -> None:
    w = world
    ana = w.members[0]
    table_id, lobby = await open_table(w, ana, variant="classic", computers=True, turn_timer=30)
    live = w.bot.service.live[table_id]
    assert live.row.away_turns == 2
    live.row.first_dealer = 3  # West deals: South (ana) bids first
    r = await w.fake.click(w.bot, ana, lobby, button_id("start", table_id))
    assert r.callback_type == 7, r.text
    await w.fake.settle()
    seat = live.seats[0]

    async def run_out() -> None:
        """ana's timer runs out (the computers then act at once, up to her next turn)."""
        assert live.match.to_act == 0 and live.timer_key == (live.seq, 0)
        table_clock.advance(30)
        await w.fake.settle()

    # Once: a computer plays that turn for her, the seat stays hers.
    seq = live.seq
    await run_out()
    entries = await w.bot.service.db.log.entries(table_id)
    assert entries[seq].payload["seat"] == 0 and entries[seq].user_id is None
    # The log says who decided (issue 46): her timer ran out, then the computers' own moves.
    assert entries[seq].payload["by"] == "timeout"
    assert {e.payload["by"] for e in entries[seq + 1:] if e.kind == "action"} == {"computer"}
    assert (seat.computer, seat.missed) == (None, 1)
    assert (await w.bot.service.db.tables.seats(table_id))[0].missed == 1  # saved
    # She plays her next turn in time: the count starts again.
    r = await play_turn(w, table_id, RandomPlayer(2))
    assert r.callback_type == 7, r.text
    await w.fake.settle()
    assert (seat.missed, seat.computer) == (0, None)
    # Twice in a row: she is away, a computer plays her seat, the game waits for her.
    await run_out()
    assert (seat.computer, seat.missed) == (None, 1)
    await run_out()
    assert (seat.computer, seat.timed_out) == ("easy", True) and live.paused
    said = [m.content for m in w.fake.messages(w.fake.channel(live.row.thread_id))
            if f"<@{ana.id}>, your time ran out" in m.content]
    assert len(said) == 1 and "**Take my seat back**" in said[0]
    r = await w.fake.click(w.bot, ana, w.fake.message(seat.dm_message_id),
                           button_id("back", table_id))
    assert r.callback_type == 7, r.text
    assert (seat.computer, seat.timed_out, seat.missed) == (None, False, 0)
