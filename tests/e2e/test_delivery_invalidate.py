"""``Delivery.invalidate``: a message whose shown state is forgotten is edited again at the next
update even though nothing changed (the cogs call it when an edit may have failed)."""

from __future__ import annotations

from bot.delivery import Delivery
from service.tables import LiveTable

from .table_helpers import World, start_one_deal_table


def edited(world: World, mark: int) -> list[int]:
    """The messages edited since ``mark`` (as messages or through a click's token), one
    entry per edit."""
    return [m for r in world.fake.requests_to("PATCH", since=mark)
            if (m := world.fake.edited_message(r)) is not None]


async def shown(world: World, table_id: int) -> tuple[Delivery, LiveTable]:
    await world.fake.settle()
    return world.bot.delivery, world.bot.service.live[table_id]


async def test_an_invalidated_hand_is_edited_at_its_next_update(world: World) -> None:
    table_id = await start_one_deal_table(world)
    delivery, live = await shown(world, table_id)
    s = live.seats[1]
    hand = s.dm_message_id
    mark = world.fake.mark()
    delivery.hands_changed(live, [1])
    await world.fake.settle()
    assert edited(world, mark) == []  # it shows this already
    delivery.invalidate(table_id, 1)
    delivery.hands_changed(live, [1, 2])
    await world.fake.settle()
    assert edited(world, mark) == [hand]  # that hand only


async def test_an_invalidated_table_is_edited_with_every_hand(world: World) -> None:
    table_id = await start_one_deal_table(world)
    delivery, live = await shown(world, table_id)
    mark = world.fake.mark()
    delivery.invalidate(table_id)
    delivery.table_changed(live)
    delivery.hands_changed(live, range(4))
    await world.fake.settle()
    paths = edited(world, mark)
    assert live.row.message_id in paths
    for s in live.seats.values():
        assert s.dm_message_id in paths
    assert len(paths) == 5
