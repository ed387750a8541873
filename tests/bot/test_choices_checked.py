"""The announcements a player chooses ahead of their first card are checked by the rules: a
forged or impossible choice is refused and never stored, and one already stored (by a bot from
before the check) is dropped at restore instead of stalling the table."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from db import ChoiceRow, Database
from game.actions import Play, Take
from game.announcements import best_announcements
from game.cards import card_str
from game.match import Match
from game.rules import Variant
from service import Refusal
from service.tables import LiveTable, NewTable, TableService
from tests.bot.helpers import deal_of, match_of, to_act

from .test_service import CHANNEL, GUILD

USERS = ((1, "ana"), (2, "bo"), (3, "cy"), (4, "dee"))


def a_deal_with_announcements(options: dict[str, Any]) -> tuple[int, int]:
    """(seed, seat): a classic first deal, dealer 0, where the first bidder takes and the
    first seat to play holds an announcement."""
    for seed in range(5000):
        m = Match(Variant.CLASSIC, options, first_dealer=0)
        deal = m.start_deal(m.new_deck(seed))
        m.apply(Take(), m.to_act)
        seat = m.to_act
        assert seat is not None
        if best_announcements(seat, deal.hands[seat]):
            return seed, seat
    raise AssertionError("no such deal")


async def started(service: TableService, options: dict[str, Any], *,
                  take: bool = True) -> int:
    """Four people at a classic table on a_deal_with_announcements(); the first bidder takes."""
    seed, _ = a_deal_with_announcements({"target": 1})
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", options))
    for seat, (uid, name) in enumerate(USERS[1:], start=1):
        await service.sit(live.id, uid, name, seat)
    live.row.seed, live.row.first_dealer = seed, 0  # this deal, for the test
    await service.start(live.id, 1)
    if take:
        seat = to_act(live)
        await service.act(live.id, user_of(live, seat), live.seq, Take())
    return live.id


def user_of(live: LiveTable, seat: int) -> int:
    user = live.seats[seat].user_id
    assert user is not None, f"seat {seat} has no person"
    return user


def first_player(service: TableService, table_id: int) -> tuple[int, int]:
    """(seat, user) of the player to act."""
    live = service.live[table_id]
    seat = to_act(live)
    return seat, user_of(live, seat)


def not_held_run(hand: int) -> tuple[tuple[int, ...], ...]:
    """A run of three cards in one suit that the hand does not (wholly) hold."""
    for suit in range(4):
        for low in range(6):
            run = tuple(suit * 8 + r for r in range(low, low + 3))
            if any(not hand >> c & 1 for c in run):
                return (run,)
    raise AssertionError("the hand holds everything")


async def plays_a_card(service: TableService, table_id: int) -> None:
    """The player to act plays their first legal card: the table is not stalled."""
    live = service.live[table_id]
    _, user = first_player(service, table_id)
    seq = live.seq
    card = match_of(live).legal_actions()[0]
    assert isinstance(card, Play)
    await service.act(table_id, user, seq, Play(card.card))
    assert live.seq > seq


async def test_a_forged_choice_is_refused_and_not_stored(db: Database) -> None:
    service = TableService(db)
    table_id = await started(service, {"target": 1})
    live = service.live[table_id]
    seat, user = first_player(service, table_id)
    forged = not_held_run(deal_of(live).hands[seat])
    with pytest.raises(Refusal, match=r"^You cannot announce cards you do not hold|^A sequence"):
        await service.choose(table_id, user, 1, declare=forged)
    assert await db.tables.choices(table_id) == []
    assert live.choice(seat).declare is None
    # What the hand does hold may be chosen.
    best = best_announcements(seat, deal_of(live).hands[seat])
    chosen = tuple(a.cards for a in best)
    await service.choose(table_id, user, 1, declare=chosen)
    assert live.choice(seat).declare == chosen
    assert (await db.tables.choices(table_id))[0].declare == \
        [[card_str(c) for c in cards] for cards in chosen]
    await plays_a_card(service, table_id)
    assert [tuple(a.cards) for a in deal_of(live).announcements] == list(chosen)


async def test_no_announcement_is_chosen_where_the_rules_allow_none(db: Database) -> None:
    service = TableService(db)
    off = await started(service, {"target": 1, "announcements": False})
    seat, user = first_player(service, off)
    hand = deal_of(service.live[off]).hands[seat]
    held = tuple(a.cards for a in best_announcements(seat, hand))
    with pytest.raises(Refusal, match=r"^Announcements are off at this table\.$"):
        await service.choose(off, user, 1, declare=held)
    await service.choose(off, user, 1, declare=())  # nothing: always fine
    await plays_a_card(service, off)
    await service.end(off, 99, can_manage=True)  # a moderator who does not play

    # Coinche deals all 8 cards before the bidding: no contract yet, so no announcement.
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "coinche",
                                         {"target": 1, "announcements": True}))
    for seat, (uid, name) in enumerate(USERS[1:], start=1):
        await service.sit(live.id, uid, name, seat)
    await service.start(live.id, 1)
    seat, user = first_player(service, live.id)
    hand = deal_of(live).hands[seat]
    assert hand.bit_count() == 8
    some = tuple(a.cards for a in best_announcements(seat, hand)) or not_held_run(hand)
    with pytest.raises(Refusal, match=r"^Announcements are chosen once the bidding is over\.$"):
        await service.choose(live.id, user, 1, declare=some)
    assert await db.tables.choices(live.id) == []

async def test_a_bad_choice_stored_before_the_check_does_not_stall_the_table(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "old.sqlite3"
    db = await Database.open(path)
    service = TableService(db)
    table_id = await started(service, {"target": 1})
    live = service.live[table_id]
    seat, _ = first_player(service, table_id)
    forged = not_held_run(deal_of(live).hands[seat])
    # What a bot from before the check stored: cards the player does not hold, and junk.
    await db.tables.put_choice(ChoiceRow(table_id, seat, 1,
                                         [[card_str(c) for c in g] for g in forged], False))
    other = (seat + 1) % 4
    await db.tables.put_choice(ChoiceRow(table_id, other, 1, [["ZZ", "9"]], True))
    await db.close()

    db = await Database.open(path)
    try:
        again = TableService(db)
        with caplog.at_level(logging.WARNING, logger="bot.service"):
            await again.restore()
        assert [r for r in caplog.records if r.levelno == logging.WARNING and
                "dropped" in r.getMessage()]
        live = again.live[table_id]
        assert live.choice(seat).declare is None and not live.choice(seat).belote
        await plays_a_card(again, table_id)  # accepted: the table goes on
        assert match_of(live).to_act == other
        await plays_a_card(again, table_id)
        stored = {c.seat: c.declare for c in await db.tables.choices(table_id)}
        assert stored == {seat: None, other: None}  # dropped for good
    finally:
        await db.close()

