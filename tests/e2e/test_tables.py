"""Tables through slash commands and clicks: end, invite, leave and come back, rules, hand,
one table per person, several tables in a channel, refusals that say why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.controls import UNKNOWN_CONTROL, button_id, encode_action
from game.actions import Play
from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord

from .table_helpers import (
    World,
    make_world,
    member_of,
    open_table,
    play_out,
    play_turn,
    start_table,
)


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path) -> World:
    w = await make_world(fake_discord, database_path, ("ana", "bo", "cy", "dee", "eve"))
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    return w


def thread_of(w: World, table_id: int) -> Any:
    return w.fake.channel(w.bot.service.live[table_id].row.thread_id)


async def forged_click(w: World, member: Any, message: Any, custom_id: str) -> Any:
    """A click a modified client could send: a button that is on the message but disabled."""
    fake = w.fake
    with fake.lock:
        channel = fake._message_channel(member, message)
        payload, record = fake._interaction_payload(
            3, member, channel, {"custom_id": custom_id, "component_type": 2}, message)
    return await fake._dispatch(w.bot, payload, record, wait=True)


async def test_end_host_moderator_and_refusal(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, eve, mod = world.members[0], world.members[4], world.members[5]
    table_id, lobby = await open_table(world, ana, variant="classic")
    thread = thread_of(world, table_id)
    r = await fake.slash(bot, eve, thread, "belote end")  # a plain member: refused in code
    assert r.ephemeral and "Only the host or a moderator" in r.text
    assert table_id in bot.service.live
    r = await fake.slash(bot, mod, thread, "belote end")  # Manage Server may end any table
    assert not r.ephemeral and f"Table #{table_id} was ended" in r.text
    assert table_id not in bot.service.live
    assert (await bot.service.db.tables.get(table_id)).status == "ended"
    assert "Table closed" in fake.message(lobby.id).content
    assert not fake.message(lobby.id).custom_ids  # no buttons left on a closed table
    # Once it is played, its host may not end it (issue 48: a match they are losing)...
    table_id, lobby = await start_table(world)
    r = await fake.slash(bot, ana, world.channel, "belote end", table=table_id)
    assert r.ephemeral and r.text == f"Table #{table_id} is being played: only a moderator " \
        "who does not play at it can end it now. `/belote leave` leaves it (a loss for you)."
    assert table_id in bot.service.live
    # ...a moderator ends it by its number, from another channel.
    r = await fake.slash(bot, mod, world.channel, "belote end", table=table_id)
    assert f"Table #{table_id} was ended" in r.text
    assert (await bot.service.db.tables.get(table_id)).status == "ended"
    for m in world.members[:4]:  # nobody is held at an ended table
        assert bot.service.table_of(world.guild.id, m.id, held=True) is None


async def test_invite_to_a_private_table(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo, cy = world.members[:3]
    table_id, lobby = await open_table(world, ana, variant="bulgarian", private=True)
    assert "invite only" in fake.message(lobby.id).content
    r = await fake.click(bot, bo, lobby, button_id("sit", table_id, 1))
    assert r.ephemeral and "private" in r.text and "ask the host" in r.text
    r = await fake.slash(bot, bo, world.channel, "belote invite", player=cy)  # not a host
    assert r.ephemeral and "You host no open table" in r.text
    r = await fake.slash(bot, ana, world.channel, "belote invite", player=bo)
    assert r.ephemeral and f"<@{bo.id}> may now sit at table #{table_id}" in r.text
    notice = fake.messages(thread_of(world, table_id))[-1]
    assert f"<@{bo.id}>" in notice.content and "invites you" in notice.content
    posts = len(fake.messages(thread_of(world, table_id)))
    for _ in range(3):  # the host repeats the command: bo is pinged once, not four times
        r = await fake.slash(bot, ana, world.channel, "belote invite", player=bo)
        assert r.ephemeral and "already has an invitation" in r.text, r.text
    assert len(fake.messages(thread_of(world, table_id))) == posts
    r = await fake.click(bot, bo, lobby, button_id("sit", table_id, 1))
    assert r.callback_type == 7 and "East: bo" in r.answer.content
    r = await fake.click(bot, cy, lobby, button_id("sit", table_id, 2))
    assert r.ephemeral and "private" in r.text
    assert sorted(bot.service.live[table_id].seats) == [0, 1]


async def test_leave_a_started_table_and_come_back(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, lobby = await start_table(world, "classic", target=1)
    live = bot.service.live[table_id]
    cy = world.members[2]
    r = await fake.slash(bot, cy, world.channel, "belote leave")
    assert r.ephemeral and "a computer plays your seat" in r.text
    assert live.seats[2].computer is not None and live.seats[2].user_id == cy.id
    table = fake.message(lobby.id).content
    assert "cy (⚙ Nora)" in table, table
    dm = fake.message(live.seats[2].dm_message_id)
    assert "A computer plays this seat" in dm.content
    assert dm.custom_ids == [button_id("back", table_id)]
    rng = RandomPlayer(2)

    async def computer_played(seat: int) -> bool:
        entries = await bot.service.db.log.entries(table_id)
        return any(e.kind == "action" and e.payload["seat"] == seat and e.user_id is None
                   for e in entries)

    while not await computer_played(2):  # the computer plays on in cy's place
        await play_turn(world, table_id, rng)
    # cy takes the seat back from the DM's button, and the DM gets the controls again.
    r = await fake.click(bot, cy, dm, button_id("back", table_id))
    assert r.callback_type == 7 and live.seats[2].computer is None
    assert "Take my seat back" not in fake.message(dm.id).content
    assert "cy (⚙" not in fake.message(lobby.id).content  # the table names cy alone again
    seq = live.seq
    while not any(e.user_id == cy.id for e in await bot.service.db.log.entries(table_id)
                  if e.seq >= seq):
        await play_turn(world, table_id, rng)  # cy plays again, by clicks
    # Leave again; this time come back through /belote hand and its button.
    await fake.slash(bot, cy, world.channel, "belote leave")
    assert live.seats[2].computer is not None
    r = await fake.slash(bot, cy, world.channel, "belote hand")
    assert r.ephemeral and r.message.custom_ids == [button_id("back", table_id)]
    back = await fake.click(bot, cy, r.message, button_id("back", table_id))
    assert back.callback_type == 7 and live.seats[2].computer is None
    assert "Your hand" in back.message.content and back.message.ephemeral
    assert await play_out(world, table_id, seed=5) > 0


async def test_rules_of_a_variant_and_of_a_table(world: World) -> None:
    fake, bot = world.fake, world.bot
    r = await fake.slash(bot, world.members[4], world.channel, "belote rules", variant="coinche")
    assert r.ephemeral and "Coinche (Contrée)" in r.text and "contre" in r.text
    assert "Classic" not in r.text
    table_id, lobby = await open_table(world, world.members[0], variant="classic", target=701,
                                       private=True, announcements=False,
                                       must_undertrump=False, shuffle="cut")
    r = await fake.slash(bot, world.members[4], thread_of(world, table_id), "belote rules")
    assert r.ephemeral
    for said in ("Rules at table", "Target: 701", "Announcements (sequences, carrés): off",
                 "under-trump when you cannot over-trump: no", "Shuffle: cut",
                 "Seats: invite only", "Computers play at level easy"):
        assert said in r.text, said
    card = await fake.click(bot, world.members[4], lobby, button_id("rules", table_id))
    assert card.ephemeral and card.text == r.text  # the rules button shows the same card


async def test_hand_again_privately(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, "coinche")
    live = bot.service.live[table_id]
    for seat, m in enumerate(world.members[:4]):
        r = await fake.slash(bot, m, world.channel, "belote hand")
        assert r.ephemeral and r.answer.visible_to == m.id
        assert [a.filename for a in r.attachments] == ["hand.png"]
        dm = fake.message(live.seats[seat].dm_message_id)
        assert r.text.splitlines()[:2] == dm.content.splitlines()[:2]  # the same cards
        # Bidding: the bids only on one's turn, else a pass to choose ahead; as in the DM.
        ahead = [f"bt:ahead:{table_id}:1:pass"]
        assert (r.answer.custom_ids != ahead) == (live.match.to_act == seat)
        assert r.answer.custom_ids == dm.custom_ids
    r = await fake.slash(bot, world.members[4], world.channel, "belote hand")
    assert r.ephemeral and "not playing at any table" in r.text


async def test_one_table_at_a_time_in_a_server(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo, cy = world.members[:3]
    first, lobby1 = await open_table(world, ana, variant="classic")
    await fake.click(bot, bo, lobby1, button_id("sit", first, 1))
    r = await fake.slash(bot, bo, world.channel, "belote new", variant="coinche")
    assert r.ephemeral and f"already sit at table #{first}" in r.text
    second, lobby2 = await open_table(world, cy, variant="coinche")
    r = await fake.click(bot, bo, lobby2, button_id("sit", second, 1))
    assert r.ephemeral and f"already sit at table #{first}" in r.text
    assert 1 not in bot.service.live[second].seats
    await fake.click(bot, bo, lobby1, button_id("leave", first))  # free again
    r = await fake.click(bot, bo, lobby2, button_id("sit", second, 1))
    assert r.callback_type == 7


async def test_several_tables_in_one_channel(world: World) -> None:
    fake, bot = world.fake, world.bot
    ids = []
    for host in world.members[:3]:
        table_id, _ = await open_table(world, host, variant="classic", target=1, computers=True)
        ids.append(table_id)
    assert len(fake.threads(world.channel)) == 3  # each in its own thread
    for table_id, host in zip(ids, world.members[:3], strict=True):
        live = bot.service.live[table_id]
        r = await fake.click(bot, host, fake.message(live.row.message_id),
                             button_id("start", table_id))
        assert r.callback_type == 7
    seqs = {t: bot.service.live[t].seq for t in ids}
    await play_turn(world, ids[1], RandomPlayer(1))
    assert bot.service.live[ids[0]].seq == seqs[ids[0]]  # the others did not move
    assert bot.service.live[ids[2]].seq == seqs[ids[2]]
    for n, table_id in enumerate(ids):
        assert await play_out(world, table_id, seed=n) > 0
        assert (await bot.service.db.tables.get(table_id)).status == "finished"


async def test_an_illegal_card_is_refused_in_the_rules_words(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, "classic")
    live = bot.service.live[table_id]
    rng = RandomPlayer(3)
    while True:  # until someone must follow suit or trump and holds a card that breaks it
        deal = live.match.deal
        if deal.phase.value == "play" and deal.trick:
            seat = live.match.to_act
            legal = {a.card for a in live.match.legal_actions()}
            wrong = [c for c in range(32) if deal.hands[seat] >> c & 1 and c not in legal]
            if wrong:
                break
        await play_turn(world, table_id, rng)
    s = live.seats[seat]
    dm = fake.message(s.dm_message_id)
    custom_id = button_id("act", table_id, live.seq, encode_action(Play(wrong[0])))
    assert dm.component(custom_id)["disabled"]  # the DM never offers it...
    seq, hand = live.seq, deal.hands[seat]
    r = await forged_click(world, member_of(world, s.user_id), dm, custom_id)  # ...but if sent
    assert r.ephemeral and r.text.startswith("You must") and "play" in r.text, r.text
    assert (live.seq, deal.hands[seat]) == (seq, hand)
    assert len(await bot.service.db.log.entries(table_id)) == seq


async def test_unknown_controls_and_closed_tables_get_a_private_answer(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana = world.members[0]
    # A message an older version of the bot left, with controls this version does not have.
    view = discord.ui.View(timeout=None)
    for custom_id in ("legacy:button", "bt:zzz:1", "bt:sit:1", "bt:act:1:x:pass"):
        view.add_item(discord.ui.Button(label=custom_id, custom_id=custom_id))
    old = await bot.get_partial_messageable(world.channel.id).send("old table", view=view)
    for custom_id in ("legacy:button", "bt:zzz:1", "bt:sit:1"):
        r = await fake.click(bot, ana, old.id, custom_id)
        assert r.ephemeral and r.text == UNKNOWN_CONTROL, (custom_id, r.text)
    r = await fake.click(bot, ana, old.id, "bt:act:1:x:pass")
    assert r.ephemeral and "closed" in r.text  # table 1 does not exist
    # A control of a table that was ended since: its "My hand" reply still shows buttons.
    table_id, lobby = await start_table(world)
    live = bot.service.live[table_id]
    acting = live.seats[live.match.to_act]
    mine = await fake.click(bot, member_of(world, acting.user_id), lobby,
                            button_id("hand", table_id))
    await fake.slash(bot, world.members[5], world.channel, "belote end", table=table_id)
    r = await fake.click(bot, member_of(world, acting.user_id), mine.message,
                         mine.answer.custom_ids[0])
    assert r.ephemeral and f"Table #{table_id} is closed" in r.text
