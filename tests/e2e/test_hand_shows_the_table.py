"""The player to act reads what they need from the table in their own hand message: the calls
so far while bidding, the trick so far, or the trick just taken when they lead. Nobody waits
for a table message a busy bot edits late, and the other hands are not edited for it."""

from __future__ import annotations

from typing import Any

from bot.controls import button_id, encode_action
from game.actions import PASS
from game.players import RandomPlayer

from .table_helpers import World, play_turn, start_table


def dm_of(w: World, table_id: int, seat: int) -> Any:
    live = w.bot.service.live[table_id]
    return w.fake.message(live.seats[seat].dm_message_id)


def line_of(content: str, start: str) -> str | None:
    return next((line for line in content.split("\n") if line.startswith(start)), None)


async def test_the_player_to_act_sees_the_calls_then_the_trick_in_their_hand(
        world: World) -> None:
    table_id, _ = await start_table(world)
    live = world.bot.service.live[table_id]
    rng = RandomPlayer(5)
    table = world.fake.message(live.row.message_id)
    # Bidding: the card turned up and the calls so far, as the table message words them.
    first = live.match.to_act
    hand = dm_of(world, table_id, first).content
    assert "Your turn" in hand
    bidding = line_of(hand, "Bidding")
    assert bidding is not None and bidding == line_of(table.content, "Bidding")
    # The first player passes: the next one reads that pass in their own hand.
    member = next(m for m in world.members if m.id == live.seats[first].user_id)
    passed = await world.fake.click(world.bot, member, dm_of(world, table_id, first),
                                    button_id("act", table_id, live.seq, encode_action(PASS)))
    assert passed.callback_type == 7, passed.text
    after = dm_of(world, table_id, live.match.to_act).content
    assert "Your turn" in after
    assert line_of(after, "Bidding") == line_of(world.fake.message(
        live.row.message_id).content, "Bidding")
    assert f"{live.match.players[first]} pass" in (line_of(after, "Bidding") or "")
    while live.match.deal.phase.name == "BIDDING":
        await play_turn(world, table_id, rng)
    # The play: after one card, the next player's hand shows it; the others' do not.
    await play_turn(world, table_id, rng)
    seat = live.match.to_act
    trick = line_of(dm_of(world, table_id, seat).content, "Trick:")
    assert trick is not None and trick == line_of(
        world.fake.message(live.row.message_id).content, "Trick:")
    for other in range(4):
        if other != seat:
            content = dm_of(world, table_id, other).content
            assert line_of(content, "Trick:") is None and "Your turn" not in content
    # A hand not to act is not edited as the trick goes on: nothing it shows changed.
    waiting = next(s for s in range(4) if s not in (seat, (seat + 1) & 3))
    edits = len(dm_of(world, table_id, waiting).versions)
    await play_turn(world, table_id, rng)
    assert len(dm_of(world, table_id, waiting).versions) == edits


async def test_the_leader_sees_the_trick_just_taken(world: World) -> None:
    table_id, _ = await start_table(world)
    live = world.bot.service.live[table_id]
    rng = RandomPlayer(6)
    while live.match.deal is None or not live.match.deal.tricks:
        await play_turn(world, table_id, rng)
    taken = live.match.deal.tricks[-1]
    leader = live.match.to_act
    assert leader == taken.winner
    names = live.match.players
    hand = dm_of(world, table_id, leader).content
    last = line_of(hand, "Last trick:")
    assert last is not None and last.endswith(f"won by {names[taken.winner]}.")
    for i in range(4):
        assert names[taken.seat_of(i)] in last
    assert line_of(hand, "Trick:") is None
