"""Restart mid-deal, closed DMs, refusals, permissions, hidden cards, computers."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import create_bot
from bot.controls import button_id, encode_action
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

CARD = re.compile(r"\b[789TJQKA][CDHS]\b")


def custom_ids(components: list[dict[str, Any]]) -> list[str]:
    out = []
    for c in components:
        if "custom_id" in c:
            out.append(c["custom_id"])
        out.extend(custom_ids(c.get("components", [])))
    return out


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path) -> World:
    return await make_world(fake_discord, database_path, ("ana", "bo", "cy", "dee", "eve"))


async def test_restart_mid_deal_continues_with_the_old_buttons(
    world: World,
    database_path: Path,
) -> None:
    table_id, _ = await start_table(world, "bulgarian")
    rng = RandomPlayer(5)
    for _ in range(9):
        await play_turn(world, table_id, rng)
    old = world.bot.service.live[table_id]
    hands, seq = list(old.match.deal.hands), old.seq
    await world.fake.disconnect(world.bot)
    world.bot = await world.fake.start_bot(create_bot, database_path, computer_delay=0)
    again = world.bot.service.live[table_id]
    assert (again.seq, again.match.deal.hands) == (seq, hands)
    # The next click uses a button sent by the old process.
    s = again.seats[again.match.to_act]
    assert f":{seq}:" in " ".join(world.fake.message(s.dm_message_id).custom_ids)
    assert await play_out(world, table_id, seed=6) > 0
    assert (await world.bot.service.db.tables.get(table_id)).status == "finished"


async def test_closed_dms_get_the_hand_through_my_hand(world: World) -> None:
    world.members[2].close_dms()
    table_id, lobby = await start_table(world, "classic", target=1)
    notices = [m.content for m in world.fake.messages(lobby.channel_id)]
    assert any(f"<@{world.members[2].id}>" in n and "direct messages are closed" in n
               for n in notices)
    assert world.fake.dm_messages(world.members[2]) == []
    assert await play_out(world, table_id, seed=2) > 0  # the game goes on either way
    assert (await world.bot.service.db.tables.get(table_id)).status == "finished"


async def test_double_and_concurrent_clicks_are_applied_once(world: World) -> None:
    table_id, _ = await start_table(world)
    live = world.bot.service.live[table_id]
    s = live.seats[live.match.to_act]
    member, message = member_of(world, s.user_id), world.fake.message(s.dm_message_id)
    custom_id = button_id("act", table_id, live.seq, "pass")
    results = await asyncio.gather(*(world.fake.click(world.bot, member, message, custom_id,
                                                      allow_stale=True) for _ in range(3)))
    answered = [r for r in results if r.callback_type is not None]
    assert sum(r.callback_type == 7 for r in answered) == 1
    refused = [r for r in answered if r.callback_type == 4]
    assert all(r.ephemeral and "out of date" in r.text for r in refused)
    assert len(live.match.deal.actions) == 1


async def test_wrong_user_and_stale_buttons_are_refused(world: World) -> None:
    table_id, lobby = await start_table(world)
    fake, bot = world.fake, world.bot
    live = bot.service.live[table_id]
    watcher = world.members[4]
    r = await fake.click(bot, watcher, lobby, button_id("hand", table_id))
    assert r.ephemeral and "not playing at this table" in r.text
    waiting = live.seats[(live.match.to_act + 1) % 4]
    early = await fake.click(bot, member_of(world, waiting.user_id), lobby,
                             button_id("hand", table_id))
    # Not their turn: no bid, only a pass to choose ahead of it (issue 46).
    assert early.ephemeral and early.answer.custom_ids == [
        f"bt:ahead:{table_id}:{len(live.match.deals)}:pass"]
    acting = live.seats[live.match.to_act]
    mine = await fake.click(bot, member_of(world, acting.user_id), lobby,
                            button_id("hand", table_id))
    old_custom_id = mine.answer.custom_ids[0]
    await play_turn(world, table_id, RandomPlayer(1))  # plays through the DM
    seq = live.seq
    stale = await fake.click(bot, member_of(world, acting.user_id), mine.message, old_custom_id)
    assert stale.ephemeral and "out of date" in stale.text
    assert live.seq == seq
    host_only = await fake.click(bot, world.members[1], lobby, button_id("rules", table_id))
    assert host_only.ephemeral and "Target: 501" in host_only.text


async def test_only_legal_cards_are_enabled_and_an_illegal_one_is_refused(world: World) -> None:
    table_id, _ = await start_table(world)
    rng = RandomPlayer(3)
    live = world.bot.service.live[table_id]
    while live.match.deal.phase.value != "play" or not live.match.deal.trick:
        await play_turn(world, table_id, rng)
    s = live.seats[live.match.to_act]
    dm = world.fake.message(s.dm_message_id)
    legal = {encode_action(a) for a in live.match.legal_actions()}
    enabled = {b["custom_id"].rsplit(":", 1)[1] for b in dm.buttons
               if not b.get("disabled") and b["custom_id"].startswith("bt:act:")}
    assert enabled == legal
    illegal = [c for c in range(32) if live.match.deal.hands[s.seat] >> c & 1
               and encode_action(Play(c)) not in legal]
    if illegal:  # the service refuses it even if a client sends it anyway
        from service import Refusal
        with pytest.raises(Refusal, match="must"):
            await world.bot.service.act(table_id, s.user_id, live.seq, Play(illegal[0]))


async def test_missing_permissions_are_named(
    fake_discord: FakeDiscord,
    database_path: Path,
) -> None:
    guild = fake_discord.add_guild("Cafe")
    perms = discord.Permissions(view_channel=True, send_messages=True,
                                read_message_history=True)
    mute = guild.add_text_channel("mute", bot_permissions=perms)
    no_threads = guild.add_text_channel(
        "flat", bot_permissions=discord.Permissions(view_channel=True, send_messages=True,
                                                    attach_files=True,
                                                    read_message_history=True))
    ana = guild.add_member("ana")
    bot = await fake_discord.start_bot(create_bot, database_path)
    r = await fake_discord.slash(bot, ana, mute, "belote new", variant="classic")
    assert r.ephemeral and "Attach Files" in r.text and "Send Messages" not in r.text
    assert bot.service.live == {}
    r = await fake_discord.slash(bot, ana, no_threads, "belote new", variant="classic")
    assert "no thread" in r.text and "Create Public Threads" in r.text
    live = bot.service.table_of(guild.id, ana.id)
    assert live.row.thread_id is None and live.row.message_id in {
        m.id for m in fake_discord.messages(no_threads)}


async def test_no_hand_card_in_anything_others_can_see(world: World) -> None:
    world.members[1].close_dms()
    table_id, _ = await start_table(world, "coinche", target=1)
    await play_out(world, table_id, seed=9)
    public = world.fake.public_messages()
    assert public
    for message in public:
        for version in message.versions:
            ids = " ".join(custom_ids(version.components))
            assert not CARD.search(ids), ids
            assert "Your hand" not in (version.content or "")
            for name in version.attachment_names:
                assert name.split(".")[0] in {"table", "deal", "result", "leaderboard"}
    for m in world.members:
        for message in world.fake.ephemeral_messages(m):
            assert message.visible_to == m.id


async def test_computers_fill_seats_and_play(world: World) -> None:
    table_id, lobby = await open_table(world, world.members[0], variant="classic", target=1,
                                       computers=True)
    assert "⚙ Remy (" in world.fake.message(lobby.id).content
    r = await world.fake.click(world.bot, world.members[0], lobby, button_id("start", table_id))
    assert r.callback_type == 7
    assert await play_out(world, table_id, seed=4) > 0
    assert (await world.bot.service.db.results.winner_of(table_id)) in (0, 1)
    board = await world.fake.slash(world.bot, world.members[0], world.channel,
                                   "belote leaderboard", variant="classic")
    # A match with computers is recorded but moves no rating (the rules card says so).
    assert "ana" not in board.text and f"<@{world.members[0].id}>" not in board.text
