"""/belote invite refuses what makes no sense: inviting yourself, or a bot."""

from __future__ import annotations

from .table_helpers import World, open_table


async def test_the_host_cannot_invite_themself_or_a_bot(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana = world.members[0]
    table_id, _ = await open_table(world, ana, variant="classic", private=True)
    live = bot.service.live[table_id]
    posted = len(fake.messages(live.row.home_id))
    r = await fake.slash(bot, ana, world.channel, "belote invite", player=ana)
    assert r.ephemeral and "You cannot invite yourself" in r.text, r.text
    other_bot = fake.add_user("another bot")
    other_bot.bot = True
    for robot in (fake.bot_user, other_bot):
        r = await fake.slash(bot, ana, world.channel, "belote invite", player=robot)
        assert r.ephemeral and "Bots cannot sit at a table" in r.text, r.text
    assert live.invited == set() and await bot.service.db.tables.invited(table_id) == set()
    assert len(fake.messages(live.row.home_id)) == posted  # nobody was told of an invitation
