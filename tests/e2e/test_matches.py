"""Complete matches of each variant, played by four members with slash commands and clicks."""

from __future__ import annotations

from typing import Any

import pytest

from .table_helpers import World, open_table, play_out, seat_everyone


@pytest.mark.parametrize(("variant", "options"), [
    ("classic", {"target": 1}),
    ("coinche", {"target": 1}),
    ("bulgarian", {}),
])
async def test_a_whole_match_by_clicks(world: World, variant: str,
                                       options: dict[str, Any]) -> None:
    fake, bot = world.fake, world.bot
    table_id, lobby = await open_table(world, world.members[0], variant=variant, **options)
    assert fake.threads(world.channel), "the table opens in a thread"
    assert lobby.channel_id == fake.threads(world.channel)[0].id
    await seat_everyone(world, table_id, lobby, world.members)
    start = await fake.click(bot, world.members[0], lobby, f"bt:start:{table_id}")
    assert start.callback_type == 7
    for m in world.members:  # everybody got their hand by DM, one message each
        assert len(fake.dm_messages(m)) == 1
    clicks = await play_out(world, table_id)
    assert clicks > 8
    table = await bot.service.db.tables.get(table_id)
    assert table.status == "finished"
    winner = await bot.service.db.results.winner_of(table_id)
    final = fake.message(lobby.id)
    assert "win the match" in final.content
    thread_posts = [m.content for m in fake.messages(lobby.channel_id)]
    assert any(p.startswith("**Deal 1**") for p in thread_posts)
    assert any("win**" in p for p in thread_posts)
    assert winner in (0, 1)
    for m in world.members:  # the DM was edited all along, never sent again
        assert len(fake.dm_messages(m)) == 1
