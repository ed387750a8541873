"""Choosing ahead through the bot (issue 46): while the others play, a person presses the card
they mean to play next (or "Pass ahead" in the auction) on their hand; when their turn comes it
is played at once if the rules allow it then, logged as decided "ahead", with no turn timer;
else it is dropped and the hand says so. Pressing it again cancels it. A restart with a choice
pending loses nothing and plays nothing twice.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from bot.controls import button_id, encode_action
from db import ChoiceRow
from game.actions import Action, Pass, Play
from game.cards import card_str, cards_of
from game.choices import actions_taken
from game.players import RandomPlayer
from game.view import table_view
from service import Refusal
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, member_of, play_turn, restart, start_table


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock) -> World:
    return await make_world(fake_discord, database_path)


async def actions(w: World, table_id: int) -> list[dict[str, object]]:
    return [e.payload for e in await w.bot.service.db.log.entries(table_id)
            if e.kind == "action"]


def after_move(w: World, table_id: int, action: Action) -> set[int]:
    """The cards the next seat may play once the seat to act plays ``action`` (the rules core,
    on a copy of the match)."""
    match = copy.deepcopy(w.bot.service.live[table_id].match)
    match.apply(action, match.to_act)
    return set(cards_of(match.deal.legal_cards())) if match.to_act is not None else set()


async def to_a_position(w: World, table_id: int, legal: bool) -> tuple[int, Action, int]:
    """Random clicks until, in the play, the seat after the one to act holds a card that the
    move about to be made (``action``) leaves legal (``legal``) or illegal for it, and holds
    another: (that seat, the move, the card)."""
    rng = RandomPlayer(11)
    live = w.bot.service.live[table_id]
    while True:
        match = live.match
        if match.deal.phase.value == "play" and match.deal.trick and \
                len(match.deal.trick) < 3:
            seat = match.to_act
            action = RandomPlayer(seat).choose(table_view(match, seat))
            nxt = (seat + 1) % 4
            allowed = after_move(w, table_id, action)
            hand = set(cards_of(match.deal.hands[nxt]))
            pick = sorted(hand & allowed if legal else hand - allowed)
            if pick and len(hand) > 1:
                await w.fake.settle()
                return nxt, action, pick[0]
        r = await play_turn(w, table_id, rng)
        assert r.callback_type == 7, r.text


async def click_move(w: World, table_id: int, action: Action) -> None:
    """The seat to act clicks ``action`` (a card or a pass) on its hand."""
    live = w.bot.service.live[table_id]
    s = live.seats[live.match.to_act]
    r = await w.fake.click(w.bot, member_of(w, s.user_id), w.fake.message(s.dm_message_id),
                           button_id("act", table_id, live.seq, encode_action(action)))
    assert r.callback_type == 7, r.text
    await w.fake.settle()


async def choose_ahead(w: World, table_id: int, seat: int, code: str, *,
                       cancel: bool = False) -> str:
    """The person of ``seat`` presses ``code`` (a card or ``pass``) on their hand while the
    others play; what their hand says then."""
    live = w.bot.service.live[table_id]
    s = live.seats[seat]
    kind = "unahead" if cancel else "ahead"
    r = await w.fake.click(w.bot, member_of(w, s.user_id), w.fake.message(s.dm_message_id),
                           button_id(kind, table_id, len(live.match.deals), code))
    assert r.callback_type == 7, r.text  # the hand itself, edited
    await w.fake.settle()
    return str(w.fake.message(s.dm_message_id).content)


async def test_a_card_chosen_ahead_is_played_at_once_on_the_turn_with_no_timer(
        world: World, table_clock: FakeClock) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, target=1, turn_timer=30)
    live = bot.service.live[table_id]
    seat, move, card = await to_a_position(world, table_id, legal=True)
    text = await choose_ahead(world, table_id, seat, card_str(card))
    assert "Chosen ahead:" in text
    dm = fake.message(live.seats[seat].dm_message_id)
    assert button_id("unahead", table_id, len(live.match.deals), card_str(card)) in dm.custom_ids
    logged = len(await actions(world, table_id))

    await click_move(world, table_id, move)
    played = (await actions(world, table_id))[logged:]
    assert played[1]["seat"] == seat and played[1]["card"] == card_str(card)
    assert played[1]["by"] == "ahead" and "by" not in played[0]
    assert not live.match.deal.hands[seat] >> card & 1
    assert live.match.to_act != seat
    assert live.timer_key is None or live.timer_key[1] != seat  # nobody waits on them
    # Their turn is gone: no timer of theirs runs out later, nothing is played for them.
    count = len(await actions(world, table_id))
    await_seq = live.seq
    table_clock.advance(31)
    await fake.settle()
    assert live.seats[seat].missed == 0 and live.seats[seat].computer is None
    new = (await actions(world, table_id))[count:]
    assert all(p["seat"] != seat for p in new)
    assert live.seq >= await_seq
    assert "Chosen ahead:" not in str(fake.message(live.seats[seat].dm_message_id).content)


async def test_a_choice_the_trick_makes_illegal_is_dropped_and_told(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, target=1)
    live = bot.service.live[table_id]
    seat, move, card = await to_a_position(world, table_id, legal=False)
    await choose_ahead(world, table_id, seat, card_str(card))
    logged = len(await actions(world, table_id))

    await click_move(world, table_id, move)
    assert len(await actions(world, table_id)) == logged + 1  # nothing played for them
    assert live.match.to_act == seat and live.match.deal.hands[seat] >> card & 1
    dm = fake.message(live.seats[seat].dm_message_id)
    assert "chosen ahead, cannot be played on this trick" in str(dm.content)
    assert any(c.startswith(f"bt:act:{table_id}:{live.seq}:") for c in dm.custom_ids)
    # They play as ever; what they click is theirs, and the note goes.
    await click_move(world, table_id, Play(min(cards_of(live.match.deal.legal_cards()))))
    last = (await actions(world, table_id))[-1]
    assert last["seat"] == seat and "by" not in last
    assert "chosen ahead" not in str(fake.message(live.seats[seat].dm_message_id).content)


async def test_pressing_the_choice_again_cancels_it(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, target=1)
    live = bot.service.live[table_id]
    seat, move, card = await to_a_position(world, table_id, legal=True)
    await choose_ahead(world, table_id, seat, card_str(card))
    text = await choose_ahead(world, table_id, seat, card_str(card), cancel=True)
    assert "Chosen ahead:" not in text
    dm = fake.message(live.seats[seat].dm_message_id)
    assert button_id("ahead", table_id, len(live.match.deals), card_str(card)) in dm.custom_ids
    logged = len(await actions(world, table_id))
    await click_move(world, table_id, move)
    assert len(await actions(world, table_id)) == logged + 1
    assert live.match.to_act == seat  # their turn waits for their click


async def test_a_pass_chosen_ahead_in_the_auction(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, target=1)
    live = bot.service.live[table_id]
    await fake.settle()
    first = live.match.to_act
    nxt = (first + 1) % 4
    dm = fake.message(live.seats[nxt].dm_message_id)
    assert not any(c.startswith("bt:act:") for c in dm.custom_ids)  # no bid off their turn
    text = await choose_ahead(world, table_id, nxt, "pass")
    assert "you pass as soon as your turn comes" in text
    logged = len(await actions(world, table_id))
    await click_move(world, table_id, Pass())
    played = (await actions(world, table_id))[logged:]
    assert [(p["seat"], p["action"], p.get("by")) for p in played[:2]] == \
        [(first, "pass", None), (nxt, "pass", "ahead")]
    assert live.match.to_act == (nxt + 1) % 4


async def test_a_pass_ahead_is_dropped_when_the_bidding_ends_first(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world, target=1)
    live = bot.service.live[table_id]
    await fake.settle()
    first = live.match.to_act
    nxt = (first + 1) % 4
    await choose_ahead(world, table_id, nxt, "pass")
    take = next(a for a in live.match.legal_actions() if not isinstance(a, Pass))
    await click_move(world, table_id, take)  # the first to bid takes: the bidding is over
    assert live.match.deal.phase.value == "play"
    dm = fake.message(live.seats[nxt].dm_message_id)
    assert "Your pass chosen ahead is dropped: the bidding is over." in str(dm.content)
    assert all(p.get("by") != "ahead" for p in await actions(world, table_id))


async def test_only_a_card_of_ones_hand_or_a_pass_is_chosen_ahead(world: World) -> None:
    bot = world.bot
    table_id, _ = await start_table(world, target=1)
    live = bot.service.live[table_id]
    seat = (live.match.to_act + 1) % 4
    user = live.seats[seat].user_id
    deal = len(live.match.deals)
    mine = next(iter(cards_of(live.match.deal.hands[seat])))
    with pytest.raises(Refusal, match="Only a card of your hand"):  # a card in the bidding
        await bot.service.ahead(table_id, user, deal, Play(mine), on=True)
    seat, _move, _card = await to_a_position(world, table_id, legal=True)
    user = live.seats[seat].user_id
    other = next(c for c in range(32) if not live.match.deal.hands[seat] >> c & 1)
    seq = live.seq
    for action in (Play(other), Pass()):  # not their card; a pass in the play
        with pytest.raises(Refusal, match="Only a card of your hand"):
            await bot.service.ahead(table_id, user, len(live.match.deals), action, on=True)
    with pytest.raises(Refusal, match="earlier deal"):
        await bot.service.ahead(table_id, user, deal - 1 or 99, Play(other), on=True)
    assert live.seq == seq and live.choice(seat).ahead is None  # nothing changed


async def test_a_restart_with_a_choice_pending_loses_nothing_and_plays_nothing_twice(
        world: World, database_path: Path) -> None:
    table_id, _ = await start_table(world, target=1)
    seat, move, card = await to_a_position(world, table_id, legal=True)
    await choose_ahead(world, table_id, seat, card_str(card))
    await restart(world, database_path)
    live = world.bot.service.live[table_id]
    assert live.ahead(seat) == ("waiting", card_str(card))  # kept
    dm = world.fake.message(live.seats[seat].dm_message_id)
    assert "Chosen ahead:" in str(dm.content)
    logged = len(await actions(world, table_id))
    await click_move(world, table_id, move)
    played = (await actions(world, table_id))[logged:]
    assert [p.get("by") for p in played[:2]] == [None, "ahead"]
    await restart(world, database_path)  # its row is still there: it is not played again
    live = world.bot.service.live[table_id]
    after = await actions(world, table_id)
    assert len([p for p in after if p.get("by") == "ahead"]) == 1
    assert live.ahead(seat) == (None, None)


async def test_a_choice_whose_turn_came_as_the_bot_stopped_is_played_once_at_the_restart(
        world: World, database_path: Path) -> None:
    """The bot stopped after the move that gave them the turn was saved and before their card
    chosen ahead was: the restart plays it, once."""
    table_id, _ = await start_table(world, target=1)
    seat, move, card = await to_a_position(world, table_id, legal=True)
    await click_move(world, table_id, move)
    live = world.bot.service.live[table_id]
    assert live.match.to_act == seat
    logged = len(await actions(world, table_id))
    # As the stopped bot had saved it: chosen before this turn, at the seat's count then.
    await world.bot.service.db.tables.put_choice(ChoiceRow(
        table_id, seat, len(live.match.deals), None, True, card_str(card),
        actions_taken(live.match.deal, seat)))
    await restart(world, database_path)
    live = world.bot.service.live[table_id]
    after = (await actions(world, table_id))[logged:]
    assert [(p["seat"], p["card"], p.get("by")) for p in after[:1]] == \
        [(seat, card_str(card), "ahead")]
    assert live.match.to_act != seat
    await restart(world, database_path)
    assert len(await actions(world, table_id)) == logged + len(after)  # not again
