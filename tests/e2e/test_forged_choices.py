"""A forged announcement choice (a modified client's select value) is refused privately, is
never stored, and the player's cards are still accepted, before and after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot import create_bot
from bot.controls import select_id
from game.cards import card_str
from game.players import RandomPlayer

from .table_helpers import TABLE_SEED, World, member_of, play_turn
from .test_choices import play_starts_with_choices


async def forged_select(w: World, member: Any, message: Any, custom_id: str,
                        values: list[str]) -> Any:
    """A select a modified client could send: a value the select never offered."""
    fake = w.fake
    with fake.lock:
        channel = fake._message_channel(member, message)
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload, record = fake._interaction_payload(3, member, channel, data, message)
    return await fake._dispatch(w.bot, payload, record, wait=True)


async def test_a_forged_announcement_is_refused_and_the_cards_still_play(
    world: World,
    database_path: Path,
) -> None:
    fake, bot = world.fake, world.bot
    table_id, live, seat, _ = await play_starts_with_choices(world)  # seat: may announce
    s = live.seats[seat]
    member = member_of(world, s.user_id)
    hand = live.match.deal.hands[seat]
    missing = next(suit for suit in range(4) if not all(hand >> (suit * 8 + r) & 1
                                                        for r in range(3)))
    forged = ".".join(card_str(missing * 8 + r) for r in range(3))  # a tierce not held
    dm = fake.message(s.dm_message_id)
    r = await forged_select(world, member, dm, select_id("ann", table_id, 1), [forged])
    assert r.ephemeral and "You cannot announce cards you do not hold" in r.text, r.text
    assert await bot.service.db.tables.choices(table_id) == []

    await fake.disconnect(bot)
    bot = world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0,
                                           table_seed=TABLE_SEED)
    live = bot.service.live[table_id]
    rng = RandomPlayer(4)
    while live.match.deal.hands[seat].bit_count() == 8:  # until their first card is played
        r = await play_turn(world, table_id, rng)
        assert r.callback_type == 7, r.text  # never refused: the table goes on
    logged = [e.payload for e in await bot.service.db.log.entries(table_id)
              if e.kind == "action" and e.payload["seat"] == seat and "card" in e.payload]
    assert "declare" not in logged[0]  # their first card went with the default: the best
