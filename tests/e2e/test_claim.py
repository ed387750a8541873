"""Claiming the rest of a deal through the bot (issue 46): a person on lead whose cards take
every trick left whatever the others hold gets a Claim button; pressed, the deal is played out at
once (every card logged as decided "claim", the others' weakest legal cards), the claimant's
side takes every trick left and the deal sheet says it was claimed. A forged or stale Claim
click when it is not sure is refused in words and changes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.controls import button_id
from game.actions import Action, Play
from game.claim import claim_plan
from game.deal import play_tables
from game.players import RandomPlayer
from game.view import Stage, TableView, table_view
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, member_of, play_turn, start_table
from .test_forged_controls import forged_click


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock) -> World:
    return await make_world(fake_discord, database_path)


async def actions(w: World, table_id: int) -> list[dict[str, object]]:
    return [e.payload for e in await w.bot.service.db.log.entries(table_id)
            if e.kind == "action"]


class Greedy(RandomPlayer):
    """Bids at random, then plays its strongest legal card: trumps go early, and a claim
    comes within a few deals."""

    def choose(self, view: TableView) -> Action:
        if view.stage is not Stage.PLAY or view.contract is None:
            return super().choose(view)
        strength = play_tables(view.contract.trump)[0]
        return Play(max(view.legal_cards, key=lambda c: strength[c]))


def claimable(w: World, table_id: int) -> bool:
    live = w.bot.service.live[table_id]
    seat = live.match.to_act
    return seat is not None and claim_plan(table_view(live.match, seat)) is not None


async def test_a_sure_claim_is_offered_and_plays_the_deal_out(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, target=5000)
    live = bot.service.live[table_id]
    rng = Greedy(1)
    while not claimable(world, table_id):
        r = await play_turn(world, table_id, rng)
        assert r.callback_type == 7, r.text
    await fake.settle()
    match, seat = live.match, live.match.to_act
    deal = match.deal
    tricks_before = len(deal.tricks)
    left = 8 - tricks_before
    s = live.seats[seat]
    dm = fake.message(s.dm_message_id)
    claim = button_id("claim", table_id, live.seq)
    assert claim in dm.custom_ids
    assert "you may claim the rest" in str(dm.content)
    logged = len(await actions(world, table_id))

    r = await fake.click(bot, member_of(world, s.user_id), dm, claim)
    assert r.callback_type == 7, r.text
    await fake.settle()
    played = (await actions(world, table_id))[logged:logged + 4 * left]
    assert len(played) == 4 * left and all(p["by"] == "claim" for p in played)
    assert deal.is_over
    team = seat & 1
    assert all(t.winner is not None and t.winner & 1 == team for t in deal.tricks[tricks_before:])
    sheets = [m.content for m in fake.messages(fake.channel(live.row.thread_id))
              if "claimed the rest of the deal" in (m.content or "")]
    assert len(sheets) == 1  # the deal sheet says so
    assert f"🏁 {s.name} claimed the rest of the deal" in sheets[0]


async def test_a_claim_that_is_not_sure_is_refused_and_changes_nothing(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, target=5000)
    live = bot.service.live[table_id]
    rng = RandomPlayer(5)
    # In the play, on someone's lead, with a claim that is not sure.
    while live.match.deal.phase.value != "play" or live.match.deal.trick or \
            claimable(world, table_id):
        r = await play_turn(world, table_id, rng)
        assert r.callback_type == 7, r.text
    await fake.settle()
    seat = live.match.to_act
    s = live.seats[seat]
    dm = fake.message(s.dm_message_id)
    claim = button_id("claim", table_id, live.seq)
    assert claim not in dm.custom_ids  # not offered
    seq, logged = live.seq, len(await actions(world, table_id))
    r = await forged_click(world, member_of(world, s.user_id), dm, claim)
    assert r.ephemeral and "do not take every trick left" in r.text
    assert live.seq == seq and len(await actions(world, table_id)) == logged
    assert live.match.to_act == seat
    # Someone else's claim, or an old one, is refused too.
    other = live.seats[(seat + 1) % 4]
    r = await forged_click(world, member_of(world, other.user_id),
                           fake.message(other.dm_message_id), claim)
    assert r.ephemeral and "turn" in r.text
    r = await forged_click(world, member_of(world, s.user_id), dm,
                           button_id("claim", table_id, seq - 1))
    assert r.ephemeral and "out of date" in r.text
    assert live.seq == seq and len(await actions(world, table_id)) == logged
