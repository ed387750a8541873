"""A player's choices ahead of their cards (fewer announcements, no belote) survive a restart:
the restarted bot's hand shows them, and the cards played carry them."""

from __future__ import annotations

from pathlib import Path

from bot import create_bot
from bot.controls import button_id, select_id
from game.players import RandomPlayer

from .table_helpers import World, member_of, play_turn
from .test_choices import play_starts_with_choices


async def test_choices_survive_a_restart(world: World, database_path: Path) -> None:
    fake, bot = world.fake, world.bot
    table_id, live, announcer, holder = await play_starts_with_choices(world)
    a, h = live.seats[announcer], live.seats[holder]
    select = select_id("ann", table_id, 1)
    lesser = [o["value"] for o in fake.message(a.dm_message_id).component(select)["options"]][1]
    await fake.select(bot, member_of(world, a.user_id), fake.message(a.dm_message_id), select,
                      [lesser])
    await fake.click(bot, member_of(world, h.user_id), fake.message(h.dm_message_id),
                     button_id("blt", table_id, 1, 0))

    await fake.disconnect(bot)
    bot = world.bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    live = bot.service.live[table_id]
    # The restarted bot shows each hand again, with the choices as they were made.
    dm = fake.message(live.seats[announcer].dm_message_id)
    assert [o["value"] for o in dm.component(select)["options"] if o.get("default")] == [lesser]
    dm = fake.message(live.seats[holder].dm_message_id)
    assert "**not** announced" in dm.content
    assert dm.component(button_id("blt", table_id, 1, 1))

    rng = RandomPlayer(3)
    deal = live.match.deal
    while table_id in bot.service.live and live.match.deal is deal and not deal.is_over:
        r = await play_turn(world, table_id, rng)
        assert r.callback_type == 7, r.text
    logged = [e.payload for e in await bot.service.db.log.entries(table_id)
              if e.kind == "action"]
    assert [p["declare"] for p in logged if "declare" in p] == \
        [[g.split(".") for g in lesser.split("-")]]
    assert [p["seat"] for p in logged if p.get("belote") is False] == [holder, holder]
