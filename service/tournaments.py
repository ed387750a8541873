"""The tournament runner: sign-up, the start, each round's tables, the winners, the end.

The format is ``game.tournament``; the state is stored (``db.tournaments``) at every step, so a
restart resumes (:meth:`TournamentRunner.resume`, after the table service restored its tables).
Tables are the table service's own, opened with the tournament's options (the variant's
target, a 7-deal cap, a 30 s turn timer); the service tells the runner when one ends
(``TableService.end_hooks``). Each tournament changes one step at a time (its guard).

A table is opened by one of its people (the service seats its host in seat 0): the drawn seats
are turned so that a person is in seat 0 (a rotation keeps partners together); the host's drawn
seat says which team of the draw a table team is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from db import Database
from db.credits import Move, NotEnoughCredits
from db.tournaments import COMPUTER, IN, LEFT, TournamentRow
from game.rules import Variant
from game.tournament import (
    AWAY_TURNS,
    TURN_SECONDS,
    Draw,
    Format,
    Round,
    Stage,
    Tournament,
    TournamentError,
    table_options,
)
from i18n import DEFAULT_LANGUAGE, Number

from .guild_settings import GuildSettingsStore
from .keyed_lock import KeyedLock
from .refusals import Refusal
from .tables import LiveTable, NewTable, TableService
from .tables.core import ABANDONED, EVERYBODY_LEFT
from .tables.stakes import kicked
from .tournament_prizes import fee_returned, fee_taken, prizes

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
NameOf = Callable[[int, int], str]  # (server, member) -> the name shown at the table
Present = Callable[[int, int], bool]  # (server, member) -> there to play at the start


class TournamentListener(Protocol):
    """What the runner tells the Discord side. Each call only schedules work."""

    def changed(self, row: TournamentRow, t: Tournament) -> None: ...
    def table_seated(self, row: TournamentRow, round_number: int, position: int,
                     live: LiveTable, computers: list[int]) -> None: ...
    def ended(self, row: TournamentRow, t: Tournament) -> None: ...


class NullTournamentListener:
    def changed(self, row: TournamentRow, t: Tournament) -> None:
        pass

    def table_seated(self, row: TournamentRow, round_number: int, position: int,
                     live: LiveTable, computers: list[int]) -> None:
        pass

    def ended(self, row: TournamentRow, t: Tournament) -> None:
        pass


@dataclass(frozen=True, slots=True)
class Seated:
    table_id: int | None  # None: every seat a computer's, decided without a table
    computers: list[int]  # entrants a computer played for at this table


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def unseeded() -> random.Random:
    """The draws' generator when none is given (the bot gives its own, seeded by TABLE_SEED
    when set): the system's randomness. The test suite fails a test that draws from it."""
    return random.Random()


