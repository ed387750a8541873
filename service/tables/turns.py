"""Whose turn it is when nobody clicks: computers take their turns, turn timers run out.

Computers play through the same commit as people (``commit``, given by the play part), one
turn at a time through the table's door. A person who runs out of time has a computer of the
table's level play their seat, as if they had left, until they take it back. While Discord is
down (``hold``) no turn timer runs; each goes on with the time it had left (``release``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from db import SeatRow
from game.actions import Action, Play
from game.choices import first_card, forced_card, may_call_belote
from game.view import table_view

from ..compute import decide
from ..computers import make_player, seat_seed
from . import state
from .batch import RUN_MOVES, Batch
from .clock import Handle
from .core import Tables
from .state import LiveTable, TableListener

log = logging.getLogger(__name__)

# How a computer's action is committed: (table, seat, action, the listener to tell, who
# decided it: "computer", or "timeout" for a person's turn run out). The caller holds the door.
Commit = Callable[[LiveTable, int, Action, TableListener, str], Awaitable[None]]
# How a forced card is committed for a person: (table, seat, card's action). Caller holds the
# door; the log records it as decided "forced".
CommitForced = Callable[[LiveTable, int, Action], Awaitable[None]]


class Turns:
    def __init__(self, tables: Tables, commit: Commit, computer_delay: float,
                 forced_delay: float | None = None) -> None:
        self.tables = tables
        self.commit = commit
        self.computer_delay = computer_delay
        # The beat before a person's forced card is played for them; None: never played.
        self.forced_delay = forced_delay
        self.commit_forced: CommitForced | None = None  # given by the play part
        # Called (table, seat) when a person runs out of time and a computer takes over.
        self.timeout_hooks: list[Callable[[LiveTable, SeatRow], None]] = []
        self._timeouts: set[asyncio.Task[None]] = set()
        # While Discord is down (hold), the seconds each running turn timer had left.
        self._held: dict[int, float] | None = None

    # ---- computers -----------------------------------------------------------------------
    def schedule_computer(self, live: LiveTable) -> None:
        if live.task is not None or self._computer_to_act(live) is None:
            return
        live.task = asyncio.create_task(self._computer_turns(live),
                                        name=f"belote-computer-{live.id}")

    @staticmethod
    def _computer_to_act(live: LiveTable) -> int | None:
        if not live.playing or live.match is None or live.paused:
            return None
        seat = live.match.to_act
        if seat is None or live.match.needs_deal:
            return None
        s = live.seats.get(seat)
        return seat if s is not None and s.computer is not None else None

    async def _computer_turns(self, live: LiveTable) -> None:
        """Runs of computer moves, each after one computer delay and told as one change
        (batch.py), until a person is to act."""
        try:
            while True:
                await asyncio.sleep(self.computer_delay)
                if not await self._run(live):
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: computer turn failed", live.id)
        finally:
            live.task = None

    async def _run(self, live: LiveTable) -> bool:
        """One run: the computers to act move, up to RUN_MOVES, ending early when a person is
        to act or a deal ends. True when a computer is still to act after it."""
        batch = Batch(self.tables.listener, live)
        try:
            for _ in range(RUN_MOVES):
                async with self.tables.door(live):
                    seat = self._computer_to_act(live)
                    if seat is None or live.id not in self.tables.live:
                        return False
                    match = live.match
                    assert match is not None
                    deals = len(match.deals)
                    view = table_view(match, seat)
                    # Decisions can take a while (search): keep the event loop free.
                    action = await decide(live.player(seat), view)
                    await self.commit(live, seat, action, batch, "computer")
                    if len(match.deals) != deals or match.needs_deal:
                        break  # the deal ended: its sheet first, the next deal after a pause
        finally:
            batch.flush()
        return self._computer_to_act(live) is not None

    async def settle(self) -> None:
        """Wait until no computer has a turn pending and no timeout is being handled (tests
        and benchmarks)."""
        while True:
            tasks = [t.task for t in self.tables.live.values() if t.task is not None]
            tasks += self._timeouts
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def take_over(self, live: LiveTable, seat: int, *, timed_out: bool) -> None:
        """A computer of the table's level plays this person's seat until they come back."""
        s = live.seats[seat]
        s.computer, s.timed_out = live.level, timed_out
        await self.tables.db.tables.put_seat(s)
        live.computers.pop(seat, None)
        live.rename()

    # ---- forced cards ----------------------------------------------------------------------
    def _forced_key(self, live: LiveTable) -> tuple[int, int] | None:
        """(seq, seat) of the person to act now when the rules leave them one card to play
        and this table plays it for them, or None."""
        match = live.match
        if self.forced_delay is None or not live.row.autoplay or not live.playing or \
                live.id not in self.tables.live or match is None or match.needs_deal or \
                match.to_act is None:
            return None
        s = live.seats.get(match.to_act)
        if s is None or not s.is_human or forced_card(match.deal) is None:
            return None
        return (live.seq, match.to_act)

    def schedule_forced(self, live: LiveTable) -> None:
        """Play the person's forced card after the beat, on the table's clock (a beat already
        waiting for this very turn goes on). Nothing is saved before it is played: a restart
        during the beat schedules it again from the log (restore.py)."""
        live.stop_beat()  # a beat for an earlier step, if any: that step is gone
        key = self._forced_key(live)
        if key is None:
            return
        clock = self.tables.clock
        live.beat = clock.call_at(clock.now() + (self.forced_delay or 0.0),
                                  lambda: self._beat_fired(live, key))

    def _beat_fired(self, live: LiveTable, key: tuple[int, int]) -> None:
        live.beat = None
        task = asyncio.create_task(self._play_forced(live, key), name=f"belote-forced-{live.id}")
        self._timeouts.add(task)
        task.add_done_callback(self._timeouts.discard)

    async def _play_forced(self, live: LiveTable, key: tuple[int, int]) -> None:
        """The beat is over: the forced card is played for the person, with what they chose
        for it (announcements with a first card, belote), as their click would."""
        try:
            async with self.tables.door(live):
                if self._forced_key(live) != key or self.commit_forced is None:
                    return  # they played it themselves meanwhile (or left, or it closed)
                seat = key[1]
                deal = live.match.deal if live.match is not None else None
                card = forced_card(deal)
                assert card is not None
                choice = live.choice(seat)
                action = Play(card, belote=choice.belote or not may_call_belote(deal, card),
                              declare=choice.declare if first_card(deal, seat) else None)
                await self.commit_forced(live, seat, action)
            self.schedule_computer(live)
        except Exception:
            log.exception("table %s: the forced card could not be played", live.id)

    # ---- turn timers -----------------------------------------------------------------------
    def _turn_key(self, live: LiveTable) -> tuple[int, int] | None:
        """(seq, seat) of the person's turn a timer should run for now, or None. A forced
        card that is played for them runs no timer: nobody is waited for."""
        match = live.match
        if live.turn_timer is None or not live.playing or live.id not in self.tables.live \
                or match is None or match.needs_deal or match.to_act is None:
            return None
        s = live.seats.get(match.to_act)
        if s is None or not s.is_human or self._forced_key(live) is not None:
            return None
        return (live.seq, match.to_act)

    def arm_timer(self, live: LiveTable, grace: float | None = None) -> None:
        """Run the timer for the person to act now (a timer already running for this very
        turn runs on); stop it when no person is to act. ``grace``: the least time to give."""
        key = self._turn_key(live)
        if key is not None and key == live.timer_key and grace is None:
            return
        live.stop_timer()
        if key is None:
            return
        delay = float(live.turn_timer or 0)
        if grace is not None:
            delay = max(delay, grace)
        self._arm_at(live, key, self.tables.clock.now() + delay)

    def arm_after_restart(self, live: LiveTable, shown: tuple[int, float] | None) -> None:
        """At a restart: the person to act keeps the deadline their table message showed
        before the stop (``shown``: the step of the game it was shown at, and the deadline)
        while it is at least ``RESTART_GRACE`` ahead, so the message needs no edit. A deadline
        that passed or is near, or one never shown, is given anew: the whole timer, and at
        least the grace (they may not have seen the table while the bot was away)."""
        key = self._turn_key(live)
        if key is None or shown is None or shown[0] != live.seq or \
                shown[1] - self.tables.clock.now() < state.RESTART_GRACE:
            self.arm_timer(live, grace=state.RESTART_GRACE)
            return
        live.stop_timer()
        self._arm_at(live, key, shown[1])

    def _arm_at(self, live: LiveTable, key: tuple[int, int], deadline: float) -> None:
        """Run the timer for this turn until ``deadline`` (once Discord is back, if down)."""
        live.timer_key, live.deadline = key, deadline
        if self._held is not None:  # Discord is down: it starts when Discord is back
            self._held[live.id] = deadline - self.tables.clock.now()
            return
        live.timer = self._call_at(deadline, live, key)

    def _call_at(self, when: float, live: LiveTable, key: tuple[int, int]) -> Handle:
        return self.tables.clock.call_at(when, lambda: self._timer_fired(live, key))

    def hold(self) -> None:
        """Discord is down and nobody can see the tables: no turn timer runs meanwhile."""
        if self._held is not None:
            return
        now, self._held = self.tables.clock.now(), {}
        for live in self.tables.live.values():
            if live.timer is not None and live.deadline is not None:
                live.timer.cancel()
                live.timer = None
                self._held[live.id] = max(0.0, live.deadline - now)

    def release(self) -> None:
        """Discord is back: each turn timer goes on with the time it had left when Discord
        went down (the new deadline is shown)."""
        held, self._held = self._held or {}, None
        now = self.tables.clock.now()
        listener = self.tables.listener
        for table_id, left in held.items():
            live = self.tables.live.get(table_id)
            if live is None or live.timer_key is None or live.timer is not None:
                continue
            live.deadline = now + left
            live.timer = self._call_at(live.deadline, live, live.timer_key)
            listener.table_changed(live)
            listener.hands_changed(live, [live.timer_key[1]])

    def _timer_fired(self, live: LiveTable, key: tuple[int, int]) -> None:
        live.timer = None
        task = asyncio.create_task(self._time_out(live, key), name=f"belote-timeout-{live.id}")
        self._timeouts.add(task)
        task.add_done_callback(self._timeouts.discard)

    async def _time_out(self, live: LiveTable, key: tuple[int, int]) -> None:
        """The person to act ran out of time: a computer plays this turn for them. Once they
        let ``away_turns`` turns in a row run out, they are away: a computer plays their seat,
        as if they left, until they take it back."""
        try:
            async with self.tables.door(live):
                if self._turn_key(live) != key:
                    return  # they acted (or left, or the table closed) just in time
                seat = key[1]
                s = live.seats[seat]
                s.missed += 1
                if s.missed < live.away_turns:
                    await self.tables.db.tables.put_seat(s)
                    log.info("table %s: seat %s ran out of time (%s of %s in a row)", live.id,
                             seat, s.missed, live.away_turns)
                    await self._play_once(live, seat)
                    return
                await self.take_over(live, seat, timed_out=True)
                live.timer_key = live.deadline = None
                log.info("table %s: seat %s ran out of time; a computer takes it over",
                         live.id, seat)
                self.tables.listener.table_changed(live)
                self.tables.listener.hands_changed(live, [seat])
                for hook in self.timeout_hooks:
                    hook(live, live.seats[seat])
            self.schedule_computer(live)
        except Exception:
            log.exception("table %s: the turn timer's takeover failed", live.id)

    async def _play_once(self, live: LiveTable, seat: int) -> None:
        """A computer of the table's level plays this one turn for the person; the seat stays
        theirs (their next turn has its timer). Caller holds the door."""
        view = table_view(live.match, seat)  # type: ignore[arg-type]
        player = make_player(live.level, seat_seed(live.row.seed, seat) + live.seq)
        action = await decide(player, view)
        await self.commit(live, seat, action, self.tables.listener, "timeout")
        self.schedule_computer(live)

    # ---- stop ------------------------------------------------------------------------------
    async def close(self) -> None:
        """Stop every computer turn and timer (the bot is stopping)."""
        for live in self.tables.live.values():
            if live.task is not None:
                live.task.cancel()
            if live.timer is not None:
                live.timer.cancel()
            live.stop_beat()
        for task in self._timeouts:
            task.cancel()
        tasks = [t.task for t in self.tables.live.values() if t.task is not None]
        await asyncio.gather(*tasks, *self._timeouts, return_exceptions=True)
