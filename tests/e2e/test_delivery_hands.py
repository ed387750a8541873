"""Hands kept up to date: the ephemeral "My hand" of closed DMs, and every DM after a restart."""

from __future__ import annotations

from pathlib import Path

from bot import create_bot
from bot.controls import button_id
from game.players import RandomPlayer
from tests.fakediscord import FakeMessage

from .table_helpers import World, play_turn, start_table


def enabled_actions(message: FakeMessage) -> list[str]:
    return [c["custom_id"] for c in message.walk_components()
            if c.get("type") in (2, 3) and not c.get("disabled")
            and c["custom_id"].startswith(("bt:act:", "bs:bid:"))]


async def play_while(w: World, table_id: int, rng: RandomPlayer, to_act: bool, seat: int) -> None:
    live = w.bot.service.live[table_id]
    while (live.match.to_act == seat) == to_act:
        await play_turn(w, table_id, rng)


async def test_closed_dms_ephemeral_hand_is_refreshed_when_the_turn_comes(world: World) -> None:
    closed = world.members[2]
    closed.close_dms()
    table_id, lobby = await start_table(world)
    live = world.bot.service.live[table_id]
    seat = live.seat_of(closed.id)
    rng = RandomPlayer(3)
    await play_while(world, table_id, rng, True, seat)  # not their turn when they look
    mine = await world.fake.click(world.bot, closed, lobby, button_id("hand", table_id))
    assert mine.ephemeral and mine.callback_type == 4
    assert "Your turn" not in mine.text
    await play_while(world, table_id, rng, False, seat)
    # Nobody clicked "My hand" again: the same ephemeral reply now shows the turn's controls.
    now = world.fake.message(mine.answer.id)
    assert "Your turn" in now.content
    controls = enabled_actions(now)
    assert controls and all(f":{live.seq}:" in c for c in controls)
    # And they work: the player acts from that reply.
    custom_id = next(c for c in controls if c.startswith("bt:"))
    result = await world.fake.click(world.bot, closed, now, custom_id)
    assert result.callback_type == 7 and not result.rejected


async def test_closed_dms_get_a_turn_notice_once_the_reply_cannot_be_edited(world: World) -> None:
    closed = world.members[2]
    closed.close_dms()
    table_id, lobby = await start_table(world)
    live = world.bot.service.live[table_id]
    seat = live.seat_of(closed.id)
    rng = RandomPlayer(4)
    await play_while(world, table_id, rng, True, seat)
    await world.fake.click(world.bot, closed, lobby, button_id("hand", table_id))
    key = (table_id, seat)
    interaction, _ = world.bot.delivery.tokens.ephemeral[key]
    world.bot.delivery.tokens.ephemeral[key] = (interaction, -1e9)  # its token ran out long ago
    await play_while(world, table_id, rng, False, seat)
    notices = [m.content for m in world.fake.messages(lobby.channel_id)
               if f"<@{closed.id}>, it is your turn" in m.content]
    assert len(notices) == 1 and "My hand" in notices[0]


async def test_after_a_restart_every_dm_hand_stays_in_place_and_current(world: World,
                                                                       database_path: Path) -> None:
    table_id, _ = await start_table(world, "coinche")
    rng = RandomPlayer(7)
    for _ in range(6):
        await play_turn(world, table_id, rng)
    old = world.bot.service.live[table_id]
    dm_ids = {m.id: [d.id for d in world.fake.dm_messages(m)] for m in world.members}
    await world.fake.disconnect(world.bot)
    mark = world.fake.mark()
    world.bot = await world.fake.start_bot(create_bot, database_path, computer_delay=0)
    again = world.bot.service.live[table_id]
    assert again.seq == old.seq
    # No new DM message; each person's one hand message was edited with the current controls.
    assert {m.id: [d.id for d in world.fake.dm_messages(m)] for m in world.members} == dm_ids
    edited = {r.path.split("/")[-1] for r in world.fake.requests_to(
        "PATCH", "/channels/{channel_id}/messages/{message_id}", since=mark)}
    # Each hand already showed the current state (stored once Discord confirmed it): none is
    # edited again (issue 13; tests/e2e/test_restart_cheap.py has a hand that is).
    assert not {str(s.dm_message_id) for s in again.seats.values()} & edited
    for s in again.seats.values():
        message = world.fake.message(s.dm_message_id)
        assert f"deal {again.view(s.seat).deal_number})" in message.content
        assert all(f":{again.seq}:" in c for c in enabled_actions(message))
    # The player to act uses the refreshed DM; the game goes on.
    result = await play_turn(world, table_id, RandomPlayer(8))
    assert result.callback_type == 7
