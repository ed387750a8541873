"""Two bot processes, one shard each, over one PostgreSQL (real, the test server): a table of
a server in shard 1 lives in shard 1's process; its players' clicks on their hands arrive, as
Discord sends direct messages, at shard 0's process, which carries them to the owner. The
owner killed mid-deal and started again: nothing lost, the game goes on. A double click that
reaches both processes is applied once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import create_bot
from bot.controls import button_id, encode_action, select_id
from game.actions import CoincheBid
from game.players import RandomPlayer
from game.view import table_view
from tests.fakediscord import FakeDiscord

from .table_helpers import TABLE_SEED, World, member_of, start_table


async def start_process(fake: FakeDiscord, url: str, shard: int) -> Any:
    """One process of a bot of two shards, running ``shard``."""
    return await fake.start_bot(create_bot, None, database_url=url, shard_count=2,
                                shards=str(shard), computer_delay=0, table_seed=TABLE_SEED)


@pytest.fixture
async def two(fake_discord: FakeDiscord, postgres_url: str) -> tuple[World, Any]:
    """A server in shard 1, its four members; shard 0's process and shard 1's (the world's
    bot: the server's commands and clicks in its channels go there)."""
    guild = fake_discord.add_guild("Cafe", shard=(1, 2))
    channel = guild.add_text_channel("belote")
    members = [guild.add_member(n) for n in ("ana", "bo", "cy", "dee")]
    first = await start_process(fake_discord, postgres_url, 0)
    owner = await start_process(fake_discord, postgres_url, 1)
    return World(fake_discord, owner, guild, channel, members), first


async def dm_turn(w: World, shard0: Any, table_id: int, rng: RandomPlayer) -> Any:
    """The player to act clicks a legal action on their hand; Discord delivers the click to
    shard 0's process."""
    live = w.bot.service.live[table_id]
    seat = live.match.to_act
    s = live.seats[seat]
    member, message = member_of(w, s.user_id), w.fake.message(s.dm_message_id)
    action = rng.choose(table_view(live.match, seat))
    code = encode_action(action)
    if isinstance(action, CoincheBid):
        return await w.fake.select(shard0, member, message,
                                   select_id("bid", table_id, live.seq, action.suit), [code])
    return await w.fake.click(shard0, member, message,
                              button_id("act", table_id, live.seq, code))


async def kill(w: World, bot: Any) -> None:
    """The process dies: it hears nothing more, its timers stop with it, and PostgreSQL sees
    its connections end (which frees its shard's lock). Nothing is closed cleanly."""
    w.fake._bots.remove(bot)
    await bot.service.close()
    bot.routes.abandon()
    bot.db._conn.terminate()


async def test_a_table_in_shard_1_is_played_to_the_end_by_clicks_at_shard_0(
        two: tuple[World, Any], postgres_url: str) -> None:
    w, shard0 = two
    assert [g.id for g in shard0.guilds] == [] and [g.id for g in w.bot.guilds] == [w.guild.id]
    table_id, lobby = await start_table(w, "classic", target=1)
    rng, clicks = RandomPlayer(3), 0
    while table_id in w.bot.service.live:
        result = await dm_turn(w, shard0, table_id, rng)
        # The same answer as in one process: the hand message updated in place.
        assert result.callback_type == 7, result.text
        clicks += 1
    assert clicks > 8
    assert table_id not in shard0.service.live  # never held by shard 0's process
    table = await w.bot.db.tables.get(table_id)
    assert table is not None and table.status == "finished"
    assert "win the match" in w.fake.message(lobby.id).content
    entries = await w.bot.db.log.entries(table_id)
    assert len([e for e in entries if e.kind == "action"]) >= clicks


async def test_the_owner_killed_mid_deal_comes_back_and_the_game_goes_on(
        two: tuple[World, Any], postgres_url: str) -> None:
    w, shard0 = two
    table_id, _ = await start_table(w, "bulgarian")
    rng = RandomPlayer(5)
    for _ in range(9):
        assert (await dm_turn(w, shard0, table_id, rng)).callback_type == 7
    old = w.bot.service.live[table_id]
    hands, seq, to_act = list(old.match.deal.hands), old.seq, old.match.to_act
    dead = w.bot
    await kill(w, dead)
    # While no process runs shard 1, a click is answered (not lost in silence), applies nothing.
    s = old.seats[to_act]
    action = RandomPlayer(9).choose(table_view(old.match, to_act))
    result = await w.fake.click(shard0, member_of(w, s.user_id),
                                w.fake.message(s.dm_message_id),
                                button_id("act", table_id, seq, encode_action(action)))
    assert result.callback_type == 4 and result.ephemeral
    assert "Try again in a few seconds" in result.text
    w.bot = await start_process(w.fake, postgres_url, 1)
    again = w.bot.service.live[table_id]
    assert (again.seq, again.match.deal.hands) == (seq, hands)
    for _ in range(4):
        assert (await dm_turn(w, shard0, table_id, rng)).callback_type == 7
    entries = await w.bot.db.log.entries(table_id)
    assert [e.seq for e in entries] == list(range(seq + 4))
    # Shard 0's process restarted does not take the table: it stays with its owner.
    await w.fake.disconnect(shard0)
    shard0 = await start_process(w.fake, postgres_url, 0)
    assert table_id not in shard0.service.live
    assert (await dm_turn(w, shard0, table_id, rng)).callback_type == 7
    await dead.http.close()


async def test_a_double_click_reaching_both_processes_is_applied_once(
        two: tuple[World, Any]) -> None:
    w, shard0 = two
    table_id, _ = await start_table(w)
    live = w.bot.service.live[table_id]
    s = live.seats[live.match.to_act]
    member, message = member_of(w, s.user_id), w.fake.message(s.dm_message_id)
    custom_id = button_id("act", table_id, live.seq, "pass")
    results = await asyncio.gather(
        *(w.fake.click(bot, member, message, custom_id, allow_stale=True)
          for bot in (shard0, w.bot, shard0)))
    assert sum(r.callback_type == 7 for r in results) == 1
    assert all(r.responded for r in results)  # the others told it is already played
    assert len(live.match.deal.actions) == 1
    entries = await w.bot.db.log.entries(table_id)
    assert [e.kind for e in entries] == ["deal", "action"]


async def test_a_second_process_for_a_shard_that_runs_is_refused(
        two: tuple[World, Any], postgres_url: str) -> None:
    from db.routing import ShardTaken

    w, _ = two
    bot = create_bot(None, database_url=postgres_url, shard_count=2, shards="1")
    bot.shard_lock_wait = 0.2
    with pytest.raises(ShardTaken, match="shard 1 is run by another process"):
        await w.fake.start_bot(lambda: bot)
    await bot.http.close()
    # The first keeps its tables and its clicks.
    table_id, _ = await start_table(w)
    assert table_id in w.bot.service.live
