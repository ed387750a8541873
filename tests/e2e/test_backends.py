"""The bot end to end on each backend, SQLite and PostgreSQL: a whole match by clicks, a
restart mid-deal, a double click. The rest of the suite runs on SQLite; the repositories are
tested on both in tests/db."""

from __future__ import annotations

import asyncio

import pytest

from game.players import RandomPlayer

from .table_helpers import World, member_of, play_out, play_turn, restart, start_table


@pytest.fixture
def database_path(database_target: str) -> str:
    """The bot's database: a SQLite file, or a PostgreSQL database (``DATABASE_URL``)."""
    return database_target


async def test_a_whole_match_is_played_recorded_and_rated(world: World,
                                                         database_path: str) -> None:
    db = world.bot.service.db
    assert db.dialect == ("postgresql" if database_path.startswith("postgresql") else "sqlite")
    table_id, lobby = await start_table(world, "classic", target=1)
    assert await play_out(world, table_id) > 8
    table = await db.tables.get(table_id)
    assert table is not None and table.status == "finished"
    assert await db.results.winner_of(table_id) in (0, 1)
    assert "win the match" in world.fake.message(lobby.id).content
    board = await db.results.leaderboard(world.guild.id, "classic")
    assert sorted(r.user_id for r in board) == sorted(m.id for m in world.members)


async def test_a_restart_mid_deal_goes_on_where_it_was(world: World,
                                                       database_path: str) -> None:
    table_id, _ = await start_table(world, "bulgarian")
    rng = RandomPlayer(5)
    for _ in range(9):
        await play_turn(world, table_id, rng)
    old = world.bot.service.live[table_id]
    hands, seq = list(old.match.deal.hands), old.seq
    await restart(world, database_path)
    again = world.bot.service.live[table_id]
    assert (again.seq, again.match.deal.hands) == (seq, hands)
    for _ in range(4):  # the game goes on, every click logged
        result = await play_turn(world, table_id, rng)
        assert result.callback_type == 7, result.text
    entries = await world.bot.service.db.log.entries(table_id)
    assert [e.seq for e in entries] == list(range(seq + 4))


async def test_a_double_click_is_applied_once(world: World) -> None:
    from bot.controls import button_id

    table_id, _ = await start_table(world)
    live = world.bot.service.live[table_id]
    s = live.seats[live.match.to_act]
    member, message = member_of(world, s.user_id), world.fake.message(s.dm_message_id)
    custom_id = button_id("act", table_id, live.seq, "pass")
    results = await asyncio.gather(*(world.fake.click(world.bot, member, message, custom_id,
                                                      allow_stale=True) for _ in range(3)))
    assert sum(r.callback_type == 7 for r in results) == 1
    assert len(live.match.deal.actions) == 1
    entries = await world.bot.service.db.log.entries(table_id)
    assert [e.kind for e in entries] == ["deal", "action"]
