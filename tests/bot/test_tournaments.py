"""The tournament runner against the real table service and SQLite: sign-up, the start, rounds
played out (people by a seeded random player, computers by themselves), the next round seated
at once, the final, no-shows, leavers and a restart in the middle of a round."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from db import Database
from db.tournaments import COMPUTER
from game.players import RandomPlayer
from game.tournament import Format, Stage, TournamentError
from game.view import table_view
from service import Refusal
from service.credits import Credits
from service.guild_settings import GuildSettingsStore
from service.tables import TableService
from service.tournaments import TournamentRunner
from tests.bot.helpers import match_of

GUILD, CHANNEL, HOST = 100, 200, 999
PEOPLE = list(range(1, 9))
NOW = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


class World:
    def __init__(self, db: Database, present: Callable[[int, int], bool] | None = None,
                 clock: Callable[[], datetime] = lambda: NOW) -> None:
        self.db = db
        self.service = TableService(db, computer_delay=0, rng=random.Random(3))
        self.runner = TournamentRunner(db, self.service, GuildSettingsStore(db),
                                       names=lambda guild, user: f"p{user}", present=present,
                                       clock=clock, rng=random.Random(5))

    async def restore(self) -> None:
        await self.service.restore()
        await self.runner.resume()

    async def close(self) -> None:
        await self.service.close()


async def new_quick(w: World, starts_at: datetime | None = None) -> int:
    row = await w.runner.create(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST,
                                fmt=Format.QUICK, variant="bulgarian", starts_at=starts_at)
    return row.id


async def tables_of(w: World, tid: int, number: int) -> list[int]:
    return [t.table_id for t in await w.runner.repo.tables(tid)
            if t.round == number and t.table_id is not None]


async def play(w: World, table_ids: list[int], seed: int = 1, steps: int = 100_000) -> None:
    """People act with a seeded random player, computers by themselves, until the tables
    end (or ``steps`` people's actions)."""
    rng = RandomPlayer(seed)
    for _ in range(steps):
        await w.service.settle()
        await w.runner.settle()
        open_ = [t for t in table_ids if t in w.service.live]
        if not open_:
            return
        moved = False
        for table_id in open_:
            live = w.service.live.get(table_id)
            if live is None:
                continue
            seat = match_of(live).to_act
            if seat is None:
                continue
            row = live.seats[seat]
            if row.computer is not None or row.user_id is None or seat in live.computers:
                continue
            action = rng.choose(table_view(match_of(live), seat))
            await w.service.act(table_id, row.user_id, live.seq, action)
            moved = True
            break
        if not moved:
            await w.service.settle()
    await w.runner.settle()


async def test_sign_up_starts_when_full_and_seats_everyone(db: Database) -> None:
    w = World(db)
    tid = await new_quick(w)
    for user in PEOPLE[:7]:
        await w.runner.join(tid, user)
    with pytest.raises(TournamentError, match="already_in"):
        await w.runner.join(tid, 1)
    _, t = await w.runner.load(tid)
    assert t.stage is Stage.SIGN_UP and t.entrants == PEOPLE[:7]
    await w.runner.join(tid, 8)
    _, t = await w.runner.load(tid)
    assert t.stage is Stage.RUNNING
    tables = await tables_of(w, tid, 1)
    assert len(tables) == 2
    seated = sorted(s.user_id for tb in tables for s in w.service.live[tb].seats.values()
                    if s.user_id is not None)
    assert seated == PEOPLE
    live = w.service.live[tables[0]]
    assert live.row.turn_timer == 30
    assert match_of(live).options.deal_cap == 7 and match_of(live).options.target == 151
    with pytest.raises(TournamentError, match="not_open"):
        await w.runner.join(tid, 9)
    await w.close()


async def test_tournament_tables_keep_the_servers_idle_time_and_computer_level(
        db: Database) -> None:
    w = World(db)
    await w.runner.settings.change(GUILD, {"away_turns": 5, "idle_minutes": 15,
                                           "computer_level": "hard"})
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user)
    for table_id in await tables_of(w, tid, 1):
        live = w.service.live[table_id]
        # The tournament's own timer and takeover after one timeout, whatever the server's.
        assert live.row.turn_timer == 30 and live.away_turns == 1
        assert (live.idle_minutes, live.level) == (15, "hard")
    await w.close()


