"""Clicks have a per-member limit (bot/ratelimit.py CLICKS, on an injected clock): a member
switching seats or opening "My hand" as fast as they can is told to slow down and nothing
changes; a player playing card after card as fast as they can is never held up."""

from __future__ import annotations

from bot.controls import button_id
from bot.ratelimit import CLICKS, MemberLimits
from i18n import words

from .table_helpers import World, open_table, play_out, start_table

SLOW_DOWN = words()("controls.slow_down")


class Frozen:
    """A clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 2_000_000_000.0

    def __call__(self) -> float:
        return self.now


def frozen_limits(w: World) -> Frozen:
    clock = Frozen()
    w.bot.limits = MemberLimits(clock)
    return clock


async def test_seat_switching_as_fast_as_one_can_is_told_to_slow_down(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo, cy = world.members[:3]
    clock = frozen_limits(world)
    table_id, lobby = await open_table(world, ana)
    for n in range(CLICKS.capacity):
        r = await fake.click(bot, bo, lobby, button_id("sit", table_id, 1 + n % 2))
        assert r.callback_type == 7, (n, r.text)
    seat, shown = bot.service.live[table_id].seat_of(bo.id), fake.message(lobby.id).content
    r = await fake.click(bot, bo, lobby, button_id("sit", table_id, 3))
    assert r.ephemeral and r.text == SLOW_DOWN, r.text
    assert bot.service.live[table_id].seat_of(bo.id) == seat  # nothing changed
    assert fake.message(lobby.id).content == shown
    r = await fake.click(bot, cy, lobby, button_id("sit", table_id, 3))  # another member
    assert r.callback_type == 7, r.text
    clock.now += CLICKS.every  # one more click, a moment later
    r = await fake.click(bot, bo, lobby, button_id("sit", table_id, 2 if seat == 1 else 1))
    assert r.callback_type == 7, r.text


async def test_my_hand_as_fast_as_one_can_is_told_to_slow_down(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, lobby = await start_table(world, "classic")
    bo = world.members[1]
    frozen_limits(world)
    for n in range(CLICKS.capacity):
        r = await fake.click(bot, bo, lobby, button_id("hand", table_id))
        assert r.ephemeral and r.answer.attachments, (n, r.text)
    r = await fake.click(bot, bo, lobby, button_id("hand", table_id))
    assert r.ephemeral and r.text == SLOW_DOWN and not r.answer.attachments, r.text


async def test_a_player_playing_as_fast_as_they_can_is_never_held_up(world: World) -> None:
    """Every bid and card of a match of several deals, with no time passing at all: each is
    accepted (play_out checks every click is answered by the hand's edit)."""
    table_id, _ = await start_table(world, "classic", target=301)
    frozen_limits(world)
    clicks = await play_out(world, table_id, seed=3)
    assert clicks > 4 * CLICKS.capacity  # each of the four played more than a burst's worth
