"""A player's last click is kept for its token (it edits their hand while they think): let go,
it is freed at once, not left to the garbage collector. discord.py's interactions are reference
cycles once answered; kept for seconds by hundreds of players, they reached the collector's
oldest generation, whose full collections paused a busy bot for hundreds of milliseconds."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import discord

from bot.controls import button_id
from game.players import RandomPlayer

from .table_helpers import World, play_turn, start_table


@contextmanager
def left_to_the_collector() -> Iterator[list[object]]:
    """What becomes garbage inside the block that only the collector could free."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    found: list[object] = []
    try:
        yield found
        gc.collect()
        found.extend(o for o in gc.garbage if isinstance(o, discord.Interaction))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def test_clicks_kept_for_their_tokens_are_freed_when_let_go(world: World) -> None:
    table_id, _ = await start_table(world, "bulgarian")
    rng = RandomPlayer(4)
    for _ in range(8):  # everyone has clicked their DM hand: each click is kept
        assert (await play_turn(world, table_id, rng)).callback_type == 7
    delivery = world.bot.delivery
    assert len(delivery.dm_tokens) == 4
    with left_to_the_collector() as interactions:
        delivery.dm_tokens.clear()
    assert interactions == []
    # The table goes on: the next hands are edited as messages, as without tokens.
    assert (await play_turn(world, table_id, rng)).callback_type == 7


async def test_ephemeral_hands_kept_for_their_tokens_are_freed_when_let_go(world: World) -> None:
    closed = world.members[2]
    closed.close_dms()
    table_id, lobby = await start_table(world)
    mine = await world.fake.click(world.bot, closed, lobby, button_id("hand", table_id))
    assert mine.ephemeral and mine.callback_type == 4
    delivery = world.bot.delivery
    seat = world.bot.service.live[table_id].seat_of(closed.id)
    assert (table_id, seat) in delivery.ephemeral
    with left_to_the_collector() as interactions:
        delivery.ephemeral.clear()
    assert interactions == []