async def test_a_round_ends_the_next_is_seated_at_once_and_the_final_decides(
        db: Database) -> None:
    # Two of the eight are not there at the start: computers play for them.
    w = World(db, present=lambda guild, user: user not in (7, 8))
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user)
    statuses = {e.user_id: e.status for e in await w.runner.repo.entrants(tid)}
    assert [u for u, s in statuses.items() if s == COMPUTER] == [7, 8]
    await play(w, await tables_of(w, tid, 1))
    _, t = await w.runner.load(tid)
    assert t.rounds[0].is_done and len(t.rounds) == 2
    final = await tables_of(w, tid, 2)
    assert len(final) == 1 and final[0] in w.service.live  # seated at once
    assert sorted(t.rounds[1].draws[0].seats) == sorted(t.rounds[0].going_on())
    await play(w, final, seed=2)
    row, t = await w.runner.load(tid)
    assert row.stage == "finished" and t.stage is Stage.FINISHED
    draw = t.rounds[1].draws[0]
    assert {*t.winners, *t.runners_up} == set(draw.seats)
    assert await w.runner.repo.unfinished() == []
    # /belote stats counts them: a win for each winner, a second place for each finalist.
    repo = w.runner.repo
    for user in t.winners:
        assert await repo.podiums(GUILD, "bulgarian", user) == (1, 0)
    for user in t.runners_up:
        assert await repo.podiums(GUILD, "bulgarian", user) == (0, 1)
    out = next(u for u in PEOPLE if u not in draw.seats)
    assert await repo.podiums(GUILD, "bulgarian", out) == (0, 0)
    assert await repo.podiums(GUILD, "classic", t.winners[0]) == (0, 0)
    await w.close()


async def test_no_shows_cancel_the_tournament_when_the_server_says_so(db: Database) -> None:
    w = World(db, present=lambda guild, user: user != 4)
    await w.runner.settings.change(GUILD, {"tournament_no_show": "cancel"})
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user)
    row, _ = await w.runner.load(tid)
    assert row.stage == "cancelled" and not w.service.live
    await w.close()


async def test_a_timed_start_waits_for_its_time_and_fills_empty_places(db: Database) -> None:
    now = [NOW]
    w = World(db, clock=lambda: now[0])
    tid = await new_quick(w, starts_at=NOW + timedelta(minutes=30))
    for user in PEOPLE[:5]:
        await w.runner.join(tid, user)
    assert await w.runner.start_due() == []
    now[0] = NOW + timedelta(minutes=30)
    assert await w.runner.start_due() == [tid]
    _, t = await w.runner.load(tid)
    assert t.stage is Stage.RUNNING and len(t.entrants) == 8
    assert sorted(p for p in t.entrants if t.plays_by_computer(p)) == [-3, -2, -1]
    with pytest.raises(TournamentError, match="start_in_the_past"):
        await w.runner.create(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST,
                              fmt="quick", variant="bulgarian", starts_at=NOW)
    await w.close()


async def test_a_leaver_is_played_by_a_computer_and_cannot_rejoin(db: Database) -> None:
    w = World(db)
    tid = await new_quick(w)
    await w.runner.join(tid, 1)
    await w.runner.leave(tid, 1)
    with pytest.raises(TournamentError, match="cannot_rejoin"):
        await w.runner.join(tid, 1)
    for user in [*PEOPLE[1:], 9]:
        await w.runner.join(tid, user)
    await w.runner.leave(tid, 5)
    _, t = await w.runner.load(tid)
    assert t.plays_by_computer(5) and 5 in t.entrants
    table = next(w.service.live[tb] for tb in await tables_of(w, tid, 1)
                 if any(s.user_id == 5 for s in w.service.live[tb].seats.values()))
    seat = next(s for s, row in table.seats.items() if row.user_id == 5)
    assert seat in table.computers or table.seats[seat].computer is not None
    await w.close()


async def test_a_restart_in_the_middle_of_a_round_goes_on(db: Database) -> None:
    w = World(db, present=lambda guild, user: user in (1, 2))
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user)
    first = await tables_of(w, tid, 1)
    await play(w, first, steps=20)  # part of round one
    await w.close()
    # The bot stops; while it is away nothing runs. It comes back and resumes.
    w2 = World(db, present=lambda guild, user: user in (1, 2))
    await w2.restore()
    assert all(tb in w2.service.live for tb in first)
    await play(w2, first, seed=4)
    _, t = await w2.runner.load(tid)
    assert t.rounds[0].is_done and len(t.rounds) == 2
    await play(w2, await tables_of(w2, tid, 2), seed=5)
    row, t = await w2.runner.load(tid)
    assert row.stage == "finished"
    await w2.close()


async def test_a_table_that_ended_while_the_runner_was_away_is_recorded_on_resume(
        db: Database) -> None:
    w = World(db, present=lambda guild, user: user not in (7, 8))
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user)
    first = await tables_of(w, tid, 1)
    w.service.end_hooks.clear()  # the results are stored, the runner never hears of them
    await play(w, first)
    assert not any(tb in w.service.live for tb in first)
    _, t = await w.runner.load(tid)
    assert len(t.rounds) == 1 and not t.rounds[0].winners
    await w.close()
    w2 = World(db, present=lambda guild, user: user not in (7, 8))
    await w2.restore()
    _, t = await w2.runner.load(tid)
    assert t.rounds[0].is_done and len(t.rounds) == 2
    assert len(await tables_of(w2, tid, 2)) == 1
    await w2.close()


