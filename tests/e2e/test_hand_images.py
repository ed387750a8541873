"""Hand images in DMs: always the picture of the hand as it is, uploaded only when it changed."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pytest

import rendering
from bot import images, render_pool
from bot.controls import button_id
from game.players import RandomPlayer
from rendering import render_hand

from .table_helpers import World, member_of, open_table, play_turn, seat_everyone
from .test_choices import a_deal_with_choices


def assert_dms_show_their_hands(w: World, table_id: int) -> None:
    live = w.bot.service.live[table_id]
    for seat, s in live.seats.items():
        dm = w.fake.message(s.dm_message_id)
        view = live.view(seat)
        if view.hand:
            assert [a.data for a in dm.attachments] == [render_hand(view)[0]], \
                f"seat {seat} at seq {live.seq}"
        else:
            assert not dm.attachments


@pytest.mark.parametrize("variant", ["classic", "coinche", "bulgarian"])
async def test_every_dm_shows_the_picture_of_its_hand(world: World, variant: str) -> None:
    table_id, lobby = await open_table(world, world.members[0], variant=variant)
    await seat_everyone(world, table_id, lobby, world.members)
    await world.fake.click(world.bot, world.members[0], lobby, button_id("start", table_id))
    live = world.bot.service.live[table_id]
    rng = RandomPlayer(5)
    # A whole deal (bidding pictures come back from the bot's cache), and the next deal's
    # first hands; the match may end first.
    while len(live.match.results) < 1 or live.match.needs_deal:
        assert_dms_show_their_hands(world, table_id)
        result = await play_turn(world, table_id, rng)
        assert result.callback_type == 7, result.text
        if table_id not in world.bot.service.live:
            return
    assert_dms_show_their_hands(world, table_id)


async def test_a_hand_edit_that_keeps_the_picture_uploads_nothing(world: World) -> None:
    fake, bot = world.fake, world.bot
    seed, _, holder = a_deal_with_choices()
    table_id, lobby = await open_table(world, world.members[0], variant="classic", target=1)
    await seat_everyone(world, table_id, lobby, world.members)
    live = bot.service.live[table_id]
    live.row.seed, live.row.first_dealer = seed, 0
    await fake.click(bot, world.members[0], lobby, button_id("start", table_id))
    taker = live.seats[live.match.to_act]
    await fake.click(bot, member_of(world, taker.user_id), fake.message(taker.dm_message_id),
                     button_id("act", table_id, live.seq, "take"))
    h = live.seats[holder]
    before = [a.id for a in fake.message(h.dm_message_id).attachments]
    mark = fake.mark()
    # Turning belote off changes the DM's text and controls, not the picture of the cards.
    r = await fake.click(bot, member_of(world, h.user_id), fake.message(h.dm_message_id),
                         button_id("blt", table_id, 1, 0))
    assert r.callback_type == 7 and "**not** announced" in r.answer.content
    answer = [q for q in fake.requests_to(since=mark) if q.route.startswith("/interactions/")]
    assert len(answer) == 1 and answer[0].files == []
    dm = fake.message(h.dm_message_id)
    assert [a.id for a in dm.attachments] == before  # the same attachment, kept
    assert [a.data for a in dm.attachments] == [render_hand(live.view(holder))[0]]
    # The next picture that differs is uploaded again (the holder's turn, or a card gone).
    rng = RandomPlayer(2)
    while [a.id for a in fake.message(h.dm_message_id).attachments] == before:
        await play_turn(world, table_id, rng)
    assert_dms_show_their_hands(world, table_id)


async def test_a_clicks_answer_shows_the_hand_drawn_while_its_card_was_logged(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer's picture is drawn while the action is written to the log: each answer
    that carries a picture takes the one started early, and it is the hand as it is."""
    fake, bot = world.fake, world.bot
    taken: list[bool] = []
    early = images._early

    async def watched(key: Hashable) -> tuple[bytes, str] | None:
        data = await early(key)
        taken.append(data is not None)
        return data

    monkeypatch.setattr(images, "_early", watched)
    table_id, lobby = await open_table(world, world.members[0], variant="classic", target=1)
    await seat_everyone(world, table_id, lobby, world.members)
    await fake.click(bot, world.members[0], lobby, button_id("start", table_id))
    live = bot.service.live[table_id]
    rng = RandomPlayer(4)
    pictures = 0
    while not live.match.deal.tricks:  # the bidding (pictures kept from before) and a trick
        mark = fake.mark()
        seat = live.match.to_act
        r = await play_turn(world, table_id, rng)
        assert r.callback_type == 7, r.text
        answer = [q for q in fake.requests_to(since=mark) if q.route.startswith("/interactions/")]
        if answer[0].files:
            pictures += 1
            dm = fake.message(live.seats[seat].dm_message_id)
            assert [a.data for a in dm.attachments] == [render_hand(live.view(seat))[0]]
    assert pictures >= 4  # the cards of the first trick at least
    assert taken.count(True) == pictures  # every picture an answer carried was drawn early
    assert not images._EARLY  # and none is left behind


async def test_the_hand_of_the_player_to_act_is_drawn_with_the_answers_not_behind_tables(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A DM edit that starts a person's turn is drawn by the worker that answers clicks (after
    the answers); the other hands' edits, which nobody waits for, queue with the tables."""
    fake, bot = world.fake, world.bot
    drawn: list[tuple[str, bool, bool]] = []  # (pool, the hand to act?, asked first?)

    def to_act() -> int | None:  # at the one table of the test
        return next((t.match.to_act for t in bot.service.live.values() if t.match), None)

    def watch(pool: render_pool.Pool) -> None:
        run = pool.run

        async def watched(fn: Any, *args: Any, first: bool = False) -> Any:
            if fn is rendering.render_hand:
                drawn.append((pool.name, args[0].viewer == to_act(), first))
            return await run(fn, *args, first=first)

        monkeypatch.setattr(pool, "run", watched)

    watch(images.HANDS)
    watch(images.OTHERS)
    table_id, lobby = await open_table(world, world.members[0], variant="classic", target=1)
    await seat_everyone(world, table_id, lobby, world.members)
    await fake.click(bot, world.members[0], lobby, button_id("start", table_id))
    live = bot.service.live[table_id]
    rng = RandomPlayer(4)
    while not live.match.deal.tricks:
        await play_turn(world, table_id, rng)
    assert not [d for d in drawn if d[:2] == ("belote-render", True)]  # none behind tables
    assert ("belote-render", False, False) in drawn  # the other hands are
    assert ("belote-hand", True, False) in drawn  # the turn's hand, in turn
    assert ("belote-hand", False, True) in drawn  # a click's answer, ahead of it
    assert ("belote-render", False, True) not in drawn
