"""The table service against a real SQLite file: lobby, play, refusals, persistence, computers."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import pytest

from db import Database, LogEntry
from game.actions import Pass, Play
from game.players import RandomPlayer
from game.view import table_view
from i18n import words
from service import Refusal
from service.tables import LiveTable, NewTable, TableService
from tests.bot.helpers import deal_of, match_of, status_of, to_act

GUILD, CHANNEL = 100, 200


class Recorder:
    """Records what the service tells the delivery layer."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []
        self.early: list[tuple[int, int]] = []  # (table, seat) of each action told early

    def table_changed(self, live: LiveTable) -> None:
        self.calls.append(("table", live.id))

    def hands_changed(self, live: LiveTable, seats: Iterable[int]) -> None:
        self.calls.append(("hands", tuple(sorted(seats))))

    def acted(self, live: LiveTable, seat: int) -> None:
        self.early.append((live.id, seat))

    def deal_finished(self, live: LiveTable, deal_index: int) -> None:
        self.calls.append(("deal", deal_index))

    def match_finished(self, live: LiveTable, ratings: dict[int, tuple[float, float]]) -> None:
        self.calls.append(("match", ratings))

    def table_closed(self, live: LiveTable, reason: str) -> None:
        self.calls.append(("closed", reason))


async def four_players(service: TableService, variant: str = "classic",
                       options: dict[str, Any] | None = None) -> int:
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", variant,
                                         options or {"target": 1}))
    for seat, (uid, name) in enumerate([(2, "bo"), (3, "cy"), (4, "dee")], start=1):
        await service.sit(live.id, uid, name, seat)
    await service.start(live.id, 1)
    return live.id


def user_at(service: TableService, table_id: int, seat: int) -> int:
    """The person at ``seat`` (a seat a person holds)."""
    user = service.live[table_id].seats[seat].user_id
    assert user is not None, f"seat {seat} has no person"
    return user


async def play_random(service: TableService, table_id: int, steps: int, seed: int = 1) -> None:
    rng = RandomPlayer(seed)
    for _ in range(steps):
        live = service.live.get(table_id)
        if live is None:
            return
        seat = to_act(live)
        action = rng.choose(table_view(match_of(live), seat))
        await service.act(table_id, user_at(service, table_id, seat), live.seq, action)


async def test_lobby_rules(db: Database) -> None:
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "bulgarian", {},
                                         private=True))
    with pytest.raises(Refusal, match="private"):
        await service.sit(live.id, 2, "bo", 1)
    await service.invite(live.id, 1, 2)
    await service.sit(live.id, 2, "bo", 1)
    with pytest.raises(Refusal, match="taken by bo"):
        await service.sit(live.id, 1, "ana", 1)
    with pytest.raises(Refusal, match="Only the host"):
        await service.start(live.id, 2)
    with pytest.raises(Refusal, match="North, West are empty"):
        await service.start(live.id, 1)
    with pytest.raises(Refusal, match="already sit at table"):  # one table per server
        await service.create(NewTable(GUILD, CHANNEL, 2, "bo", "classic", {}))
    with pytest.raises(Refusal, match="options"):
        await service.create(NewTable(GUILD, CHANNEL, 9, "x", "classic", {"target": 0}))
    await service.add_computer(live.id, 1, 2)
    assert live.seats[2].computer == "easy" and "Nora" in live.seats[2].name
    await service.sit(live.id, 2, "bo", 3)  # moving seats frees the old one
    assert sorted(live.seats) == [0, 2, 3]


async def test_a_whole_match_is_played_and_recorded(db: Database) -> None:
    rec = Recorder()
    service = TableService(db, listener=rec)
    table_id = await four_players(service)
    await play_random(service, table_id, 2000)
    assert table_id not in service.live
    assert await status_of(db, table_id) == "finished"
    assert await db.results.winner_of(table_id) in (0, 1)
    assert [c for c in rec.calls if c[0] == "match"]
    assert len(await db.results.leaderboard(GUILD, "classic")) == 4


