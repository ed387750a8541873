"""A table message is edited through the token of the last click that edited it (a seat taken,
the game started, a seat taken back): Discord does not count interaction tokens against the
bot's global request limit, and table edits are what that limit could not carry for a few
hundred busy tables. They are paced in their channel as before. A token Discord no longer
takes, or one past its 15 minutes, is dropped and the table edited as a message."""

from __future__ import annotations

from typing import Any

from bot import messages
from bot.controls import button_id
from bot.tokens import TOKEN_LIFETIME
from game.players import RandomPlayer

from .table_helpers import World, open_table, play_turn, seat_everyone

MESSAGE = "/channels/{channel_id}/messages/{message_id}"
TOKEN_EDIT = "/webhooks/{app_id}/{token}/messages/{message_id}"


async def started(w: World) -> tuple[int, Any]:
    """A table of four people, started; its id and the Start click."""
    table_id, lobby = await open_table(w, w.members[0], variant="classic")
    await seat_everyone(w, table_id, lobby, w.members[:4])
    start = await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    assert start.callback_type == 7, start.text
    await w.fake.settle()
    return table_id, start


async def play(w: World, table_id: int, turns: int, seed: int) -> None:
    rng = RandomPlayer(seed)
    for _ in range(turns):
        assert (await play_turn(w, table_id, rng)).callback_type == 7
    await w.fake.settle()


def shows_the_newest_state(w: World, table_id: int) -> None:
    live = w.bot.service.live[table_id]
    view = live.view()
    assert view is not None
    assert w.fake.message(live.row.message_id).content == messages.table_text(live, view)


async def test_a_started_table_is_edited_through_the_start_clicks_token(world: World) -> None:
    table_id, start = await started(world)
    live = world.bot.service.live[table_id]
    # Someone reads the rules: a private reply, whose token edits that reply, not the table.
    rules = await world.fake.click(world.bot, world.members[1],
                                   world.fake.message(live.row.message_id),
                                   button_id("rules", table_id))
    assert rules.ephemeral
    mark = world.fake.mark()
    await play(world, table_id, 8, seed=11)
    edits = world.fake.edits_of(live.row.message_id, since=mark)
    assert edits
    assert all(r.route == TOKEN_EDIT and r.status == 200 for r in edits)
    assert all(f"/{start.record.token}/" in r.path for r in edits)
    assert not any(r.counts_against_global_limit for r in edits)
    shows_the_newest_state(world, table_id)


async def test_a_token_discord_no_longer_takes_falls_back_to_a_message_edit(
        world: World) -> None:
    table_id, start = await started(world)
    live = world.bot.service.live[table_id]
    world.fake.token_lifetime = 0.0  # every token has run out
    mark = world.fake.mark()
    await play(world, table_id, 8, seed=12)
    edits = world.fake.edits_of(live.row.message_id, since=mark)
    refused = [r for r in edits if r.route == TOKEN_EDIT]
    assert [r.status for r in refused] == [401]  # tried once, then dropped
    assert f"/{start.record.token}/" in refused[0].path
    as_messages = [r for r in edits if r.route == MESSAGE]
    assert as_messages and all(r.status == 200 for r in as_messages)
    shows_the_newest_state(world, table_id)


async def test_a_token_past_its_fifteen_minutes_is_not_tried(world: World) -> None:
    table_id, _ = await started(world)
    live = world.bot.service.live[table_id]
    delivery = world.bot.delivery
    interaction, since = delivery.tokens.table[table_id]
    delivery.tokens.table[table_id] = (interaction, since - TOKEN_LIFETIME)  # clicked long ago
    mark = world.fake.mark()
    await play(world, table_id, 8, seed=13)
    edits = world.fake.edits_of(live.row.message_id, since=mark)
    assert edits and all(r.route == MESSAGE and r.status == 200 for r in edits)
    assert table_id not in delivery.tokens.table
    shows_the_newest_state(world, table_id)
