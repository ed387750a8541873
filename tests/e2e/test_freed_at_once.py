"""What a click leaves behind is freed at once, not left to the garbage collector: discord.py's
answered interactions, views and their items are reference cycles, which only the collector
frees, and its collections pause the whole bot for as long as they take (tens of milliseconds
for the views a busy minute makes; hundreds for the oldest generation, where a player's last
click, kept for its token while they think, used to end up)."""

from __future__ import annotations

import gc
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bot.controls import button_id
from game.players import RandomPlayer

from .table_helpers import World, play_turn, start_table


def ours(o: object) -> bool:
    """An object of discord.py or of the bot (the fake Discord's own garbage is not ours)."""
    return type(o).__module__.split(".")[0] in ("discord", "bot")


@contextmanager
def left_to_the_collector(counted: Callable[[object], bool] = ours) -> Iterator[list[object]]:
    """The objects (``counted``: of discord.py and of the bot) that become garbage inside the
    block and only the collector could free."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    found: list[object] = []
    try:
        yield found
        gc.collect()
        found.extend(o for o in gc.garbage if counted(o))
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
    assert len(delivery.tokens.dm) == 4
    with left_to_the_collector() as interactions:
        delivery.tokens.dm.clear()
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
    assert (table_id, seat) in delivery.tokens.ephemeral
    with left_to_the_collector() as interactions:
        delivery.tokens.ephemeral.clear()
    assert interactions == []


async def test_playing_cards_leaves_nothing_to_the_collector(world: World) -> None:
    table_id, _ = await start_table(world, "coinche")
    rng = RandomPlayer(5)
    for _ in range(4):  # every seat's click is kept for its token from now on
        await play_turn(world, table_id, rng)
    with left_to_the_collector() as left:
        for _ in range(24):  # bids and cards: answers, table edits, hands edited by token
            assert (await play_turn(world, table_id, rng)).callback_type == 7
    assert sorted({type(o).__qualname__ for o in left}) == []


async def test_images_sent_are_freed_at_once(world: World) -> None:
    """discord.py's File leaves its buffer in a reference cycle once closed: the bot's images
    (a table, a hand: 13-30 KB each) would stay in memory until a collection."""
    table_id, _ = await start_table(world, "coinche")
    rng = RandomPlayer(6)
    for _ in range(4):
        await play_turn(world, table_id, rng)
    with left_to_the_collector(lambda o: isinstance(o, io.BytesIO)) as buffers:
        for _ in range(12):  # answers with a hand, table edits, hands edited by token
            assert (await play_turn(world, table_id, rng)).callback_type == 7
    assert buffers == []
