"""/belote kick through the fake Discord: the host (in the lobby) or a moderator removes a player;
in a game (a moderator who does not play there only) a computer plays the seat and the player
cannot take it back, in a lobby the seat is freed and the player cannot sit there again; each
kick is in the audit log; anybody else is refused, and nothing changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.controls import button_id
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, open_table, start_table


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path) -> World:
    w = await make_world(fake_discord, database_path, ("ana", "bo", "cy", "dee"))
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    return w


async def test_a_moderator_kicks_a_player_from_a_game_the_host_cannot(world: World) -> None:
    w = world
    ana, bo, mod = w.members[0], w.members[1], w.members[4]
    table_id, _ = await start_table(w, "classic")
    live = w.bot.service.live[table_id]
    # The host, who plays there, may not remove an opponent once the match is under way
    # (issue 48: the pot, or a tournament place, would be theirs for it).
    r = await w.fake.slash(w.bot, ana, w.channel, "belote kick", player=bo)
    assert r.ephemeral and r.text == f"Table #{table_id} is being played: only a moderator " \
        "who does not play at it can remove a player now."
    assert (live.seats[1].computer, live.seats[1].departed) == (None, None)
    assert await w.bot.db.audit.recent(w.guild.id) == []
    r = await w.fake.slash(w.bot, mod, w.channel, "belote kick", player=bo)
    assert r.ephemeral and f"<@{bo.id}> was removed from table #{table_id}." == r.text
    await w.fake.settle()
    s = live.seats[1]
    assert (s.user_id, s.computer, s.departed) == (bo.id, "easy", "kicked")
    assert (await w.bot.service.db.tables.seats(table_id))[1].departed == "kicked"  # saved
    notice = [m.content for m in w.fake.messages(w.fake.channel(live.row.thread_id))
              if "removed" in m.content]
    assert notice == [f"<@{mod.id}> removed <@{bo.id}> from the table: a computer plays their "
                      "seat to the end, and the match counts as a loss for them."]
    # His hand and the table message no longer offer to take the seat back...
    hand = w.fake.message(s.dm_message_id)
    assert button_id("back", table_id) not in hand.custom_ids
    assert button_id("back", table_id) not in w.fake.message(live.row.message_id).custom_ids
    # When the table offers the button again (cy left), bo's click on it is refused.
    r = await w.fake.slash(w.bot, w.members[2], w.channel, "belote leave")
    assert "computer" in r.text, r.text
    await w.fake.settle()
    table = w.fake.message(live.row.message_id)
    r = await w.fake.click(w.bot, bo, table, button_id("back", table_id))
    assert r.ephemeral and f"You were removed from table #{table_id}: you cannot take your " \
        "seat back." == r.text
    assert s.computer == "easy"
    entry = (await w.bot.db.audit.recent(w.guild.id))[0]
    assert (entry.action, entry.actor_id, entry.table_id, entry.details) == \
        ("kick", mod.id, table_id, {"user": bo.id})
    # He is free to play elsewhere.
    r = await w.fake.slash(w.bot, bo, w.channel, "belote new")
    assert r.callback_type == 5, r.text


async def test_a_moderator_kicks_from_a_lobby_and_the_player_cannot_sit_again(
        world: World) -> None:
    w = world
    ana, bo, cy, mod = w.members[0], w.members[1], w.members[2], w.members[4]
    table_id, lobby = await open_table(w, ana, variant="classic")
    r = await w.fake.click(w.bot, cy, lobby, button_id("sit", table_id, 2))
    assert r.callback_type == 7, r.text
    r = await w.fake.slash(w.bot, bo, w.channel, "belote kick", player=cy)  # not host nor mod
    assert r.ephemeral and r.text == \
        f"Only the host of table #{table_id} or a moderator can remove a player from it."
    live = w.bot.service.live[table_id]
    assert live.seats[2].user_id == cy.id
    assert await w.bot.db.audit.recent(w.guild.id) == []
    r = await w.fake.slash(w.bot, mod, w.channel, "belote kick", player=cy)
    assert r.text == f"<@{cy.id}> was removed from table #{table_id}.", r.text
    assert 2 not in live.seats
    r = await w.fake.click(w.bot, cy, lobby, button_id("sit", table_id, 3))
    assert r.ephemeral and r.text == \
        f"You were removed from table #{table_id}: you cannot sit there again."
    assert 3 not in live.seats
    entry = (await w.bot.db.audit.recent(w.guild.id))[0]
    assert (entry.action, entry.actor_id) == ("kick", mod.id)
    # Nobody seated at an open table: nothing to kick.
    r = await w.fake.slash(w.bot, ana, w.channel, "belote kick", player=w.members[3])
    assert r.text == f"<@{w.members[3].id}> does not sit at an open table in this server."
    r = await w.fake.slash(w.bot, ana, w.channel, "belote kick", player=ana)
    assert r.text == "You cannot remove yourself: `/belote leave` leaves the table."


async def test_a_moderator_kicks_the_host_of_a_game_and_another_player_hosts(
        world: World) -> None:
    w = world
    ana, bo, mod = w.members[0], w.members[1], w.members[4]
    table_id, _ = await start_table(w, "classic")
    live = w.bot.service.live[table_id]
    r = await w.fake.slash(w.bot, mod, w.channel, "belote kick", player=ana)
    assert r.text == f"<@{ana.id}> was removed from table #{table_id}.", r.text
    assert live.seats[0].departed == "kicked" and live.row.host_id == bo.id
    assert (await w.bot.service.db.tables.get(table_id)).host_id == bo.id
    r = await w.fake.slash(w.bot, ana, w.channel, "belote end", table=table_id)
    assert r.ephemeral and "Only the host or a moderator" in r.text
    assert table_id in w.bot.service.live