class TournamentRunner:
    def __init__(self, db: Database, service: TableService, settings: GuildSettingsStore, *,
                 names: NameOf, present: Present | None = None, clock: Clock = utc_now,
                 rng: random.Random | None = None,
                 listener: TournamentListener | None = None) -> None:
        self.repo = db.tournaments
        self.credits = db.credits
        self.service = service
        self.settings = settings
        self.names = names
        self.present = present or (lambda guild, user: True)
        self.clock = clock
        self.rng = rng if rng is not None else unseeded()
        self.listener: TournamentListener = listener or NullTournamentListener()
        # One change of a tournament at a time; a tournament's lock is forgotten once nobody
        # holds or waits on it, so ids clicked once (forged ones too) are not kept.
        self._guards: KeyedLock[int] = KeyedLock()
        self._names: dict[int, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # A member's credits, their starting grant given if due (service/credits.py); None: no
        # credits on this bot (tournaments with an entry fee cannot be joined).
        self.balance_of: Callable[[int, int], Awaitable[int]] | None = None
        service.end_hooks.append(self._table_ended)

    # ---- reading -------------------------------------------------------------------------
    async def load(self, tournament_id: int) -> tuple[TournamentRow, Tournament]:
        row = await self.repo.get(tournament_id)
        if row is None:
            raise TournamentError("no_such_tournament")
        entrants = await self.repo.entrants(tournament_id)
        for e in entrants:  # the names they signed up under, kept across a restart
            if e.name is not None:
                self._names.setdefault(e.user_id, e.name)
        rounds: dict[int, tuple[list[Draw], dict[int, int]]] = {}
        for table in await self.repo.tables(tournament_id):
            draws, won = rounds.setdefault(table.round, ([], {}))
            draws.append(Draw(table.seats))
            if table.winner_team is not None:
                won[table.position] = table.winner_team
        t = Tournament.restore(
            row.format, row.seed, row.variant, row.stage,
            [e.user_id for e in entrants if e.status != LEFT],
            [e.user_id for e in entrants if e.status != IN],
            [rounds[n] for n in sorted(rounds)])
        return row, t

    def name_of(self, row: TournamentRow, user_id: int) -> str:
        """How the tables (and the bracket) show an entrant: the name they signed up under."""
        return self._names.get(user_id) or self.names(row.guild_id, user_id)

    def _guard(self, tournament_id: int) -> AbstractAsyncContextManager[None]:
        return self._guards(tournament_id)

    # ---- sign-up -------------------------------------------------------------------------
    async def create(self, *, guild_id: int, channel_id: int, host_id: int,
                     fmt: Format | str, variant: str, starts_at: datetime | None,
                     entry_fee: int = 0, language: str = DEFAULT_LANGUAGE) -> TournamentRow:
        fmt = Format(fmt)
        if starts_at is not None and starts_at <= self.clock():
            raise TournamentError("start_in_the_past")
        table_options(variant)  # a known variant
        return await self.repo.create(
            guild_id=guild_id, channel_id=channel_id, host_id=host_id, format=fmt.value,
            variant=variant, seed=self.rng.getrandbits(62),
            starts_at=None if starts_at is None else iso(starts_at), entry_fee=entry_fee,
            language=language)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await self.repo.set_message(tournament_id, message_id)

    async def join(self, tournament_id: int, user_id: int, name: str | None = None
                   ) -> Tournament:
        """Sign up; a tournament that starts when full starts with its last entrant.
        ``name``: how the tables will show them (else asked of ``names`` when seated)."""
        if name is not None:
            self._names[user_id] = name
        async with self._guard(tournament_id):
            row, t = await self.load(tournament_id)
            t.join(user_id)  # refuses what the format refuses, before any write
            fee = [fee_taken(row, user_id)] if row.entry_fee else []
            if fee:
                await self._check_fee(row, user_id)
            try:
                await self.repo.add_entrant(tournament_id, user_id, name,
                                            guild_id=row.guild_id, credits=fee)
            except NotEnoughCredits as e:  # spent meanwhile: not signed up, nothing taken
                raise Refusal("credits.cannot_cover_fee", fee=Number(row.entry_fee),
                              balance=Number(e.balance)) from None
            self.listener.changed(row, t)
            if t.is_full and row.starts_at is None:
                await self._start(row, t)
        return t

    async def leave(self, tournament_id: int, user_id: int) -> Tournament:
        """Leave for good: at sign-up the place is freed; once running, a computer plays on
        for them (their seat at a table of this round is handed to it now)."""
        async with self._guard(tournament_id):
            row, t = await self.load(tournament_id)
            running = t.stage is Stage.RUNNING
            t.leave(user_id)
            # Before the start the fee comes back; once it runs, the place was played for.
            back = [fee_returned(row, user_id)] if row.entry_fee and not running else []
            await self.repo.set_entrant_status(tournament_id, [user_id],
                                               COMPUTER if running else LEFT,
                                               guild_id=row.guild_id, credits=back)
            if running:
                await self._hand_over(tournament_id, user_id)
            self.listener.changed(row, t)
        return t

    async def _hand_over(self, tournament_id: int, user_id: int) -> None:
        for table in await self.repo.tables(tournament_id):
            if table.winner_team is None and table.table_id in self.service.live and \
                    user_id in table.seats:
                # Refused: not seated there any more, nothing to hand over.
                with contextlib.suppress(Refusal):
                    await self.service.leave(table.table_id, user_id)

    async def cancel(self, tournament_id: int) -> Tournament:
        async with self._guard(tournament_id):
            row, t = await self.load(tournament_id)
            t.cancel()
            await self._cancel(row, t)
        return t

    async def _cancel(self, row: TournamentRow, t: Tournament) -> None:
        """Cancelled: every entry fee paid comes back, with the new stage."""
        await self.repo.set_stage(row.id, Stage.CANCELLED.value, guild_id=row.guild_id,
                                  credits=[fee_returned(row, u) for u in await self._payers(row)])
        self.listener.ended(row, t)

    async def _payers(self, row: TournamentRow) -> list[int]:
        """The members who paid the entry fee and have not had it back (those who left at
        sign-up, those a moderator removed from a table)."""
        if not row.entry_fee:
            return []
        back = await self.credits.paid(row.guild_id, row.id, "refund")
        return [e.user_id for e in await self.repo.entrants(row.id)
                if e.user_id > 0 and e.status != LEFT and e.user_id not in back]

    async def _check_fee(self, row: TournamentRow, user_id: int) -> None:
        if self.balance_of is None:
            raise Refusal("credits.unavailable")
        balance = await self.balance_of(row.guild_id, user_id)
        if balance < row.entry_fee:
            raise Refusal("credits.cannot_cover_fee", fee=Number(row.entry_fee),
                          balance=Number(balance))

    # ---- the start -----------------------------------------------------------------------
    async def start_due(self) -> list[int]:
        """Start every tournament whose start time has come (the cog calls it each minute;
        tests with their clock). Returns the ids started or cancelled."""
        now, done = self.clock(), []
        for row in await self.repo.unfinished():
            if row.stage != Stage.SIGN_UP.value or row.starts_at is None or \
                    parse_iso(row.starts_at) > now:
                continue
            async with self._guard(row.id):
                row2, t = await self.load(row.id)
                if t.stage is Stage.SIGN_UP:
                    await self._start(row2, t)
                    done.append(row.id)
        return done

    async def _start(self, row: TournamentRow, t: Tournament) -> None:
        """No-shows (and places nobody took) are played by computers, or the tournament is
        cancelled, as the server's ``tournament_no_show`` says."""
        settings = await self.settings.get(row.guild_id)
        absent = [u for u in t.entrants if not self.present(row.guild_id, u)]
        missing = t.format.players - len(t.entrants)
        if (absent or missing) and settings.tournament_no_show == "cancel":
            t.cancel()
            await self._cancel(row, t)
            return
        # An empty place is a computer entrant of its own: a negative id, never a member's.
        for n in range(missing):
            t.entrants.append(-(n + 1))
            await self.repo.add_entrant(row.id, -(n + 1))
        absent += [-(n + 1) for n in range(missing)]
        first = t.start(absent)
        if absent:
            await self.repo.set_entrant_status(row.id, absent, COMPUTER)
        await self.repo.add_round(row.id, first.number, [d.seats for d in first.draws],
                                  stage=Stage.RUNNING.value)
        self.listener.changed(row, t)
        await self._seat_round(row, t, first)

    # ---- rounds --------------------------------------------------------------------------
    async def _seat_round(self, row: TournamentRow, t: Tournament, rnd: Round) -> None:
        stored = {(tb.round, tb.position): tb for tb in await self.repo.tables(row.id)}
        for position, draw in enumerate(rnd.draws):
            table = stored.get((rnd.number, position))
            if table is not None and (table.table_id is not None or
                                      table.winner_team is not None):
                continue  # seated before a restart
            seated = await self._seat_table(row, t, rnd.number, position, draw)
            if seated.table_id is None:
                # Four computers: a coin, seeded by the tournament, decides.
                coin = random.Random(f"{row.seed}:{rnd.number}:{position}").randrange(2)
                await self._record(row, t, rnd.number, position, coin)
                if t.stage is not Stage.RUNNING or t.current is not rnd:
                    return  # that result ended the round: the next one is seated already

    async def _seat_table(self, row: TournamentRow, t: Tournament, number: int, position: int,
                          draw: Draw) -> Seated:
        computers = [p for p in draw.seats if t.plays_by_computer(p)]
        # The turn timer and the takeover after one timeout are the tournament's; the rest is
        # the server's, as at any table: how long a table may sit idle, and how well the
        # computers that play for absent people play.
        settings = await self.settings.get(row.guild_id)
        live: LiveTable | None = None
        turn = 0
        for k, host in enumerate(draw.seats):
            if host in computers:
                continue
            try:
                live = await self.service.create(NewTable(
                    row.guild_id, row.channel_id, host, self.name_of(row, host),
                    row.variant, table_options(row.variant).to_json(Variant(row.variant)),
                    turn_timer=TURN_SECONDS, computer_level=settings.computer_level,
                    idle_minutes=settings.idle_minutes, away_turns=AWAY_TURNS,
                    language=row.language))
            except Refusal:
                computers.append(host)  # seated at another table: a computer plays for them
                continue
            turn = k
            break
        if live is None:
            await self._to_computers(row, t, computers)
            return Seated(None, computers)
        for seat in (1, 2, 3):
            player = draw.seats[(seat + turn) % 4]
            if player not in computers:
                try:
                    await self.service.sit(live.id, player, self.name_of(row, player),
                                           seat)
                    continue
                except Refusal:
                    computers.append(player)
            await self.service.add_computer(live.id, live.row.host_id, seat)
        await self.repo.link_table(row.id, number, position, live.id)
        live.tournament = True
        await self._to_computers(row, t, computers)
        await self.service.start(live.id, live.row.host_id)
        self.listener.table_seated(row, number, position, live, computers)
        return Seated(live.id, computers)

    async def _to_computers(self, row: TournamentRow, t: Tournament, players: list[int]) -> None:
        new = [p for p in players if not t.plays_by_computer(p)]
        if new:
            t.left.update(new)
            await self.repo.set_entrant_status(row.id, new, COMPUTER)

    async def _record(self, row: TournamentRow, t: Tournament, number: int, position: int,
                      team: int) -> None:
        current = t.current
        if current is None or current.number != number or position in current.winners:
            return
        nxt = t.record(position, team)
        paid: list[Move] = []
        if t.stage is Stage.FINISHED and row.entry_fee:
            split = (await self.settings.get(row.guild_id)).tournament_prize_split
            paid = prizes(row, await self._payers(row), t.winners, t.runners_up,
                          set(t.left), split)
        saved = await self.repo.record_winner(row.id, number, position, team,
                                              finished=t.stage is Stage.FINISHED,
                                              guild_id=row.guild_id, credits=paid)
        if not saved:
            return
        self.listener.changed(row, t)
        if t.stage is Stage.FINISHED:
            self.listener.ended(row, t)
        elif nxt is not None:
            await self.repo.add_round(row.id, nxt.number, [d.seats for d in nxt.draws])
            await self._seat_round(row, t, nxt)

    # ---- a table ends --------------------------------------------------------------------
    def _table_ended(self, live: LiveTable) -> None:
        # Seat 0 is the person the table was opened by (the draw is turned by them), even if
        # another person hosts it now (a moderator removed them).
        first = live.seats.get(0)
        opener = first.user_id if first is not None and first.user_id is not None \
            else live.row.host_id
        task = asyncio.get_running_loop().create_task(
            self._on_table_end(live.id, opener, self.table_winner(live),
                               live.leavers(), sorted(kicked(live))))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def table_winner(live: LiveTable) -> int | None:
        """The team (of the table) that won it, or None: the table is played again.

        A match won is won. A game abandoned (the sweeper: the idle people are its leavers) or
        left by every person is lost by the side whose people left or idled, when only one
        side did. Anything else ended early (a moderator's ``/belote end``, both sides gone)
        is replayed from nothing with the same draw: the score when it stopped decides
        nothing, so nobody gains by having it ended."""
        match = live.match
        if match is not None and match.winner is not None:
            return match.winner
        if live.closed_why in (ABANDONED, EVERYBODY_LEFT):
            removed = kicked(live)  # a moderator's removal is nobody's fault at the table
            gone = {s.seat % 2 for s in live.seats.values()
                    if s.user_id in live.leavers() and s.user_id not in removed}
            if len(gone) == 1:
                return 1 - gone.pop()
        return None

    async def _on_table_end(self, table_id: int, host_id: int, table_winner: int | None,
                            leavers: Sequence[int] = (), removed: Sequence[int] = ()) -> None:
        try:
            where = await self.repo.of_table(table_id)
            if where is None:
                return  # not a tournament table (or one replayed since)
            tournament_id, number, position = where
            async with self._guard(tournament_id):
                row, t = await self.load(tournament_id)
                # A member a moderator removed from the table has their entry fee back (no
                # prize: they are out, and a computer plays on for them).
                out = [u for u in removed if u in t.entrants and not t.plays_by_computer(u)]
                if out:
                    t.left.update(out)
                    await self.repo.set_entrant_status(
                        row.id, out, COMPUTER, guild_id=row.guild_id,
                        credits=[fee_returned(row, u) for u in out] if row.entry_fee else [])
                # Who left the table (its Leave button, idle when it was abandoned) and did
                # not come back has left the tournament: a computer plays on for them from
                # the next round.
                await self._to_computers(row, t, [u for u in leavers if u in t.entrants])
                await self._decide(row, t, number, position, host_id, table_winner)
        except Exception:
            log.exception("tournament table %s: its end could not be recorded", table_id)

    async def _decide(self, row: TournamentRow, t: Tournament, number: int, position: int,
                      host_id: int, table_winner: int | None) -> None:
        """Record the table's winner, or seat it again (``table_winner`` None: replayed)."""
        current = t.current
        if current is None or current.number != number or position in current.winners:
            return
        draw = t.rounds[number - 1].draws[position]
        if table_winner is not None:
            await self._record(row, t, number, position,
                               self._draw_team(row, draw, host_id, table_winner, number,
                                               position))
            return
        log.info("tournament %s: table %s of round %s ended early; it is played again",
                 row.id, position, number)
        seated = await self._seat_table(row, t, number, position, draw)
        if seated.table_id is None:  # four computers now: the seeded coin decides
            coin = random.Random(f"{row.seed}:{number}:{position}").randrange(2)
            await self._record(row, t, number, position, coin)

    @staticmethod
    def _draw_team(row: TournamentRow, draw: Draw, host_id: int, table_winner: int | None,
                   number: int, position: int) -> int:
        """The draw's team for the table's winning team (the table turned so that its host
        sits in seat 0); a table ended level is decided by a seeded coin."""
        if table_winner is None:
            table_winner = random.Random(f"{row.seed}:{number}:{position}").randrange(2)
        turn = draw.seats.index(host_id)
        return (table_winner + turn) % 2

    async def settle(self) -> None:
        """Wait until the work the table ends scheduled is done (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    # ---- a restart -----------------------------------------------------------------------
    async def resume(self, owns: Callable[[int], bool] | None = None) -> list[int]:
        """After the table service restored its tables: settle every table of a running
        tournament that ended while the bot was away, seat what was drawn but not seated
        (with ``owns``: only the tournaments of the servers it owns)."""
        resumed = []
        for row in await self.repo.unfinished():
            if row.stage != Stage.RUNNING.value or (owns is not None and not owns(row.guild_id)):
                continue
            async with self._guard(row.id):
                row, t = await self.load(row.id)
                current = t.current
                if current is None:
                    continue
                resumed.append(row.id)
                for table in await self.repo.tables(row.id):
                    if table.round != current.number or table.winner_team is not None or \
                            table.table_id is None:
                        continue
                    live = self.service.live.get(table.table_id)
                    if live is not None:  # restored: its leavers stay out
                        live.tournament = True
                        continue
                    end = await self.repo.table_end(table.table_id)
                    if end is None:
                        continue
                    host, _status, winner = end
                    # Ended without a winner while the bot was away: replayed (``_decide``).
                    await self._decide(row, t, table.round, table.position, host, winner)
                    if t.current is not current:
                        break
                if t.stage is Stage.RUNNING and t.current is not None:
                    nxt = t.advance() if t.current.is_done else None
                    if nxt is not None:
                        await self.repo.add_round(row.id, nxt.number,
                                                  [d.seats for d in nxt.draws])
                    await self._seat_round(row, t, t.current)
                    await self._show_unshown(row)
        return resumed

    async def _show_unshown(self, row: TournamentRow) -> None:
        """A table seated just before a stop may never have had its thread and message:
        shown now (the listener opens its thread)."""
        for table in await self.repo.tables(row.id):
            live = self.service.live.get(table.table_id) if table.table_id else None
            if live is not None and live.row.message_id is None:
                self.listener.table_seated(row, table.round, table.position, live, [])
