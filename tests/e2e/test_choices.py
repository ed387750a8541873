"""Announcing less than the best, and declining belote, from the hand in the DM."""

from __future__ import annotations

from typing import Any

from bot.controls import button_id, encode_action, select_id
from game.actions import CoincheBid, Take
from game.choices import announce_choices, holds_belote
from game.match import Match
from game.players import RandomPlayer
from game.rules import Variant
from game.view import Stage, table_view

from .table_helpers import World, member_of, open_table, play_turn, seat_everyone


def a_deal_with_choices() -> tuple[int, int, int]:
    """(seed, announcing seat, belote seat): a classic first deal, dealer 0, where the first
    bidder takes, one seat may announce less than its best, and another holds belote."""
    for seed in range(5000):
        m = Match(Variant.CLASSIC, {"target": 1}, first_dealer=0)
        m.start_deal(m.new_deck(seed))
        m.apply(Take(), m.to_act)
        ann = [s for s in range(4) if len(announce_choices(table_view(m, s))) >= 3]
        blt = [s for s in range(4) if holds_belote(table_view(m, s))]
        for a in ann:
            for b in blt:
                if a != b:
                    return seed, a, b
    raise AssertionError("no such deal")


async def play_starts_with_choices(world: World) -> tuple[int, Any, int, int]:
    """Four people start a classic table on a_deal_with_choices() and the first bidder takes:
    (table id, live table, announcing seat, belote seat)."""
    fake, bot = world.fake, world.bot
    seed, announcer, holder = a_deal_with_choices()
    table_id, lobby = await open_table(world, world.members[0], variant="classic", target=1)
    await seat_everyone(world, table_id, lobby, world.members)
    live = bot.service.live[table_id]
    live.row.seed, live.row.first_dealer = seed, 0  # this deal, for the test
    await fake.click(bot, world.members[0], lobby, button_id("start", table_id))
    taker = live.seats[live.match.to_act]
    await fake.click(bot, member_of(world, taker.user_id), fake.message(taker.dm_message_id),
                     button_id("act", table_id, live.seq, "take"))
    assert live.match.deal.phase.value == "play"
    return table_id, live, announcer, holder


async def test_announce_less_than_the_best_and_decline_belote(world: World) -> None:
    fake, bot = world.fake, world.bot
    table_id, live, announcer, holder = await play_starts_with_choices(world)

    # The announcer's DM offers the best (default), each smaller choice, and nothing.
    s = live.seats[announcer]
    dm = fake.message(s.dm_message_id)
    select = dm.component(select_id("ann", table_id, 1))
    values = [o["value"] for o in select["options"]]
    assert values[0] == "best" and values[-1] == "none" and len(values) >= 3
    assert "With your first card you announce" in dm.content
    lesser = values[1]
    r = await fake.select(bot, member_of(world, s.user_id), dm, select_id("ann", table_id, 1),
                          [lesser])
    assert r.callback_type == 7
    chosen = fake.message(s.dm_message_id)
    assert [o["value"] for o in chosen.component(select_id("ann", table_id, 1))["options"]
            if o.get("default")] == [lesser]

    # The belote holder turns belote off in their DM.
    h = live.seats[holder]
    dm = fake.message(h.dm_message_id)
    toggle = button_id("blt", table_id, 1, 0)
    assert dm.component(toggle)["label"].startswith("Belote: announce")
    r = await fake.click(bot, member_of(world, h.user_id), dm, toggle)
    assert r.callback_type == 7 and "**not** announced" in r.answer.content
    assert r.answer.component(button_id("blt", table_id, 1, 1))  # and could turn it back on

    # Play the deal out by clicks; the choices go with the cards.
    rng = RandomPlayer(3)
    deal = live.match.deal
    while table_id in bot.service.live and live.match.deal is deal and not deal.is_over:
        r = await play_turn(world, table_id, rng)
        assert r.callback_type == 7, r.text
    mine = [a for a in deal.announcements if a.seat == announcer]
    assert sorted(".".join(a.cards_text()) for a in mine) == sorted(lesser.split("-"))
    assert not [b for b in deal.belote_calls if b.seat == holder]
    # Both are in the game record, so a replay (a restart) gives the same deal.
    logged = [e.payload for e in await bot.service.db.log.entries(table_id)
              if e.kind == "action"]
    assert [p["declare"] for p in logged if "declare" in p] == \
        [[g.split(".") for g in lesser.split("-")]]
    assert [p["seat"] for p in logged if p.get("belote") is False] == [holder, holder]  # K, Q


async def test_no_choices_when_there_is_nothing_to_choose(world: World) -> None:
    """Announcements off: no select at all, only the cards."""
    fake, bot = world.fake, world.bot
    table_id, lobby = await open_table(world, world.members[0], variant="coinche", target=1)
    await seat_everyone(world, table_id, lobby, world.members)
    await fake.click(bot, world.members[0], lobby, button_id("start", table_id))
    live = bot.service.live[table_id]
    rng = RandomPlayer(8)
    while live.match.deal.phase.value != "play":  # a passed deal is dealt again
        seat = live.match.to_act
        st = live.seats[seat]
        action = rng.choose(table_view(live.match, seat))
        dm = fake.message(st.dm_message_id)
        code = encode_action(action)
        if code.startswith("bid."):
            assert isinstance(action, CoincheBid)
            await fake.select(bot, member_of(world, st.user_id), dm,
                              select_id("bid", table_id, live.seq, action.suit), [code])
        else:
            await fake.click(bot, member_of(world, st.user_id), dm,
                             button_id("act", table_id, live.seq, code))
    for st in live.seats.values():
        assert table_view(live.match, st.seat).stage is Stage.PLAY
        ids = fake.message(st.dm_message_id).custom_ids
        # The cards: to play on the turn, or to choose ahead of it (issue 46).
        prefix = "bt:act:" if live.match.to_act == st.seat else "bt:ahead:"
        assert any(c.startswith(prefix) for c in ids)
        assert not any(c.startswith("bs:ann:") for c in ids)
