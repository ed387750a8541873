"""The delivery code changes a table only under the table's lock, like the service, and leaves
nothing running when the bot closes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from tests.bot.helpers import WatchedLock

from .table_helpers import World, start_one_deal_table


async def until(condition: Callable[[], object], what: str) -> None:
    """Let the bot's loop (and the fake's thread) run until ``condition()``."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {what}")


@pytest.mark.parametrize("dms_open", [False, True])
async def test_what_discord_says_about_a_dm_is_recorded_under_the_table_lock(
        world: World, dms_open: bool) -> None:
    """A hand sent again (its DM deleted) finds the DMs closed, or a new DM: the seat is
    written only once the table's lock is free, never in the middle of another change."""
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    s = live.seats[1]
    old = s.dm_message_id
    fake.delete_message(fake.message(old))
    if not dms_open:
        world.members[1].close_dms()
    live.lock = WatchedLock()
    async with live.lock:
        bot.delivery.hand_shown.pop((table_id, 1), None)
        bot.delivery.hands_changed(live, [1])
        await until(lambda: live.lock.waiting or s.dm_closed or s.dm_message_id != old,
                    "the delivery wrote the seat or waited for the lock")
        assert (s.dm_closed, s.dm_message_id) == (False, old)  # nothing written meanwhile
    await fake.settle()
    rows = {r.seat: r for r in await bot.service.db.tables.seats(table_id)}
    if dms_open:
        assert s.dm_message_id != old and rows[1].dm_message_id == s.dm_message_id
        assert not fake.message(s.dm_message_id).deleted
    else:
        assert s.dm_closed and rows[1].dm_closed


async def test_closing_the_bot_with_edits_on_their_way_leaves_nothing_running(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    fake, bot = world.fake, world.bot
    table_id = await start_one_deal_table(world)
    live = bot.service.live[table_id]
    caplog.set_level(logging.INFO)
    bot.delivery.table_shown.pop(table_id, None)
    for seat in range(4):
        bot.delivery.hand_shown.pop((table_id, seat), None)
    bot.delivery.table_changed(live)
    bot.delivery.hands_changed(live, range(4))
    sending = [t for t in asyncio.all_tasks() if t.get_name().startswith("belote-send")]
    assert sending
    await fake.disconnect(bot)
    assert all(t.done() for t in sending)
    await asyncio.sleep(0)
    loud = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not loud, loud
