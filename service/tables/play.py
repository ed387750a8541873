"""The game itself: a person's action or choice checked, applied, saved, then told.

The rules core decides legality; the database log is written (one transaction) before anybody
is answered; the listener (the Discord delivery) is told what changed and does its work in the
background, so the service itself never waits on Discord.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from db import ChoiceRow, LogEntry, MatchPlayer, TableStatus, to_record
from game.actions import Action, Declaration, Play
from game.cards import card_str
from game.choices import (
    DUE,
    actions_taken,
    ahead_action,
    ahead_code,
    check_choice,
    first_card,
    may_call_belote,
    may_choose_ahead,
)
from game.claim import claim_card, claim_plan
from game.errors import IllegalAction
from game.match import Match
from game.record import action_to_json, replay
from game.tally import tally
from game.view import table_view

from ..markup import as_text
from ..refusals import Refusal, said
from ..uncancelled import to_the_end
from .batch import Batch
from .core import Tables
from .stakes import pot_paid
from .state import LiveTable, SeatChoice, TableListener
from .turns import Turns

log = logging.getLogger(__name__)

# Who decided an action when it was not the person's click (the log's optional "by";
# docs/game-record.md).
BY = ("forced", "ahead", "claim", "computer", "timeout")

Ratings = dict[int, tuple[float, float]]


class Playing:
    def __init__(self, tables: Tables, turns: Turns) -> None:
        self.tables = tables
        self.turns = turns

    @staticmethod
    def _turn_of(live: LiveTable, user_id: int, seq: int) -> tuple[Match, int]:
        """The match and the seat of a person whose turn it is at this table, the table as
        they saw it (``seq``); raises Refusal saying why not (an act's, a claim's checks)."""
        match = live.match
        if live.row.status != TableStatus.PLAYING or match is None:
            raise Refusal("tables.game_over" if live.row.status == TableStatus.FINISHED
                          else "tables.not_started")
        seat = live.seat_of(user_id)
        if seat is None:
            if live.held_seat(user_id) is not None:
                raise Refusal("tables.computer_plays_your_seat")
            raise Refusal("tables.not_playing")
        if seq != live.seq:
            raise Refusal("tables.out_of_date")
        if match.to_act != seat:
            if match.to_act is None:
                raise Refusal("tables.nobody_acts")
            raise Refusal("tables.not_your_turn", name=as_text(live.names()[match.to_act]))
        return match, seat

    async def act(self, table_id: int, user_id: int, seq: int, action: Action) -> LiveTable:
        """A person's action, checked and committed; raises Refusal saying why not."""
        async with self.tables.door(table_id) as live:
            _, seat = self._turn_of(live, user_id, seq)
            await self._act_held(live, seat, action, user_id)
        self.turns.schedule_computer(live)
        return live

    async def _act_held(self, live: LiveTable, seat: int, action: Action, user_id: int,
                        by: str | None = None) -> None:
        """The person's action on their turn (clicked, or chosen ahead: ``by``), with what
        they chose for their cards, committed. Caller holds the door."""
        await self.commit(live, seat, self.with_choices(live, seat, action), user_id, by=by)
        await self.tables.touch(live)
        s = live.seats.get(seat)
        if s is not None and s.missed:  # in time again: the count of turns away restarts
            s.missed = 0
            await self.tables.db.tables.put_seat(s)

    @staticmethod
    def with_choices(live: LiveTable, seat: int, action: Action) -> Action:
        """A card with the announcements and belote its player chose beforehand (``choose``):
        the card buttons name only the card."""
        if not isinstance(action, Play) or live.match is None:
            return action
        choice = live.choice(seat)
        deal = live.match.deal
        return Play(action.card, belote=choice.belote or not may_call_belote(deal, action.card),
                    declare=choice.declare if first_card(deal, seat) else None)

    async def ahead(self, table_id: int, user_id: int, deal: int, action: Action, *,
                    on: bool) -> LiveTable:
        """A person chooses ahead of their turn the card they mean to play next, or to pass in
        the auction (``on``), or cancels that choice. Pressed when the turn has come already,
        it is played at once, as a click on the card would."""
        async with self.tables.door(table_id) as live:
            match = live.match
            if not live.playing or match is None:
                raise Refusal("tables.not_being_played")
            seat = live.seat_of(user_id)
            if seat is None:
                if live.held_seat(user_id) is not None:
                    raise Refusal("tables.computer_plays_your_seat")
                raise Refusal("tables.not_playing")
            if deal != len(match.deals):
                raise Refusal("tables.earlier_deal")
            code = ahead_code(action)
            choice = live.choice(seat)
            if on and match.to_act == seat and not match.needs_deal:
                await self._act_held(live, seat, action, user_id)
            else:
                if not on:
                    if choice.ahead == code:
                        choice = replace(choice, ahead=None, ahead_at=0)
                elif code is None or not may_choose_ahead(match.deal, seat, action):
                    raise Refusal("tables.ahead_not_possible")
                else:
                    choice = replace(choice, ahead=code,
                                     ahead_at=actions_taken(match.deal, seat))
                await self.store_choice(live, seat, choice)
                await self.tables.touch(live)
        self.turns.schedule_computer(live)
        return live

    async def store_choice(self, live: LiveTable, seat: int, choice: SeatChoice) -> None:
        """Save the seat's choices for its coming cards, then keep them. Caller holds the
        door."""
        stored = None if choice.declare is None else \
            [[card_str(c) for c in group] for group in choice.declare]
        await self.tables.db.tables.put_choice(
            ChoiceRow(live.id, seat, choice.deal, stored, choice.belote, choice.ahead,
                      choice.ahead_at))
        live.choices[seat] = choice

    def ahead_due(self, live: LiveTable) -> tuple[int, Action, int] | None:
        """(seat, action, user) of the person to act now when what they chose ahead is
        allowed now, or None."""
        match = live.match
        if not live.playing or match is None or match.needs_deal or match.to_act is None or \
                live.id not in self.tables.live:
            return None
        seat = match.to_act
        s = live.seats.get(seat)
        status, code = live.ahead(seat)
        if s is None or not s.is_human or s.user_id is None or status != DUE or code is None:
            return None
        return seat, ahead_action(code), s.user_id

    async def play_ahead(self, live: LiveTable, listener: TableListener | None = None) -> None:
        """The turn came to a person who chose its action ahead: play it now, if the rules
        allow it (else it waits, dropped, and their hand says so). Caller holds the door."""
        due = self.ahead_due(live)
        if due is None:
            return
        seat, action, user_id = due
        await self.commit(live, seat, self.with_choices(live, seat, action), user_id,
                          listener=listener, by="ahead")
        s = live.seats.get(seat)
        if s is not None and s.missed:
            s.missed = 0
            await self.tables.db.tables.put_seat(s)

    async def claim(self, table_id: int, user_id: int, seq: int) -> LiveTable:
        """The person to act claims the rest of the deal: refused unless the rules core proves
        their cards take every trick left whatever the others hold (game/claim.py); then the
        deal is played out at once, their cards by the proof's plan, the others' weakest legal
        card each, every card logged as decided "claim", and told as one change."""
        async with self.tables.door(table_id) as live:
            match, seat = self._turn_of(live, user_id, seq)
            plan = claim_plan(table_view(match, seat))
            if plan is None:
                raise Refusal("tables.claim_not_sure")
            deals = len(match.deals)
            live.claimed[deals - 1] = seat
            batch = Batch(self.tables.listener, live)
            try:
                mine = iter(plan)
                while len(match.deals) == deals and match.winner is None:
                    deal = match.deal
                    now = match.to_act
                    if deal is None or deal.is_over or now is None or deal.contract is None:
                        break
                    card = next(mine) if now == seat else \
                        claim_card(deal.legal_cards(), deal.contract)
                    action = self.with_choices(live, now, Play(card))
                    await self.commit(live, now, action, user_id if now == seat else None,
                                      listener=batch, by="claim", ahead=False)
                await self.tables.touch(live)
            finally:
                batch.flush()
        self.turns.schedule_computer(live)
        return live

    async def choose(self, table_id: int, user_id: int, deal: int, *,
                     declare: tuple[Declaration, ...] | bool | None = False,
                     belote: bool | None = None) -> LiveTable:
        """Remember what a player will announce with their first card (``declare``; False
        keeps the earlier choice) and whether they announce belote, for the current deal."""
        async with self.tables.door(table_id) as live:
            if not live.playing or live.match is None:
                raise Refusal("tables.not_being_played")
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refusal("tables.not_playing")
            if deal != len(live.match.deals):
                raise Refusal("tables.earlier_deal")
            choice = live.choice(seat)
            if declare is not False:
                current = live.match.deal
                try:  # the rules say what this hand may announce, here and now
                    if current is not None:
                        check_choice(current, seat, declare)  # type: ignore[arg-type]
                except IllegalAction as e:
                    raise Refusal("tables.rule", reason=said(e)) from None
                if not first_card(live.match.deal, seat):
                    raise Refusal("tables.announce_first_card_only")
                choice = replace(choice, declare=declare)  # type: ignore[arg-type]
            if belote is not None:
                choice = replace(choice, belote=belote)
            await self.store_choice(live, seat, choice)
            await self.tables.touch(live)
        return live

    async def commit(self, live: LiveTable, seat: int, action: Action,
                     user_id: int | None, *, listener: TableListener | None = None,
                     by: str | None = None, ahead: bool = True) -> None:
        """Apply, log (one transaction), then tell the listener (``listener``: another one
        than the table service's, a run's Batch). ``by``: who decided the action when not
        the person's click (BY: ``"forced"``, the rules left one card and the bot played it;
        ``"ahead"``, chosen before the turn; ``"claim"``; ``"computer"``; ``"timeout"``),
        logged with it. Then a person to act who chose their action ahead has it played
        (unless ``ahead`` is False: a claim plays the rest by itself). Caller holds the
        door."""
        match = live.match
        assert match is not None
        listener = listener or self.tables.listener
        deal_before = len(match.deals)
        phase_before = match.deal.phase if match.deal is not None else None
        try:
            match.apply(action, seat)
        except IllegalAction as e:
            raise Refusal("tables.rule", reason=said(e)) from None
        payload = action_to_json(seat, action)
        if by is not None:
            payload["by"] = by  # an extra key: the replay and older readers ignore it
        entries = [LogEntry(live.seq, "action", payload, user_id)]
        finished = match.deal is not None and match.deal.is_over
        if finished and match.winner is None:
            entries.append(self.deal_entry(live, live.seq + 1))
        # Applied in memory: from here the step is saved (or undone) even if the request is
        # cancelled meanwhile, so memory never drifts from the log; what follows the save
        # has no await, and the listener hears of it before the caller answers the click.
        if user_id is not None and by is None:
            # The answer's image is drawn while the log is written (a card chosen ahead or
            # claimed answers no click of its own: nothing would take that image).
            listener.acted(live, seat)
        ratings = await to_the_end(self._save(live, entries))
        live.seq += len(entries)
        if finished:
            live.forced.clear()
        elif isinstance(action, Play) and by == "forced":
            live.forced[seat] = action.card
        else:
            live.forced.pop(seat, None)
        due = ahead and self.ahead_due(live) is not None
        if due:  # played at once, below: no beat, no timer
            live.stop_beat()
            live.stop_timer()
        else:
            self.turns.schedule_forced(live)  # first: a forced card runs no timer
            self.turns.arm_timer(live)  # before the listener: the messages show the deadline
        if finished:
            listener.deal_finished(live, deal_before - 1)
        if ratings is not None:
            self.finished(live, ratings, listener)
            return
        listener.table_changed(live)
        deal = match.deal
        if finished or (deal is not None and deal.phase != phase_before):
            listener.hands_changed(live, range(4))  # new cards or new controls for all
        else:
            nxt = match.to_act
            listener.hands_changed(live, [seat] if nxt is None else {seat, nxt})
        if due:
            await self.play_ahead(live, listener)

    async def _save(self, live: LiveTable, entries: list[LogEntry]) -> Ratings | None:
        """Log the step ``commit`` applied (one transaction; with the result if it won the
        match: the ratings are returned); if it cannot be logged, reload the match from the
        log and refuse."""
        match = live.match
        assert match is not None
        db = self.tables.db
        try:
            if match.winner is not None:
                # The winning action, the result, the ratings and the closed table: one
                # transaction, so no crash leaves a won match without its result.
                return await db.results.record_match(**self.result_of(live), entries=entries)
            await db.log.append(live.id, entries)
        except Exception:
            log.exception("table %s: could not log seq %s; reloading", live.id, live.seq)
            await self.load_match(live)
            raise Refusal("tables.not_saved") from None
        return None

    async def load_match(self, live: LiveTable) -> None:
        """The match as its log says (a new one if no deal is logged yet)."""
        self.replay_match(live, await self.tables.db.log.entries(live.id))

    @staticmethod
    def replay_match(live: LiveTable, entries: list[LogEntry]) -> None:
        """The match as these entries of its log say (a new one if they log no deal)."""
        record = to_record(live.row.variant, live.row.options, live.names(), entries)
        live.match = replay(record) if record["deals"] else Match(
            live.variant, live.options, first_dealer=live.row.first_dealer, players=live.names())
        live.seq = len(entries)

    @staticmethod
    def deal_entry(live: LiveTable, seq: int) -> LogEntry:
        """Deal the next deal in memory; its log entry."""
        match = live.match
        assert match is not None
        deck = match.new_deck(live.row.seed)
        deal = match.start_deal(deck)
        return LogEntry(seq, "deal", {"dealer": deal.dealer,
                                      "deck": [card_str(c) for c in deck]})

    async def deal_if_needed(self, live: LiveTable) -> None:
        match = live.match
        if match is not None and match.needs_deal:
            entry = self.deal_entry(live, live.seq)
            await self.tables.db.log.append(live.id, [entry])
            live.seq += 1

    @staticmethod
    def players_of(live: LiveTable) -> list[MatchPlayer]:
        """The match's players as recorded: a seat a computer plays for a person who left is
        still that person's (they lose it: ``left``)."""
        return [MatchPlayer(s.seat, s.user_id, s.computer if s.user_id is None else None)
                for s in live.seats.values()]

    @classmethod
    def result_of(cls, live: LiveTable) -> dict[str, Any]:
        """The arguments of ``results.record_match`` for a won match."""
        match = live.match
        assert match is not None and match.winner is not None
        winner = match.winner
        return {"table_id": live.id, "guild_id": live.row.guild_id,
                "variant": live.row.variant, "winner": winner,
                "totals": (match.totals[0], match.totals[1]), "deals": len(match.deals),
                "players": cls.players_of(live), "tally": tally(match),
                "left": live.leavers(), "credits": pot_paid(live, winner)}

    def finished(self, live: LiveTable, ratings: Ratings, listener: TableListener) -> None:
        """The match's result is stored (and the table closed there): close it here too."""
        live.row.status = TableStatus.FINISHED
        self.tables.live.pop(live.id, None)
        live.stop_timer()
        live.stop_sweep()
        listener.table_changed(live)
        listener.hands_changed(live, range(4))
        listener.match_finished(live, ratings)
        self.tables.ended(live)
