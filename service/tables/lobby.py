"""Seating: a table opened, people and computers sat, invited, started; a seat left, taken
back; a table ended. One table per person and server (the seating lock keeps it so)."""

from __future__ import annotations

import logging

from db import LogEntry, SeatRow, TableStatus
from db.credits import NotEnoughCredits
from db.tables import KICKED, LEFT
from game.errors import InvalidOptions
from game.match import Match
from game.rules import Options, Variant
from i18n import Number, OptionsReason, Seat, Seats, languages

from ..markup import as_text
from ..refusals import Refusal
from ..uncancelled import to_the_end
from .core import EVERYBODY_LEFT, Tables
from .play import Playing
from .stakes import staked, stakes_taken
from .state import (
    DEFAULT_LOBBY_MINUTES,
    SWEEP_SAVE_STEP,
    TURN_TIMER_LIMITS,
    LiveTable,
    NewTable,
)
from .sweeper import Sweeper
from .turns import Turns

log = logging.getLogger(__name__)


class Lobby:
    def __init__(self, tables: Tables, play: Playing, turns: Turns, sweeper: Sweeper) -> None:
        self.tables = tables
        self.play = play
        self.turns = turns
        self.sweeper = sweeper

    async def create(self, spec: NewTable) -> LiveTable:
        tables = self.tables
        try:
            variant = Variant(spec.variant)
        except ValueError:
            raise Refusal("tables.bad_options", reason=OptionsReason(
                InvalidOptions("unknown_variant", variant=spec.variant))) from None
        try:
            options = Options.for_variant(variant, spec.options)
        except InvalidOptions as e:
            raise Refusal("tables.bad_options", reason=OptionsReason(e)) from None
        timer = spec.turn_timer or None
        low, high = TURN_TIMER_LIMITS
        if timer is not None and not low <= timer <= high:
            raise Refusal("tables.timer_range", low=low, high=high)
        level = spec.computer_level or tables.computer_level
        if spec.language not in languages():
            raise Refusal("commands.new.bad_language", language=spec.language,
                          languages=", ".join(languages()))
        tables.check_level(level)
        if spec.stake:
            if spec.fill:
                raise Refusal("credits.stake_people_only")
            await self._check_cover(spec.guild_id, spec.host_id, spec.stake)
        async with tables.seating(spec.guild_id):
            other = tables.table_of(spec.guild_id, spec.host_id)
            if other is not None:
                raise Refusal("tables.already_seated_new", table=other.id)
            variant = Variant(spec.variant)
            row = await tables.db.tables.create(
                guild_id=spec.guild_id, channel_id=spec.channel_id, host_id=spec.host_id,
                variant=variant.value, options=options.to_json(variant), private=spec.private,
                seed=tables.rng.getrandbits(62) if spec.seed is None else spec.seed,
                first_dealer=tables.rng.randrange(4) if spec.first_dealer is None
                else spec.first_dealer,
                turn_timer=timer, computer_level=level,
                sweep_at=self.sweeper.lobby_deadline(spec.lobby_minutes or DEFAULT_LOBBY_MINUTES),
                lobby_minutes=spec.lobby_minutes, idle_minutes=spec.idle_minutes,
                away_turns=spec.away_turns, language=spec.language, stake=spec.stake,
                autoplay=spec.autoplay)
            live = LiveTable(row, [], set())
            # Through the door: a click may reach the table before its seats are saved.
            async with tables.door(live):
                tables.live[row.id] = live
                await tables.put_seat(live, SeatRow(row.id, 0, spec.host_id, spec.host_name))
                if spec.fill:
                    for seat in (1, 2, 3):
                        await tables.put_seat(live, tables.computer_seat(row.id, seat, level))
                self.sweeper.arm(live)
        return live

    async def attach(self, table_id: int, *, thread_id: int | None, message_id: int,
                     channel_id: int | None = None) -> None:
        """Remember where the table's thread and message are (and its channel, if it moved)."""
        async with self.tables.door(table_id) as live:
            live.row.thread_id, live.row.message_id = thread_id, message_id
            if channel_id is not None:
                live.row.channel_id = channel_id
            await self.tables.db.tables.set_location(table_id, thread_id=thread_id,
                                                     message_id=message_id,
                                                     channel_id=channel_id)
            self.tables.set_lost(live, None)

    async def sit(self, table_id: int, user_id: int, name: str, seat: int) -> LiveTable:
        tables = self.tables
        async with tables.door(table_id) as live:
            if user_id in live.kicked:
                raise Refusal("sweeper.kicked.no_sit", table=live.id)
            if live.row.status == TableStatus.PLAYING and live.held_seat(user_id) is not None:
                return await self._reclaim(live, user_id)
            if live.row.status != TableStatus.LOBBY:
                raise Refusal("tables.already_started_watch")
            if live.row.private and user_id != live.row.host_id and \
                    user_id not in live.invited:
                raise Refusal("tables.private")
            if live.row.stake:
                await self._check_cover(live.row.guild_id, user_id, live.row.stake)
            async with tables.seating(live.row.guild_id):
                other = tables.table_of(live.row.guild_id, user_id)
                if other is not None and other is not live:
                    raise Refusal("tables.already_seated", table=other.id)
                taken = live.seats.get(seat)
                if taken is not None and taken.user_id == user_id:
                    raise Refusal("tables.already_there")
                if taken is not None and taken.computer is None:
                    raise Refusal("tables.seat_taken_by", seat=Seat(seat),
                                  name=as_text(live.names()[seat]))
                current = live.seat_of(user_id)
                if current is not None:
                    await tables.db.tables.remove_seat(live.id, current)
                    del live.seats[current]
                await tables.put_seat(live, SeatRow(live.id, seat, user_id, name))
        tables.listener.table_changed(live)
        return live

    async def add_computer(self, table_id: int, user_id: int, seat: int,
                           level: str | None = None) -> LiveTable:
        tables = self.tables
        async with tables.door(table_id) as live:
            tables.check_host(live, user_id, "tables.host_only_add_computer")
            if live.row.status != TableStatus.LOBBY:
                raise Refusal("tables.computers_before_start")
            if live.row.stake:
                raise Refusal("credits.stake_people_only")
            if seat in live.seats:
                raise Refusal("tables.seat_taken", seat=Seat(seat))
            level = level or live.level
            tables.check_level(level)
            await tables.put_seat(live, tables.computer_seat(live.id, seat, level))
        tables.listener.table_changed(live)
        return live

    async def invite(self, table_id: int, host_id: int, user_id: int, *,
                     is_bot: bool = False) -> bool:
        """The host lets ``user_id`` sit at their private table (``is_bot``: that user is a
        bot account, which cannot play). True if they were not invited before: only then are
        they told (pinged), so a host repeating the command pings nobody again."""
        async with self.tables.door(table_id) as live:
            self.tables.check_host(live, host_id, "tables.host_only_invite")
            if user_id == host_id:
                raise Refusal("tables.invite_yourself")
            if is_bot:
                raise Refusal("tables.invite_bot")
            if user_id in live.invited:
                return False
            await self.tables.db.tables.invite(table_id, user_id)
            live.invited.add(user_id)
        return True

    async def start(self, table_id: int, user_id: int) -> LiveTable:
        async with self.tables.door(table_id) as live:
            self.tables.check_host(live, user_id, "tables.host_only_start")
            if live.row.status != TableStatus.LOBBY:
                raise Refusal("tables.already_started")
            empty = [i for i in range(4) if i not in live.seats]
            if empty:
                raise Refusal("tables.seats_empty", count=len(empty), seats=Seats(empty))
            for person in staked(live):  # a starting grant still due is given first
                balance = await self._balance(live.row.guild_id, person)
                if balance < live.row.stake:  # spent since they sat
                    raise Refusal("credits.cannot_start", stake=Number(live.row.stake))
            live.match = Match(live.variant, live.options, first_dealer=live.row.first_dealer,
                               players=live.names())
            live.seq = 0
            # The save ends even if the request is cancelled meanwhile (then the table
            # plays, as saved); nothing after it awaits.
            # The idle deadline is stored a step ahead (see Tables.touch): the first actions
            # then write nothing more.
            sweep_at = self.sweeper.idle_deadline(live)
            saved = sweep_at + SWEEP_SAVE_STEP
            await to_the_end(self._save_start(live, self.play.deal_entry(live, 0), saved))
            live.row.status = TableStatus.PLAYING
            live.row.sweep_at, live.sweep_saved = sweep_at, saved
            live.seq = 1
            self.turns.arm_timer(live)
            self.sweeper.arm(live)
        self.tables.listener.table_changed(live)
        self.tables.listener.hands_changed(live, range(4))
        self.turns.schedule_computer(live)
        return live

    async def _save_start(self, live: LiveTable, deal: LogEntry, sweep_at: float) -> None:
        """Save the start (the status, the first deal and the idle deadline: one
        transaction); if it cannot be saved, the table stays the lobby it was."""
        try:
            await self.tables.db.tables.start(live.id, [deal], sweep_at,
                                              guild_id=live.row.guild_id,
                                              credits=stakes_taken(live))
        except NotEnoughCredits as e:  # spent meanwhile: nothing was taken, nothing starts
            live.match = None
            raise Refusal("credits.cannot_start", stake=Number(e.needed)) from None
        except Exception:
            log.exception("table %s: could not save its start", live.id)
            live.match = None
            raise Refusal("tables.not_saved") from None

    async def _balance(self, guild_id: int, user_id: int) -> int:
        """A person's credits (their starting grant given first if due)."""
        balance_of = self.tables.balance_of
        if balance_of is None:
            raise Refusal("credits.unavailable")
        return await balance_of(guild_id, user_id)

    async def _check_cover(self, guild_id: int, user_id: int, stake: int) -> None:
        """Refuse a person who cannot cover the table's stake."""
        balance = await self._balance(guild_id, user_id)
        if balance < stake:
            raise Refusal("credits.cannot_cover", stake=Number(stake), balance=Number(balance))

    async def leave(self, table_id: int, user_id: int) -> str:
        """A person leaves. Returns the message id of what to tell them (in their language)."""
        tables = self.tables
        async with tables.door(table_id) as live:
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refusal("tables.not_playing")
            if live.row.status == TableStatus.LOBBY:
                await tables.db.tables.remove_seat(live.id, seat)
                del live.seats[seat]
                if not live.humans():
                    await tables.close(live, TableStatus.ENDED, "everybody left the lobby",
                                       EVERYBODY_LEFT)
                    return "tables.left_lobby_closed"
                if user_id == live.row.host_id:
                    new_host = live.humans()[0].user_id
                    assert new_host is not None
                    live.row.host_id = new_host
                    await tables.db.tables.set_host(live.id, new_host)
                message = "tables.left"
            else:
                # A match they leave counts as a loss for them, unless they come back.
                live.seats[seat].departed = LEFT
                await self.turns.take_over(live, seat, timed_out=False)
                self.turns.arm_timer(live)  # stops it if it ran for them
                # Closed when nobody may come back; a player who ran out of time may.
                if not live.humans() and not any(s.timed_out for s in live.seats.values()):
                    await tables.close(live, TableStatus.ENDED, "every player left",
                                       EVERYBODY_LEFT)
                    return "tables.left_game_closed"
                message = "tables.left_computer_plays"
                tables.listener.hands_changed(live, [seat])
        tables.listener.table_changed(live)
        self.turns.schedule_computer(live)
        return message

    async def reclaim(self, table_id: int, user_id: int) -> LiveTable:
        async with self.tables.door(table_id) as live:
            return await self._reclaim(live, user_id)

    async def _reclaim(self, live: LiveTable, user_id: int) -> LiveTable:
        """A person takes their seat back from the computer. Caller holds the door."""
        tables = self.tables
        seat = live.held_seat(user_id)
        if seat is None:
            raise Refusal("tables.no_seat")
        s = live.seats[seat]
        if s.departed == KICKED:
            raise Refusal("sweeper.kicked.no_back", table=live.id)
        if s.departed == LEFT and not live.may_take_back(s):
            raise Refusal("tables.tournament_no_back", table=live.id)
        if s.computer is None:
            raise Refusal("tables.already_play")
        async with tables.seating(live.row.guild_id):
            other = tables.table_of(live.row.guild_id, user_id)
            if other is not None and other is not live:
                raise Refusal("tables.seated_elsewhere", table=other.id)
            s.computer, s.timed_out, s.departed, s.missed = None, False, None, 0
            live.computers.pop(seat, None)
            await tables.db.tables.put_seat(s)
        live.rename()
        await tables.touch(live)
        self.turns.schedule_forced(live)  # their turn, if it is, with a forced card
        self.turns.arm_timer(live)  # their turn, if it is, starts now (unless forced)
        tables.listener.table_changed(live)
        tables.listener.hands_changed(live, [seat])
        self.turns.schedule_computer(live)  # a paused table goes on
        return live

    @staticmethod
    def _check_referee(live: LiveTable, actor_id: int, can_manage: bool, refused: str) -> None:
        """Once a match is under way only a moderator who holds no seat at it may kick or end:
        a player (the host included) could otherwise remove opponents, or end a match they
        are losing, for their own gain. Alone with computers (a solo game, the daily deal)
        there is nobody to wrong: the one person may end it."""
        alone = not any(s.user_id is not None and s.user_id != actor_id
                        for s in live.seats.values())
        if live.row.status == TableStatus.PLAYING and not alone and \
                (not can_manage or live.held_seat(actor_id) is not None):
            raise Refusal(refused, table=live.id)

    async def kick(self, table_id: int, actor_id: int, user_id: int, *,
                   can_manage: bool) -> LiveTable:
        """The host or a moderator (``can_manage``) removes a person from the table for good:
        in the lobby their seat is freed, in a game (a moderator who does not play there) a
        computer plays it to the end (a loss for them in the ratings; their stake comes back,
        stakes.py). They may not sit at this table again, nor take the seat back."""
        tables = self.tables
        async with tables.door(table_id) as live:
            if actor_id != live.row.host_id and not can_manage:
                raise Refusal("sweeper.kick.who", table=live.id)
            self._check_referee(live, actor_id, can_manage, "sweeper.kick.referee")
            if user_id == actor_id:
                raise Refusal("sweeper.kick.yourself")
            seat = live.held_seat(user_id)
            if seat is None:
                raise Refusal("sweeper.kick.no_table", player=f"<@{user_id}>")
            await tables.db.tables.kick(live.id, user_id)
            live.kicked.add(user_id)
            s = live.seats[seat]
            if live.row.status == TableStatus.LOBBY:
                await tables.db.tables.remove_seat(live.id, seat)
                del live.seats[seat]
                if not live.humans():
                    await tables.close(live, TableStatus.ENDED, "everybody left the lobby",
                                       EVERYBODY_LEFT)
                    return live
                if user_id == live.row.host_id:
                    new_host = live.humans()[0].user_id
                    assert new_host is not None
                    live.row.host_id = new_host
                    await tables.db.tables.set_host(live.id, new_host)
            else:
                s.departed, s.timed_out = KICKED, False
                if s.computer is None:
                    await self.turns.take_over(live, seat, timed_out=False)
                else:
                    await tables.db.tables.put_seat(s)
                self.turns.arm_timer(live)  # stops it if it ran for them
                if not live.humans() and not any(x.timed_out for x in live.seats.values()):
                    await tables.close(live, TableStatus.ENDED, "every player left",
                                       EVERYBODY_LEFT)
                    return live
                humans = live.humans()
                if user_id == live.row.host_id and humans:  # a moderator kicked the host
                    new_host = humans[0].user_id
                    assert new_host is not None
                    live.row.host_id = new_host
                    await tables.db.tables.set_host(live.id, new_host)
                tables.listener.hands_changed(live, [seat])
        tables.listener.table_changed(live)
        self.turns.schedule_computer(live)
        return live

    async def end(self, table_id: int, user_id: int, *, can_manage: bool) -> LiveTable:
        async with self.tables.door(table_id) as live:
            if user_id != live.row.host_id and not can_manage:
                raise Refusal("tables.end_who")
            self._check_referee(live, user_id, can_manage, "tables.end_referee")
            await self.tables.close(live, TableStatus.ENDED, "ended by its host or a moderator")
        return live
