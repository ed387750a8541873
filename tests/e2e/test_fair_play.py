"""Fair play through the fake Discord (issue 48): no hand is ever shown in public, and a player
at a tournament table who left stays out."""

from __future__ import annotations

import discord

from bot.controls import button_id

from .table_helpers import World, start_one_deal_table


async def test_take_back_on_an_older_table_message_does_not_show_the_hand_there(
        world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members[:2]
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    r = await fake.slash(bot, bo, world.channel, "belote leave")
    assert "computer" in r.text, r.text
    await fake.settle()
    old = fake.message(live.row.message_id)
    assert button_id("back", table_id) in old.custom_ids  # offered to bo on the table message
    # The table message cannot be kept up any more; /belote show posts a new one elsewhere.
    world.guild.set_bot_permissions(world.channel, discord.Permissions(view_channel=True))
    await fake.settle()
    assert live.lost is not None
    other = world.guild.add_text_channel("other")
    r = await fake.slash(bot, ana, other, "belote show")
    assert r.ephemeral and f"Table #{table_id} is here now" in r.text, r.text
    assert live.row.message_id != old.id
    before = (old.content, old.custom_ids, len(old.attachments))
    # bo takes his seat back with the button of the old, public message.
    r = await fake.click(bot, bo, old, button_id("back", table_id))
    assert r.ephemeral and f"Your seat at table #{table_id} is yours again" in r.text, r.text
    await fake.settle()
    assert live.seats[1].computer is None  # he plays again
    old = fake.message(old.id)
    # ...and the message everybody sees is not his hand: not a card of it, nor its buttons.
    assert (old.content, old.custom_ids, len(old.attachments)) == before
    assert not any(c.startswith(("bt:act:", "bt:bid:")) for c in old.custom_ids)
