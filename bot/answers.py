"""Answering an interaction in time when its answer is slow to make (an image to draw).

Discord forgets an interaction it has no answer to within 3 s of its creation ("This
interaction failed"). Most answers are ready within tens of milliseconds and go as one request.
One that is not ready within BUDGET seconds of the interaction's creation is deferred first (the
clicked message stays as it is, or a new reply shows "thinking…"), then completed through the
interaction's token when ready: two requests, only when the bot is slow.

A control arms its SlowAnswer as the click arrives (``SlowAnswer.armed``), not once the action
is done: the action itself (the table's lock, the database) may be what is slow, and the click
is acknowledged in time all the same. The answer then edits the message clicked, or is a new
private reply (``tell`` sends its words through the armed answer, so a defer and the reply
never cross).

A slash command says how it answers in its ``extras[ANSWERS]`` (PRIVATE or PUBLIC), and the
command tree arms its answer as the command arrives, the same way (bot/bot.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from types import TracebackType
from typing import Any, Final

import discord

from .undelivered import undelivered

log = logging.getLogger(__name__)

# Seconds after the interaction's creation (which counts the event's way to us) to wait for the
# answer before deferring: the last second of Discord's 3 is for the defer's way there, on a
# busy loop. Shorter, and a busy bot would pay two requests for more of its clicks.
BUDGET = 2.0

# Where a SlowAnswer armed on a click's arrival waits for the handler (interaction.extras).
ARMED = "belote.slow_answer"
# Set in interaction.extras once a public reply was deferred: the "thinking…" everybody sees
# stands for the answer, so words for the user alone cannot replace it (bot/errors.py: reply).
THINKING_PUBLICLY = "belote.thinking_publicly"

# A slash command's ``extras`` key saying how it answers: a reply for the user alone
# (PRIVATE) or one for the channel (PUBLIC). A refusal is private either way.
ANSWERS = "belote.answers"
PRIVATE: Final = "private"
PUBLIC: Final = "public"


class SlowAnswer:
    """The answer to one interaction, sent with ``send`` once made, deferred if it is late.

    ``update``: the answer edits the message whose control was used (a click); otherwise it is a
    new reply, ``ephemeral`` or not. Use it as ``async with SlowAnswer(...) as answer:``; an
    exception raised inside leaves the interaction unanswered (or deferred) for the error
    handler, which knows both (bot/errors.py)."""

    def __init__(self, interaction: discord.Interaction[Any], *, update: bool,
                 ephemeral: bool = False) -> None:
        self.interaction = interaction
        self.update = update
        self.ephemeral = ephemeral
        self._sending = False
        self._lock = asyncio.Lock()  # a defer and the answer never cross
        self._timer: asyncio.TimerHandle | None = None
        self._deferring: asyncio.Task[None] | None = None

    @classmethod
    def armed(cls, interaction: discord.Interaction[Any], *, update: bool = True,
              ephemeral: bool | None = None) -> SlowAnswer:
        """The answer to a click or a command, its timer running from now on: an edit of the
        message clicked (``update``), else a reply, private unless ``ephemeral`` is False. The
        handler's ``SlowAnswer.of`` (or ``waiting``) gets this one. ``close`` it when the
        handler ends (``closing`` finds it)."""
        answer = cls(interaction, update=update,
                     ephemeral=not update if ephemeral is None else ephemeral)
        answer._arm()
        interaction.extras[ARMED] = answer
        return answer

    @classmethod
    async def closing(cls, interaction: discord.Interaction[Any]) -> None:
        """Close the answer armed for ``interaction``, if one is."""
        early = interaction.extras.get(ARMED)
        if isinstance(early, SlowAnswer):
            await early.close()

    @classmethod
    def waiting(cls, interaction: discord.Interaction[Any], *, update: bool,
                ephemeral: bool = False) -> SlowAnswer | None:
        """The answer armed when the click arrived, if it is of this kind and not sent yet."""
        early = interaction.extras.get(ARMED)
        if isinstance(early, SlowAnswer) and not early._sending and early.update == update \
                and early.ephemeral == ephemeral:
            return early
        return None

    @classmethod
    def of(cls, interaction: discord.Interaction[Any], *, update: bool,
           ephemeral: bool = False) -> SlowAnswer:
        """The answer to make: the one armed when the click arrived if it is of this kind,
        else a new one."""
        early = cls.waiting(interaction, update=update, ephemeral=ephemeral)
        return early or cls(interaction, update=update, ephemeral=ephemeral)

    def _arm(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(self._budget_left(), self._late)

    async def __aenter__(self) -> SlowAnswer:
        if self._timer is None:  # not armed already when the click arrived
            self._arm()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        """No defer from now on; one on its way lands before anyone else answers (a refusal
        then goes as a follow-up)."""
        self._stop()
        # The interaction and its armed answer refer to each other: unlinked, both are
        # freed at once rather than by the garbage collector (tests/e2e/test_freed_at_once).
        if self.interaction.extras.get(ARMED) is self:
            del self.interaction.extras[ARMED]
        if self._deferring is not None:
            await self._deferring

    def _budget_left(self) -> float:
        # Counted from the interaction's creation (Discord's clock), and never longer than
        # BUDGET from now (in case this machine's clock is behind).
        age = (discord.utils.utcnow() - self.interaction.created_at).total_seconds()
        return max(0.0, min(BUDGET, BUDGET - age))

    def _stop(self) -> None:
        self._sending = True
        if self._timer is not None:
            self._timer.cancel()

    def _late(self) -> None:
        if not self._sending:
            self._deferring = asyncio.get_running_loop().create_task(
                self._defer(), name=f"belote-defer-{self.interaction.id}")

    async def _defer(self, *, now: bool = False) -> None:
        async with self._lock:
            response = self.interaction.response
            if (self._sending and not now) or response.is_done():
                return
            try:
                if self.update:
                    await response.defer()
                else:
                    await response.defer(ephemeral=self.ephemeral, thinking=True)
                    if not self.ephemeral:
                        self.interaction.extras[THINKING_PUBLICLY] = True
            except Exception as e:
                if not undelivered(e):
                    raise
                # Too late already, or Discord is failing: the answer will fail too, and say
                # so in its one WARNING (bot/undelivered.py).
                log.info("interaction %s not deferred (%s)", self.interaction.id, e)

    async def defer_now(self) -> None:
        """Defer at once, whatever the time (a command about to do slow work whose answer
        goes later through the interaction's follow-up); nothing if deferred already."""
        self._stop()
        await self._defer(now=True)

    async def send(self, payload: dict[str, Any]) -> None:
        """Answer with ``payload`` (the keywords of a message edit: content, view,
        attachments, allowed_mentions)."""
        self._stop()
        interaction = self.interaction
        async with self._lock:
            if interaction.response.is_done():  # deferred: complete the answer
                await interaction.edit_original_response(**payload)
            elif self.update:
                await interaction.response.edit_message(**payload)
            else:
                reply = dict(payload)
                reply["files"] = reply.pop("attachments", None) or discord.utils.MISSING
                if reply.get("view") is None:
                    reply.pop("view", None)
                await interaction.response.send_message(ephemeral=self.ephemeral, **reply)


async def defer_reply(interaction: discord.Interaction[Any], *, ephemeral: bool) -> None:
    """Show "thinking…" now (for the user alone if ``ephemeral``): a command about to do slow
    work whose answer goes later as the interaction's follow-up. Through the answer armed as
    the command arrived, so that two defers never cross."""
    early = SlowAnswer.waiting(interaction, update=False, ephemeral=ephemeral)
    if early is not None:
        await early.defer_now()
        return
    await SlowAnswer.closing(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


def kept_for_token(interaction: discord.Interaction[Any]) -> discord.Interaction[Any]:
    """An answered interaction, made ready to be kept for its token (which edits its message
    for 15 minutes): freed as soon as it is let go, not by the garbage collector.

    discord.py caches an interaction's ``response`` in the interaction, and the response
    points back at it: a reference cycle, which only the collector frees. Kept while a player
    thinks, such cycles outlived enough young collections to fill the oldest generation, whose
    full collections paused a busy bot's event loop for hundreds of milliseconds. Editing
    through the token (``edit_original_response``) does not use the response; read after this,
    ``response`` is a new one that knows nothing of the answer already given."""
    # The slot of discord.utils.cached_slot_property; absent when never read (no cycle).
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")
    return interaction