async def test_a_persons_action_is_told_early_before_it_is_logged(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The delivery hears of a person's action while its log write is on its way (so the
    answer's image can be drawn meanwhile); of a computer's, only once saved, as a change."""
    rec = Recorder()
    service = TableService(db, listener=rec, computer_delay=0)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {"target": 1},
                                         fill=True))
    await service.start(live.id, 1)
    await service.settle()
    writes: list[tuple[int | None, int]] = []  # (whose step, early words heard by then)
    append = db.log.append

    async def watched(table_id: int, entries: list[LogEntry]) -> None:
        writes.append((entries[0].user_id, len(rec.early)))
        await append(table_id, entries)

    monkeypatch.setattr(db.log, "append", watched)
    rng = RandomPlayer(3)
    for _ in range(3):
        await service.act(live.id, 1, live.seq, rng.choose(table_view(match_of(live), 0)))
        await service.settle()  # the three computers answer
    assert [n for user, n in writes if user == 1] == [1, 2, 3]  # each told before its write
    assert sum(1 for user, _ in writes if user is None) >= 9  # the computers' moves ...
    assert rec.early == [(live.id, 0)] * 3  # ... are never told early


async def test_refusals_change_nothing(db: Database) -> None:
    service = TableService(db)
    table_id = await four_players(service, "coinche")
    live = service.live[table_id]
    seat = to_act(live)
    wrong = user_at(service, table_id, (seat + 1) % 4)
    with pytest.raises(Refusal, match="not your turn"):
        await service.act(table_id, wrong, live.seq, Pass())
    with pytest.raises(Refusal, match="not playing"):
        await service.act(table_id, 999, live.seq, Pass())
    with pytest.raises(Refusal, match="out of date"):
        await service.act(table_id, user_at(service, table_id, seat), live.seq - 1, Pass())
    with pytest.raises(Refusal, match="bidding is not over"):
        await service.act(table_id, user_at(service, table_id, seat), live.seq, Play(0))
    assert live.seq == 1 and not deal_of(live).actions
    assert len(await db.log.entries(table_id)) == 1  # only the deal


async def test_a_refusal_names_the_player_to_act_as_text(db: Database) -> None:
    # A name is markup-free in the refusal a member reads (service/markup.py, issue 48).
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "coinche", {"target": 1}))
    for seat, (uid, name) in enumerate([(2, "**b** <@1>"), (3, "||c||"), (4, "[d](http://e)")],
                                       start=1):
        await service.sit(live.id, uid, name, seat)
    await service.start(live.id, 1)
    seat = to_act(live)
    wrong = user_at(service, live.id, (seat + 1) % 4)
    escaped = ["ana", r"\*\*b\*\* \<\@1\>", r"\|\|c\|\|", r"\[d](http\://e)"][seat]
    with pytest.raises(Refusal) as refused:
        await service.act(live.id, wrong, live.seq, Pass())
    assert refused.value.text() == f"It is not your turn: it is {escaped}'s turn."


async def test_double_and_concurrent_clicks_apply_once(db: Database) -> None:
    service = TableService(db)
    table_id = await four_players(service)
    live = service.live[table_id]
    seat, seq = to_act(live), live.seq
    user = user_at(service, table_id, seat)
    results = await asyncio.gather(*(service.act(table_id, user, seq, Pass())
                                     for _ in range(5)), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, Refusal) for r in results if isinstance(r, Exception))
    assert len(deal_of(live).actions) == 1


async def test_restore_replays_open_tables_mid_deal(db: Database) -> None:
    service = TableService(db)
    table_id = await four_players(service, "bulgarian", {})
    await play_random(service, table_id, 15)
    before = service.live[table_id]
    again = TableService(db)
    await again.restore()
    after = again.live[table_id]
    assert after.seq == before.seq
    assert deal_of(after).hands == deal_of(before).hands
    assert match_of(after).to_act == match_of(before).to_act
    assert match_of(after).totals == match_of(before).totals
    await play_random(again, table_id, 5, seed=4)  # and it goes on
    assert after.seq > before.seq


async def test_computers_fill_and_take_over(db: Database) -> None:
    service = TableService(db, computer_delay=0)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {"target": 1},
                                         fill=True))
    assert [s.computer for s in live.seats.values()] == [None, "easy", "easy", "easy"]
    await service.start(live.id, 1)
    await service.settle()
    assert match_of(live).to_act == 0  # the computers played up to the person's turn
    message = await service.leave(live.id, 1)
    assert "computer plays your seat" not in words()(message)  # no person left: the table closes
    assert live.id not in service.live


async def test_a_player_who_leaves_is_replaced_and_can_come_back(db: Database) -> None:
    service = TableService(db, computer_delay=0)
    table_id = await four_players(service)
    live = service.live[table_id]
    seat = to_act(live)
    user = user_at(service, table_id, seat)
    await service.leave(table_id, user)
    await service.settle()
    assert match_of(live).to_act != seat or deal_of(live).actions  # the computer acted
    assert live.seats[seat].computer == "easy" and live.seats[seat].user_id == user
    with pytest.raises(Refusal, match="computer plays your seat"):
        await service.act(table_id, user, live.seq, Pass())
    await service.sit(table_id, user, "back", seat)  # the seat button reclaims it
    assert live.seats[seat].computer is None


async def test_invite_refuses_the_host_and_bots(db: Database) -> None:
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {},
                                         private=True))
    with pytest.raises(Refusal, match="cannot invite yourself"):
        await service.invite(live.id, 1, 1)
    with pytest.raises(Refusal, match="Bots cannot sit"):
        await service.invite(live.id, 1, 7, is_bot=True)
    assert live.invited == set() and await db.tables.invited(live.id) == set()


async def test_invite_and_attach_wait_for_the_tables_lock(db: Database) -> None:
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {},
                                         private=True))
    async with live.lock:  # another change to the table is under way
        invite = asyncio.create_task(service.invite(live.id, 1, 2))
        attach = asyncio.create_task(service.attach(live.id, thread_id=5, message_id=6))
        for _ in range(20):
            await asyncio.sleep(0)
        assert not invite.done() and not attach.done()
        assert live.invited == set() and live.row.message_id is None
    await asyncio.gather(invite, attach)
    row = live.row  # read again: the tasks changed it (mypy would keep the narrowing above)
    assert live.invited == {2} and (row.thread_id, row.message_id) == (5, 6)
