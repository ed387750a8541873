"""Delivery: turns what the table service reports into Discord messages, in the background.

Every send goes through the Outbox (bot/outbox.py): one worker per message, which sends the
newest state, again after a transient failure, and holds back while Discord is down. Each
message remembers the state it shows (a key): recorded while its send is on its way and taken
back if the send fails (``showing``), so nothing is edited twice for the same state and
nothing that failed is taken as shown; an interaction reply that already showed it (the
clicking player's own hand) saves the edit. Failures never touch the game.

What each message shows is bot/screens.py's; the clicks kept for their tokens, bot/tokens.py's;
this module is the table service's listener that schedules the sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import discord

import rendering
from db import SeatRow, TableStatus
from game.view import Stage, TableView
from i18n import words
from service.tables import LiveTable, TableService

from . import images, messages
from .answers import kept_for_token
from .budget import Priority
from .controls import let_go
from .digests import digest
from .languages import seat_language
from .outbox import Outbox, describe, is_transient, nonce, retry_after
from .screens import Screens, edits_in, hand_key, shown_turn, table_key, waiting_for
from .shown import TABLE_SLOT, ShownRecords
from .tokens import UPDATED, Tokens
from .undelivered import lost

if TYPE_CHECKING:
    from .host import Host

log = logging.getLogger(__name__)

DMS_CLOSED = 50007

_UNKNOWN = object()  # an image key nothing equals
RECENTLY_OVER = 64
# Seconds a stopping bot waits for the threads of tables that were just over to be archived
# and locked (after those tables' last posts and edits): a deploy right after a table closed
# leaves no thread open. compose.yaml gives the process 30 s to stop.
STOP_GRACE = 10.0
GONE = ("gone",)  # what a table message found deleted is recorded as showing: no state
# Seconds a table's thread waits, once it is over, for the posts its end started elsewhere.
THREAD_WAIT = 30.0


@contextmanager
def showing(shown: dict[Any, Hashable], slot: Hashable, key: Hashable) -> Iterator[None]:
    """Record ``key`` as what ``slot`` shows while its send is on its way, and take it back if
    the send fails: a failed send is never taken as shown, so the Outbox's next try sends it.
    (Recorded before the send, not after: a click's answer that invalidates the record while
    the send is on its way must not be overwritten by it.)"""
    shown[slot] = key
    try:
        yield
    except BaseException:
        if shown.get(slot) == key:
            del shown[slot]
        raise


class Delivery:
    """The service's listener for a running bot."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        # The retry jitter draws from the bot's chance (seeded by TABLE_SEED when set).
        self.jobs = Outbox(rng=bot.chance("outbox"))
        self.over: dict[int, LiveTable] = {}  # tables that ended lately (see _note_over)
        self.stop_grace = STOP_GRACE  # seconds a stop waits for the threads of tables over
        # Each called with a table over before its thread closes, with the seconds it may
        # take: returns when the posts it makes for that table are requested (the daily
        # deal's score, then its review).
        self.thread_waits: list[tuple[Callable[[int], Awaitable[None]], float]] = []
        # Discord down: turn timers stop (nobody can see the table); back: given back.
        self.jobs.on_outage = lambda: self.service.hold_timers()
        self.jobs.on_recovery = lambda away: self.service.release_timers()
        images.warm()
        self.hand_shown: dict[tuple[int, int], Hashable] = {}
        self.table_shown: dict[int, Hashable] = {}
        # What each message was confirmed to show (digests, bot/digests.py), recorded in the
        # background after Discord confirmed each send: at a restart, a message that matches
        # is not sent again. Keyed (table id, slot): slot -1 the table message, 0-3 a hand.
        self.shown = ShownRecords(lambda: self.service.db.tables)
        # What each message shows (the payloads and their keys), and the clicks kept to edit
        # them through their tokens (not while Discord is down: see Tokens.usable).
        self.screens = Screens(bot.readers, lambda: bot.web_links)
        self.tokens = Tokens(lambda: self.jobs.down)
        self.turn_noticed: dict[tuple[int, int], int] = {}  # the seq a "your turn" notice was for
        self.known: set[int] = set()  # games whose hands this process has shown
        # The hand image each seat's DM shows (message id, rendering.keys.hand_key), and the
        # edits of it on their way (see edit_hand).
        self.images_on: dict[tuple[int, int], tuple[int, Hashable]] = {}
        self.editing: Counter[tuple[int, int]] = Counter()
        self.overlapped: set[tuple[int, int]] = set()
        # Called when the table message cannot be edited any more (deleted, its channel gone,
        # a permission lost): the Channels cog moves the table or marks it lost.
        self.on_table_gone: Callable[[LiveTable, discord.HTTPException], Awaitable[None]] | \
            None = None

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def close(self) -> None:
        """Close the threads of tables just over, cancel the other sends on their way and
        write what the messages show; called by the bot's close, before the database and the
        HTTP session close under them."""
        await self.close_threads_left(self.stop_grace)
        await self.jobs.close()
        await self.shown.flush()

    async def close_threads_left(self, grace: float) -> None:
        """Wait, at most ``grace`` seconds, until every table that is over has its thread
        archived and locked (its last posts and edits first): a table closed as the bot stops
        would otherwise keep its thread open for good, since a closed table is not restored.
        Not while Discord fails (down, or a send waiting out a backoff): nothing would go."""
        def closing(key: Hashable) -> bool:
            return isinstance(key, tuple) and len(key) > 1 and key[0] == "thread"

        def left() -> int:
            return sum(1 for key in self.jobs.dirty() if closing(key))

        if not left():
            return
        if self.jobs.down or self.jobs.failures:
            log.warning("stopping while Discord fails: %d table threads stay open", left())
            return
        try:
            async with asyncio.timeout(grace):
                await self.jobs.settled(closing)
        except TimeoutError:
            log.warning("stopping: %d table threads not archived within %.0f s; they stay "
                        "open", left(), grace)

    async def note_seat(self, live: LiveTable, seat: int, user_id: int,
                        **fields: Any) -> SeatRow | None:
        """Record what Discord said about a player's DMs (closed, or where their hand is now)
        under the table's lock, as every change to a table is made; nothing if the seat
        changed hands meanwhile. Returns the seat as written."""
        async with live.lock:
            s = live.seats.get(seat)
            if s is None or s.user_id != user_id:
                return None
            for name, value in fields.items():
                setattr(s, name, value)
            await self.service.db.tables.put_seat(s)
            return s

    # ---- what each message shows, across restarts ---------------------------------------------
    async def load_shown(self) -> None:
        """At start, after the tables were restored: take every message whose stored digest
        matches its state now as showing it, so that nothing is edited or rendered for it.
        What differs (a new deadline, a state never confirmed before the stop) is sent."""
        await self.shown.load()
        for live in self.service.live.values():
            key = table_key(live)
            if self.shown.get((live.id, TABLE_SLOT)) == digest(key, live.row.message_id):
                self.table_shown[live.id] = key
            for seat, s in live.seats.items():
                if s.user_id is None:  # a computer's seat: no hand message (and no view made)
                    continue
                view = live.view(seat)
                if view is None:
                    continue
                hand = hand_key(live, view)
                if self.shown.get((live.id, seat)) == digest(hand, s.dm_message_id):
                    self.hand_shown[(live.id, seat)] = hand

    def _store(self, table_id: int, slot: int, key: Hashable,
               message_id: int | None, turn: tuple[int, float] | None = None) -> None:
        """Discord confirmed that this message shows ``key`` (and ``turn``'s deadline, for a
        table message): record it for the next start, which keeps that deadline."""
        self.shown.note(table_id, slot, digest(key, message_id), turn)

    # ---- the TableListener interface ------------------------------------------------------
    def restored(self, live: LiveTable) -> None:
        """A table brought back at start: its last state may not have reached Discord before
        the stop, so it is shown again (once its home was checked)."""
        self.table_changed(live)
        if live.match is not None and live.match.to_act is not None:
            self.hands_changed(live, [live.match.to_act])

    def table_changed(self, live: LiveTable) -> None:
        self._request_table(live)
        self._note_over(live)
        if live.id not in self.known and live.match is not None:
            # A game this process has not shown yet (a restart): what each DM shows is
            # unknown, so every hand is shown again, edited in place with current controls.
            self.known.add(live.id)
            self.hands_changed(live, range(4))

    def hands_changed(self, live: LiveTable, seats: Iterable[int]) -> None:
        if live.match is not None:
            self.known.add(live.id)
        for seat in seats:
            s = live.seats.get(seat)
            if s is None or s.user_id is None:
                continue
            acting = live.match is not None and live.match.to_act == seat
            self.jobs.request(("hand", live.id, seat), functools.partial(
                self.update_hand, live, seat),
                priority=Priority.ACTING if acting else Priority.BACKGROUND)

    def acted(self, live: LiveTable, seat: int) -> None:
        """The answer to this person's click will show their hand as it is now: its image is
        drawn while the action is logged, not after (the two were the longest waits of a
        click on a busy bot, one after the other)."""
        view = live.view(seat)
        if view is not None:
            images.draw_hand_early(view, slot=(live.id, seat),
                                   language=seat_language(self.bot.readers, live, seat))

    def deal_finished(self, live: LiveTable, deal_index: int) -> None:
        self.jobs.request(("deal", live.id, deal_index),
                          lambda: self.post_deal_sheet(live, deal_index))

    def match_finished(self, live: LiveTable, ratings: dict[int, tuple[float, float]]) -> None:
        self.jobs.request(("match", live.id), lambda: self.post_match_result(live, ratings))
        self.close_thread(live)

    def table_closed(self, live: LiveTable, reason: str) -> None:
        self._request_table(live, closed=reason)
        self._note_over(live)
        self.close_thread(live)

    # ---- the table's thread, once the table is over --------------------------------------
    def close_thread(self, live: LiveTable) -> None:
        """The table is over: its thread is archived and locked, so that closed tables do not
        pile up in the channel's thread list, once every post and edit the table still has
        on its way went (an archived thread takes no edit; a locked one, no post). What is
        owed is in the database from the table's end (``threads_owed``), so a stop or a
        crash before it went leaves it to the next start (``close_owed_threads``)."""
        if live.row.thread_id is not None:
            self._request_thread(live.id, live.row.thread_id)

    async def close_owed_threads(self) -> int:
        """At start: archive and lock the threads of tables that ended while the last process
        could not (stopped or crashed first, Discord out); through the Outbox, in the rest's
        turn of the global budget, held while Discord is down and sent once it answers.
        Returns how many were owed."""
        owed = await self.service.db.tables.owed_threads(self.bot.sharding)
        for table_id, thread_id in owed:
            self._request_thread(table_id, thread_id)
        if owed:
            log.info("archiving and locking %d thread(s) of tables that ended before the "
                     "last stop", len(owed))
        return len(owed)

    def _request_thread(self, table_id: int, thread_id: int) -> None:
        self.jobs.request(("thread", table_id),
                          functools.partial(self._close_thread, table_id, thread_id))

    async def _close_thread(self, table_id: int, thread_id: int) -> None:
        # Requests made with the table's end (its closed notice, the result) are already
        # waiting when this runs: this worker starts on the next turn of the loop. Posts
        # that come later, from work the end started (a daily deal's score), are waited for
        # (for a while: a thread is never held open for good).
        for wait, seconds in self.thread_waits:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):
                    await wait(table_id)
        await self.jobs.settled(lambda key: isinstance(key, tuple) and len(key) > 1 and
                                key[0] != "thread" and key[1] == table_id)
        try:
            await self._archive(table_id, thread_id)
        except discord.HTTPException as e:
            if is_transient(e) or retry_after(e) is not None:
                raise  # the Outbox sends it again; it stays owed meanwhile
            log.warning("table %s: its thread %s cannot be archived (%s)", table_id,
                        thread_id, describe(e))
        # Done, or refused for good: owed no more (a failure to write it leaves it owed, and
        # the next start archives it again, which changes nothing).
        await self.service.db.tables.thread_closed(table_id)

    async def _archive(self, table_id: int, thread_id: int) -> None:
        try:
            await self.bot.http.edit_channel(thread_id, archived=True, locked=True)
        except discord.NotFound:
            log.info("table %s: its thread %s is gone; nothing to archive", table_id, thread_id)
        except discord.Forbidden:
            # Locking needs Manage Threads; the bot may archive the thread it made without it.
            await self.bot.http.edit_channel(thread_id, archived=True)
            log.info("table %s: its thread %s is archived, not locked (the bot lacks Manage "
                     "Threads there)", table_id, thread_id)

    def _request_table(self, live: LiveTable, closed: str | None = None) -> None:
        """Edit the table message to its newest state, at its channel's pace; an edit made as
        a message takes its turn in the global budget before the table is drawn, one through
        a click's token needs none."""
        self.jobs.request(("table", live.id), lambda: self.update_table(live, closed=closed),
                          bucket=edits_in(live), priority=Priority.TABLE,
                          turn_first=lambda: self.table_token(live) is None)

    def _note_over(self, live: LiveTable) -> None:
        """Keep the last few tables that ended: a click's answer that failed on the last
        action of a match still finds the table to show it again (answer_failed)."""
        if live.id not in self.service.live:
            self.over[live.id] = live
            while len(self.over) > RECENTLY_OVER:
                del self.over[next(iter(self.over))]

    # ---- the table message ----------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def table_reply(self, live: LiveTable, interaction: discord.Interaction[Any] | None
                          = None) -> AsyncIterator[None]:
        """Around an answer that shows the table message as it is now (a click's answer
        editing it, or the message posted anew): once it went through, what the message shows
        is recorded, as for an ordinary edit, so that a restart does not send it again; and
        the click's token is kept to edit the table message later (``tokens.table``)."""
        key, turn = table_key(live), shown_turn(live)
        since = self.tokens.clock()
        self.table_shown[live.id] = key
        yield
        message = interaction.message if interaction is not None else None
        if interaction is not None and message is not None and \
                message.id == live.row.message_id and live.row.is_open and \
                interaction.response.type in UPDATED:
            self.tokens.table[live.id] = (kept_for_token(interaction), since)
        if live.row.message_id is not None and live.row.is_open and \
                self.table_shown.get(live.id) == key:
            self._store(live.id, TABLE_SLOT, key, live.row.message_id, turn)

    async def update_table(self, live: LiveTable, closed: str | None = None) -> None:
        if live.row.message_id is None or (live.lost is not None and closed is None):
            return  # lost: nowhere to show it; the hands say why (shown again once found)
        key, turn = table_key(live, closed), shown_turn(live)
        if self.table_shown.get(live.id) == key:
            return
        with showing(self.table_shown, live.id, key):
            await self._edit_table(live, closed)
        if closed is None and live.row.is_open and self.table_shown.get(live.id) == key:
            self._store(live.id, TABLE_SLOT, key, live.row.message_id, turn)

    def table_token(self, live: LiveTable) -> discord.Interaction[Any] | None:
        """The click whose token edits the table message now (the table may have moved to a
        message of its own since)."""
        return self.tokens.kept(self.tokens.table, live.id, live.row.message_id)

    def answered(self, live: LiveTable, shown: Hashable, seat: int | None = None) -> None:
        """A click's answer showed ``shown`` (the table message's key, or with ``seat`` that
        player's hand's): if the game moved on while the answer was made (computers played),
        an edit showing that may have landed before it, so the message is edited once more
        with the newest state."""
        if seat is None:
            if table_key(live) != shown:
                self.table_shown.pop(live.id, None)
                self.table_changed(live)
            return
        now = live.view(seat)
        if now is not None and hand_key(live, now) != shown:
            self.invalidate(live.id, seat)
            self.hands_changed(live, [seat])

    async def _edit_table(self, live: LiveTable, closed: str | None) -> None:
        assert live.row.message_id is not None
        payload = await self.screens.table_payload(live, closed)
        try:
            if not await self._edit_table_by_token(live, payload):
                message = self.bot.get_partial_messageable(live.row.home_id) \
                    .get_partial_message(live.row.message_id)
                await message.edit(allowed_mentions=messages.NO_MENTIONS, **payload)
        except (discord.NotFound, discord.Forbidden) as e:
            self.table_message_gone(live)
            if closed is not None or self.on_table_gone is None:
                log.warning("table %s: its message is gone (%s); left as it is", live.id, e)
                return
            log.warning("table %s: its message cannot be edited (%s); moving the table or "
                        "telling the players in their hands", live.id, e)
            await self.on_table_gone(live, e)
            return
        finally:
            let_go(payload.get("view"))
        if closed is not None or live.row.status == TableStatus.FINISHED:
            self.forget(live)

    async def post_table(self, live: LiveTable, home: discord.abc.Messageable,
                         once: tuple[Hashable, ...], *, retried: bool = True
                         ) -> tuple[discord.Message, bool]:
        """Post the table message as it is now in ``home``, as a new message (a table's first
        post, or its move to another channel), drawn anew at each try (a file is read once).
        Its nonce, made of ``once``, makes a try whose answer was lost give back the message
        it made. ``retried``: tried again a few times while Discord fails, then the failure
        is raised. Returns the message, and whether it shows the table as it is now (the
        game may have moved on while Discord failed: then it is to be edited)."""
        drawn: list[Hashable] = []  # what each try showed

        async def post() -> discord.Message:
            payload = await self.screens.table_payload(live)
            payload["files"] = payload.pop("attachments", [])
            if payload.get("view") is None:
                payload.pop("view", None)
            drawn.append(table_key(live))
            return await home.send(allowed_mentions=messages.NO_MENTIONS, nonce=nonce(*once),
                                   **payload)

        message = await (self.jobs.call(("table post", live.id), post) if retried
                         else post())
        return message, all(key == table_key(live) for key in drawn)

    def table_message_gone(self, live: LiveTable) -> None:
        """The table message was found deleted (or closed to the bot): it shows nothing, and
        is recorded so, so that a restart before the table is shown again edits it (and
        finds it gone) instead of taking the old message as up to date."""
        self.table_shown.pop(live.id, None)
        self._store(live.id, TABLE_SLOT, GONE, live.row.message_id)

    async def _edit_table_by_token(self, live: LiveTable, payload: dict[str, Any]) -> bool:
        """Edit the table message through the token of the last click on it, while the token
        lasts; False when there is none to use (then it is edited as a message). A token
        Discord no longer takes is dropped; a failure of Discord's is raised."""
        interaction = self.table_token(live)
        if interaction is None:
            return False
        if await self._by_token(live, "the last click on its message",
                                "its message is edited as a message",
                                interaction.edit_original_response(
                                    allowed_mentions=messages.NO_MENTIONS, **payload)):
            return True
        self.tokens.table.pop(live.id, None)
        return False

    # ---- hands ------------------------------------------------------------------------------
    async def edit_hand(self, live: LiveTable, seat: int, message_id: int | None,
                        send: Callable[[dict[str, Any]], Awaitable[Any]], *,
                        need: images.Need = images.Need.ANSWER) -> None:
        """Edit a hand message (``send`` does it: a DM edit, or the answer to a click on it)
        to the hand now (``need``: who waits for it). Its image is uploaded only when it
        changed: what each DM shows is remembered after each edit that went through, unless
        edits of it overlapped (then their order on Discord's side is unknown and the next
        edit uploads the image)."""
        slot = (live.id, seat)
        view = live.view(seat)
        assert view is not None
        on = self.images_on.get(slot)
        known = on[1] if on is not None and on[0] == message_id and \
            not self.editing[slot] else _UNKNOWN
        payload, key = await self.screens.hand_payload_of(live, seat, view, need, known)
        self.editing[slot] += 1
        if self.editing[slot] > 1:
            self.overlapped.add(slot)
        ok = False
        try:
            await send(payload)
            ok = True
        finally:
            let_go(payload.get("view"))
            self.editing[slot] -= 1
            if not ok or slot in self.overlapped or message_id is None:
                self.images_on.pop(slot, None)
            else:
                self.images_on[slot] = (message_id, key)
            if not self.editing[slot]:
                del self.editing[slot]
                self.overlapped.discard(slot)

    def answer_failed(self, interaction: discord.Interaction[Any], table_id: int,
                      error: BaseException, where: str | None = None) -> None:
        """Discord failed to carry the answer to a click (what the click asked for stands):
        one WARNING, counted with an outage's failures (bot/undelivered.py), and the table and
        the player's hand are sent again, by the Outbox, once Discord answers. ``where``: the
        control clicked, for the log (never its custom_id: on a hand it names a card)."""
        lost(interaction, "its answer (the table and hand are sent again)",
             where or f"a click at table {table_id}", error)
        live = self.service.live.get(table_id) or self.over.get(table_id)
        if live is None:
            return
        self.table_shown.pop(live.id, None)
        self.table_changed(live)
        seat = live.held_seat(interaction.user.id)
        if seat is not None:
            self.invalidate(live.id, seat)
            self.hands_changed(live, [seat])

    def invalidate(self, table_id: int, seat: int | None = None) -> None:
        """Forget what a message shows, so its next update is sent even if nothing changed
        (an edit may have failed, or shown something else): this seat's hand, or with no
        seat the table message and every hand."""
        if seat is not None:
            self.hand_shown.pop((table_id, seat), None)
            return
        self.table_shown.pop(table_id, None)
        for each in range(4):
            self.hand_shown.pop((table_id, each), None)

    def post(self, key: Hashable, send: Callable[[], Awaitable[Any]]) -> None:
        """A message sent once (a command's follow-up), through the Outbox: sent again if
        Discord fails, in the background."""
        async def job() -> None:
            await send()
        self.jobs.request(key, job, priority=Priority.ACTING)

    def hand_answered(self, live: LiveTable, seat: int) -> None:
        """An interaction reply on the DM has just shown this hand as it is now."""
        view = live.view(seat)
        if view is not None:
            self.hand_shown[(live.id, seat)] = hand_key(live, view)

    @contextlib.asynccontextmanager
    async def hand_reply(self, live: LiveTable, seat: int, interaction: discord.Interaction[Any],
                         *, new_reply: bool = False) -> AsyncIterator[None]:
        """Around an interaction's answer that shows this player's hand as it is now: an edit
        of their DM, or (closed DMs) a new ephemeral reply (``new_reply``) or an edit of one.
        Later hand changes edit that ephemeral through the interaction's token while it lasts,
        and only after its answer went through: until then Discord knows no message for the
        token, and an edit landing before the answer would be undone by it."""
        s = live.seats.get(seat)
        message = interaction.message
        if s is not None and not new_reply and message is not None and \
                message.id == s.dm_message_id:
            since = self.tokens.clock()
            self.hand_answered(live, seat)
            key = self.hand_shown.get((live.id, seat))
            yield
            # The answer went through, and it edited the DM (not a reply of its own): the
            # token's original message is the hand from now on.
            if interaction.response.type in UPDATED:
                self.tokens.dm[(live.id, seat)] = (kept_for_token(interaction), since)
            if key is not None and live.row.is_open:
                self._store(live.id, seat, key, s.dm_message_id)
            return
        if s is not None and s.dm_closed and \
                (new_reply or (message is not None and message.flags.ephemeral)):
            key, since = (live.id, seat), self.tokens.clock()
            answered = asyncio.get_running_loop().create_future()
            self.tokens.answering.setdefault(key, set()).add(answered)
            self.hand_answered(live, seat)
            try:
                yield
                self.tokens.ephemeral[key] = (kept_for_token(interaction), since)
            finally:
                waiting = self.tokens.answering.get(key, set())
                waiting.discard(answered)
                if not waiting:
                    self.tokens.answering.pop(key, None)
                answered.set_result(None)
            return
        yield

    async def update_hand(self, live: LiveTable, seat: int) -> None:
        s = live.seats.get(seat)
        view = live.view(seat)
        if s is None or s.user_id is None or view is None:
            return
        key = hand_key(live, view)
        if self.hand_shown.get((live.id, seat)) == key:
            return
        with showing(self.hand_shown, (live.id, seat), key):
            await self._send_hand(live, seat, s.user_id, view)
        if live.row.is_open and self.hand_shown.get((live.id, seat)) == key:
            self._store(live.id, seat, key, s.dm_message_id)

    async def _send_hand(self, live: LiveTable, seat: int, user_id: int,
                         view: TableView) -> None:
        s = live.seats[seat]
        if s.dm_closed:
            await self.update_ephemeral_hand(live, seat, view)
            return
        if s.dm_message_id is not None and s.dm_channel_id is not None:
            if await self._edit_by_token(live, seat, s.dm_message_id):
                return
            message = self.bot.get_partial_messageable(
                s.dm_channel_id, type=discord.ChannelType.private).get_partial_message(
                    s.dm_message_id)
            try:
                await self.edit_hand(live, seat, message.id,
                                     lambda payload: message.edit(**payload),
                                     need=waiting_for(live, seat))
                return
            except discord.NotFound:
                pass  # the player deleted it: send a new one
        if view.stage is Stage.OVER:
            return
        try:
            sent = await self._new_dm_hand(live, seat, user_id, view)
        except discord.Forbidden as e:
            if e.code != DMS_CLOSED:
                raise
            self.invalidate(live.id, seat)
            if await self.note_seat(live, seat, user_id, dm_closed=True) is None:
                return
            await self.notice(live, words(live.language)("delivery.dm_closed",
                                                          mention=f"<@{user_id}>"),
                              mention=user_id)
            self.table_changed(live)
            return
        await self.note_seat(live, seat, user_id, dm_channel_id=sent.channel.id,
                             dm_message_id=sent.id)

    async def _new_dm_hand(self, live: LiveTable, seat: int, user_id: int,
                           view: TableView) -> discord.Message:
        """Send the hand as a new DM, in the DM channel the player's hands went to before, at
        this table or another (a user's DM channel with the bot keeps its id, across restarts
        too): no request to open it, and opening DM channels has a tight limit of its own.
        Only a player never sent a hand before, or whose channel Discord no longer knows, has
        one opened."""
        known = await self.service.db.tables.dm_channel_of(user_id)
        while True:
            channel: discord.abc.Messageable = self.bot.get_partial_messageable(
                known, type=discord.ChannelType.private) if known is not None else \
                await self.bot.create_dm(discord.Object(user_id))
            payload = await self.screens.hand_payload(live, seat, need=waiting_for(live, seat))
            files = payload.pop("attachments")
            try:
                return await channel.send(files=files or discord.utils.MISSING, **payload,
                                          nonce=nonce("hand", live.id, seat, user_id,
                                                      hand_key(live, view)))
            except discord.NotFound:
                if known is None:
                    raise
                known = None  # not there any more: open it anew

    async def _edit_by_token(self, live: LiveTable, seat: int, message_id: int) -> bool:
        """Edit the DM hand through the token of the player's last click on it, while the
        token lasts; False when there is none to use (then the DM is edited as a message).
        A token Discord no longer takes is dropped; a failure of Discord's is raised, and the
        Outbox sends the hand again."""
        interaction = self.tokens.kept(self.tokens.dm, (live.id, seat), message_id)
        if interaction is None:
            return False
        if await self._by_token(live, f"seat {seat}'s last click",
                                "its DM is edited as a message", self.edit_hand(
                live, seat, message_id,
                lambda payload: interaction.edit_original_response(**payload),
                need=waiting_for(live, seat))):
            return True
        self.tokens.dm.pop((live.id, seat), None)
        return False

    async def _by_token(self, live: LiveTable, whose: str, otherwise: str,
                        edit: Awaitable[Any]) -> bool:
        """Await an edit made through the token of a click (``whose``, for the log): True
        when Discord took it, False when it refused the token (run out, the reply dismissed;
        ``otherwise`` says what is done instead, for the log). A failure of Discord's own, or
        a 429, is raised: the Outbox sends the message again (after the wait Discord asked)."""
        try:
            await edit
        except discord.HTTPException as e:
            if is_transient(e) or retry_after(e) is not None:
                raise  # Discord failed, or asked to wait: not the token's fault
            log.info("table %s: the token of %s was refused (%s); %s",
                     live.id, whose, describe(e), otherwise)
            return False
        self.jobs.budget.answered += 1  # Discord answered (tokens bypass the metered client)
        return True

    async def update_ephemeral_hand(self, live: LiveTable, seat: int, view: TableView) -> None:
        """Closed DMs: edit the player's last ephemeral hand while its token lasts; otherwise,
        when their turn comes, tell them in the thread to open **My hand**."""
        s = live.seats[seat]
        answers = self.tokens.answering.get((live.id, seat))
        if answers:  # the answers to their clicks go first; this edit shows what came after
            await asyncio.wait(list(answers))
            now = live.view(seat)
            if now is None:
                return
            view = now
        held = self.tokens.fresh((live.id, seat))
        if held is not None:
            payload = await self.screens.hand_payload(live, seat, need=waiting_for(live, seat))
            try:
                if await self._by_token(live, f"seat {seat}'s last click",
                                        "they are told in the thread when it is their turn",
                                        held.edit_original_response(**payload)):
                    return
            finally:
                let_go(payload.get("view"))
            # dismissed by the player, or the token ran out: fall back to a notice
        self.tokens.ephemeral.pop((live.id, seat), None)
        if view.is_my_turn and view.winner is None and \
                self.turn_noticed.get((live.id, seat)) != live.seq:
            self.turn_noticed[(live.id, seat)] = live.seq
            await self.notice(live, words(live.language)(
                "delivery.your_turn", mention=f"<@{s.user_id}>", table=live.id),
                mention=s.user_id)

    # ---- posts in the thread ----------------------------------------------------------------
    async def notice(self, live: LiveTable, text: str, *, mention: int | None = None,
                     files: list[discord.File] | None = None,
                     once: Hashable | None = None) -> None:
        """Post in the table's thread. ``once``: what makes this post one logical message
        (default: this text at this point of the table's log); tried again after its answer
        was lost, it is not posted twice (a nonce Discord enforces)."""
        channel = self.bot.get_partial_messageable(live.row.home_id)
        # Only the member the notice is for is pinged: never @everyone, a role, or whoever a
        # name in the text may look like (names are escaped too: service/markup.py).
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=[discord.Object(mention)]) \
            if mention is not None else messages.NO_MENTIONS
        await channel.send(text, allowed_mentions=mentions, files=files or discord.utils.MISSING,
                           nonce=nonce("notice", live.id, *(
                               (once,) if once is not None else (live.seq, text))))

    async def post_deal_sheet(self, live: LiveTable, index: int) -> None:
        match = live.match
        if match is None or index >= len(match.results):
            return
        result = match.results[index]
        image = await images.deal_sheet_image(result, match.variant, live.names(), index + 1,
                                             live.language)
        await self.notice(live, messages.deal_sheet_text(live, index, result, live.language),
                          files=[image],
                          once=("deal", index))

    async def post_match_result(self, live: LiveTable,
                                ratings: dict[int, tuple[float, float]]) -> None:
        match = live.match
        if match is None or match.winner is None:
            return
        summary = rendering.MatchResult.from_results(
            match.variant, live.names(), match.options.target, match.results, match.winner)
        image = await images.match_image(summary, live.language)
        text = messages.match_text(live, match.winner, (match.totals[0], match.totals[1]),
                                   ratings, live.language)
        await self.notice(live, text, files=[image], once="match")

    def forget(self, live: LiveTable) -> None:
        self.invalidate(live.id)
        self.tokens.forget(live.id)
        for seat in range(4):
            self.turn_noticed.pop((live.id, seat), None)
            self.images_on.pop((live.id, seat), None)
        self.known.discard(live.id)
        self.shown.forget(live.id)
        images.HAND_IMAGES.forget(live.id)