async def test_names_are_kept_across_a_restart_between_rounds(db: Database) -> None:
    w = World(db)
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user, f"name{user}")
    first = await tables_of(w, tid, 1)
    await play(w, first, steps=10)
    await w.close()
    # After a restart the member cache knows nobody (the fallback gives "#id"): the names
    # come from the database.
    w2 = World(db)
    w2.runner.names = lambda guild, user: f"#{user}"
    await w2.restore()
    await play(w2, first, seed=3)
    final = await tables_of(w2, tid, 2)
    assert len(final) == 1
    names = {s.user_id: s.name for s in w2.service.live[final[0]].seats.values()
             if s.user_id is not None}
    assert names and all(name == f"name{user}" for user, name in names.items())
    await w2.close()


async def test_a_player_who_leaves_a_table_leaves_the_tournament(db: Database) -> None:
    w = World(db)
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user)
    first = await tables_of(w, tid, 1)
    live = w.service.live[first[0]]
    leaver = next(s.user_id for s in live.seats.values() if s.user_id is not None)
    await w.service.leave(first[0], leaver)  # the table's own Leave button
    _, t = await w.runner.load(tid)
    assert not t.plays_by_computer(leaver)  # still in while the table plays on
    await play(w, first)
    _, t = await w.runner.load(tid)
    statuses = {e.user_id: e.status for e in await w.runner.repo.entrants(tid)}
    assert t.plays_by_computer(leaver) and statuses[leaver] == COMPUTER
    assert t.rounds[0].is_done
    final = w.service.live[(await tables_of(w, tid, 2))[0]]
    if leaver in t.rounds[1].draws[0].seats:  # their pair won: a computer plays for them
        assert all(s.user_id != leaver or s.computer is not None
                   for s in final.seats.values())
        assert leaver not in [s.user_id for s in final.seats.values() if s.computer is None]
    with pytest.raises(TournamentError):
        await w.runner.leave(tid, leaver)  # already out
    await w.close()


async def with_credits(w: World) -> Credits:
    credits = Credits(w.db, w.runner.settings)
    w.runner.balance_of = credits.balance
    return credits


async def test_entry_fees_fill_the_pool_and_the_finalists_share_it(db: Database) -> None:
    w = World(db)
    credits = await with_credits(w)
    row = await w.runner.create(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST,
                                fmt=Format.QUICK, variant="bulgarian", starts_at=None,
                                entry_fee=100)
    await w.runner.join(row.id, 9)
    assert await credits.repo.balance(GUILD, 9) == 900
    await w.runner.leave(row.id, 9)  # before the start: the fee comes back
    assert await credits.repo.balance(GUILD, 9) == 1000
    for user in PEOPLE:
        await w.runner.join(row.id, user)
    assert [await credits.repo.balance(GUILD, u) for u in PEOPLE] == [900] * 8
    await play(w, await tables_of(w, row.id, 1))
    await play(w, await tables_of(w, row.id, 2), seed=2)
    _, t = await w.runner.load(row.id)
    assert t.stage is Stage.FINISHED
    # 800 in the pool: 70% to the winners (280 each), 30% to the runners-up (120 each).
    for user in t.winners:
        assert await credits.repo.balance(GUILD, user) == 900 + 280
    for user in t.runners_up:
        assert await credits.repo.balance(GUILD, user) == 900 + 120
    assert await credits.repo.paid(GUILD, row.id, "prize") == {
        **{u: 280 for u in t.winners}, **{u: 120 for u in t.runners_up}}
    total, ledger, per_reason = await credits.repo.sums(GUILD)
    assert total == ledger == per_reason["grant"] == 9 * 1000
    await w.close()


async def test_a_cancelled_tournament_returns_every_fee_and_who_cannot_pay_cannot_join(
        db: Database) -> None:
    w = World(db)
    credits = await with_credits(w)
    await w.runner.settings.change(GUILD, {"starting_credits": 150})
    row = await w.runner.create(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST,
                                fmt=Format.QUICK, variant="bulgarian", starts_at=None,
                                entry_fee=100)
    for user in PEOPLE[:3]:
        await w.runner.join(row.id, user)
    assert [await credits.repo.balance(GUILD, u) for u in PEOPLE[:3]] == [50, 50, 50]
    # A smaller grant now: member 4 gets 50 and cannot pay 100; nothing is written.
    await w.runner.settings.change(GUILD, {"starting_credits": 50})
    with pytest.raises(Refusal, match="The entry fee is 100 credits and you have 50"):
        await w.runner.join(row.id, 4)
    assert await credits.repo.balance(GUILD, 4) == 50
    _, t = await w.runner.load(row.id)
    assert 4 not in t.entrants
    await w.runner.cancel(row.id)
    assert [await credits.repo.balance(GUILD, u) for u in PEOPLE[:3]] == [150, 150, 150]
    total, ledger, per_reason = await credits.repo.sums(GUILD)
    assert total == ledger == per_reason["grant"]
    await w.close()


