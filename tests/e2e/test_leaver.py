"""A player who leaves a rated match, or is kicked from it, is its leaver: a computer plays their
seat to the end, and the match counts as a loss for them alone (their rating goes down, nobody
else's moves, their stats count a loss and a match left). The rules card says so."""

from __future__ import annotations

from bot.controls import button_id

from .table_helpers import World, play_out, start_one_deal_table


async def test_the_leaver_and_the_kicked_lose_and_nobody_else_moves(world: World) -> None:
    w = world
    ana, bo, cy, dee = w.members[:4]
    table_id = await start_one_deal_table(w)
    live = w.bot.service.live[table_id]
    card = await w.fake.click(w.bot, dee, w.fake.message(live.row.message_id),
                              button_id("rules", table_id))
    assert "• Ratings: only matches played by four people move ratings (never one with a " \
        "computer from the start); a player who leaves or is removed loses the match, and only " \
        "their rating moves" in card.text
    r = await w.fake.slash(w.bot, bo, w.channel, "belote leave")
    assert "computer" in r.text, r.text
    mod = w.guild.add_member("mod", manage_guild=True)  # who may kick in a game (issue 48)
    r = await w.fake.slash(w.bot, mod, w.channel, "belote kick", player=cy)
    assert "was removed" in r.text, r.text
    await w.fake.settle()
    assert await play_out(w, table_id) > 0
    results = w.bot.service.db.results
    match = await results.match(w.guild.id, table_id)
    assert match is not None and match.ending == "played" and match.rated
    assert match.left == (1, 2)
    assert not match.won(1) and not match.won(2)
    for member in (bo, cy):
        skill = await results.skill(w.guild.id, "classic", member.id)
        assert skill is not None and skill.shown < 1000  # a newcomer shows 1000
        stats = await results.stats(w.guild.id, member.id, "classic")
        assert (stats.matches, stats.wins, stats.left) == (1, 0, 1)
    for member in (ana, dee):  # they played it out: no rating moves for them
        assert await results.skill(w.guild.id, "classic", member.id) is None
        stats = await results.stats(w.guild.id, member.id, "classic")
        assert (stats.matches, stats.left) == (1, 0)


async def test_a_leaver_who_comes_back_is_no_leaver(world: World) -> None:
    w = world
    bo = w.members[1]
    table_id = await start_one_deal_table(w)
    live = w.bot.service.live[table_id]
    await w.fake.slash(w.bot, bo, w.channel, "belote leave")
    await w.fake.settle()
    assert live.seats[1].departed == "left"
    r = await w.fake.click(w.bot, bo, w.fake.message(live.seats[1].dm_message_id),
                           button_id("back", table_id))
    assert r.callback_type == 7, r.text
    assert live.seats[1].departed is None and live.leavers() == []
    assert await play_out(w, table_id) > 0
    match = await w.bot.service.db.results.match(w.guild.id, table_id)
    assert match is not None and match.left == () and match.rated
    assert await w.bot.service.db.results.skill(w.guild.id, "classic", bo.id) is not None