class Seatings:
    """A listener that notes the tables it is told were seated."""

    def __init__(self) -> None:
        self.seated: list[tuple[int, int]] = []

    def changed(self, row: object, t: object) -> None:
        pass

    def table_seated(self, row: object, round_number: int, position: int, live: object,
                     computers: list[int]) -> None:
        self.seated.append((round_number, position))

    def ended(self, row: object, t: object) -> None:
        pass


async def test_a_table_seated_but_never_shown_is_shown_after_a_restart(db: Database) -> None:
    w = World(db)
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user)
    await w.close()  # stopped before the tables' threads were opened (no message yet)
    w2 = World(db)
    seen = Seatings()
    w2.runner.listener = seen
    await w2.restore()
    assert sorted(seen.seated) == [(1, 0), (1, 1)]
    for table_id in await tables_of(w2, tid, 1):
        await w2.service.attach(table_id, thread_id=None, message_id=1000 + table_id)
    await w2.close()
    w3 = World(db)
    again = Seatings()
    w3.runner.listener = again
    await w3.restore()
    assert again.seated == []  # shown already: not again
    await w3.close()


async def test_a_kicked_entrant_has_the_fee_back_and_the_pool_is_the_others(
        db: Database) -> None:
    """Issue 48: a kick must not take a member's fee and hand it to the others."""
    w = World(db)
    credits = await with_credits(w)
    row = await w.runner.create(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST,
                                fmt=Format.QUICK, variant="bulgarian", starts_at=None,
                                entry_fee=100)
    for user in PEOPLE:
        await w.runner.join(row.id, user)
    first = await tables_of(w, row.id, 1)
    live = w.service.live[first[0]]
    kicked = live.seats[1].user_id
    assert kicked is not None
    await w.service.kick(first[0], HOST, kicked, can_manage=True)  # a moderator, not seated
    await play(w, first)
    assert await credits.repo.balance(GUILD, kicked) == 1000  # the fee came back
    _, t = await w.runner.load(row.id)
    assert t.plays_by_computer(kicked)  # out: a computer plays on for them
    await play(w, await tables_of(w, row.id, 2), seed=2)
    _, t = await w.runner.load(row.id)
    assert t.stage is Stage.FINISHED
    # 700 in the pool, not 800: the kicked member's fee is not shared out.
    paid = await credits.repo.paid(GUILD, row.id, "prize")
    assert sum(paid.values()) == 700 and kicked not in paid
    total, ledger, per_reason = await credits.repo.sums(GUILD)
    assert total == ledger == per_reason["grant"] == 8 * 1000
    await w.close()


async def test_an_abandoned_table_is_lost_by_the_idle_side_and_one_ended_is_replayed(
        db: Database) -> None:
    w = World(db)
    tid = await new_quick(w)
    for user in PEOPLE:
        await w.runner.join(tid, user)
    first, second = await tables_of(w, tid, 1)
    # A moderator ends the first table: replayed, nothing recorded.
    await w.service.end(first, HOST, can_manage=True)
    await w.runner.settle()
    _, t = await w.runner.load(tid)
    assert not t.rounds[0].winners
    replayed = [tb for tb in await tables_of(w, tid, 1) if tb != second]
    assert len(replayed) == 1 and replayed[0] != first and replayed[0] in w.service.live
    # The second table is abandoned while its person to act stalls: their side loses it.
    live = w.service.live[second]
    rng, acted = RandomPlayer(4), set[int]()
    while acted != {0, 1, 2, 3}:  # everybody acts once (who never acted would be idle too)
        turn = match_of(live).to_act
        assert turn is not None
        person = live.seats[turn].user_id
        assert person is not None and live.seats[turn].is_human
        await w.service.act(second, person, live.seq,
                            rng.choose(table_view(match_of(live), turn)))
        acted.add(turn)
    staller = match_of(live).to_act
    assert staller is not None and live.seats[staller].is_human
    await w.service.sweeper._abandon(live)
    await w.runner.settle()
    _, t = await w.runner.load(tid)
    position = [tb.table_id for tb in await w.runner.repo.tables(tid)].index(second)
    draw = t.rounds[0].draws[position]
    opener = live.seats[0].user_id
    assert opener is not None
    assert t.rounds[0].winners[position] == (1 - staller % 2 + draw.seats.index(opener)) % 2
    assert t.plays_by_computer(live.seats[staller].user_id or 0)
    await w.close()
