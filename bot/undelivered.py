"""An answer to an interaction that Discord did not take: one WARNING, never a traceback.

Every answer the bot gives outside the table's delivery layer (a refusal, an apology, "unknown
control", the choices of an option, a page of a board) goes through :func:`answering`. When
Discord fails to take it (a 5xx, a dropped connection, a timeout, or a 4xx such as an
interaction it has already forgotten), nothing is raised to discord.py, which would log it at
ERROR with its traceback: the failure is one WARNING line saying what could not be told to
whom, and a failure of Discord (not a refusal) is counted with the others of an outage by the
bot's Outbox, which decides when Discord counts as down. The member sees Discord's own "This
interaction failed", which is all anyone can show while Discord is down; what they did stands.

A log line names the place (a control's kind and table, a command), the member's id and what
they were to be told (a refusal's message id, never its words): never a custom_id, which on a
hand names a card of that hand.

The same for a send outside the Outbox that answers no interaction (a table's thread, a table
posted anew, a notice): :func:`sending` makes its failure one WARNING counted with an outage's,
never raised; the caller sees it failed (``Sent.error``) and does what keeps nothing lost (the
table opens in the channel, the send goes through the Outbox, the member is told).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord import app_commands

from .outbox import describe, is_transient

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord forgot the interaction: no answer within its 3 s

# What Discord's failing to take an answer raises: its refusals and 5xx (HTTPException,
# DiscordServerError), a connection that dropped or could not be made (aiohttp.ClientError,
# ConnectionError), a request that timed out.
FAILURES = (discord.HTTPException, aiohttp.ClientError, ConnectionError, asyncio.TimeoutError)


def undelivered(error: BaseException) -> bool:
    """Whether ``error`` is Discord failing to take a request, not a bug of ours."""
    return isinstance(error, FAILURES)


def reason(error: BaseException) -> str:
    """Why an answer did not arrive, in a few words."""
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        return "too late: Discord had forgotten the interaction"
    return describe(error)


def count(client: Any, what: Hashable, error: BaseException) -> None:
    """A failure of Discord's own (a 5xx, a dropped connection, a timeout; not a refusal)
    counts with the others of an outage, in the bot's Outbox, which decides when Discord is
    down (the health check and the metrics say so)."""
    if is_transient(error):
        jobs = getattr(getattr(client, "delivery", None), "jobs", None)
        if jobs is not None:
            jobs.failed(what, error)


def lost(interaction: discord.Interaction[Any], what: str, where: str,
         error: BaseException) -> None:
    """Say in one WARNING that ``what`` (a refusal, an apology...) could not be told to the
    member who used ``where`` (a control, a command), and count a failure of Discord with the
    outage's."""
    count(interaction.client, ("answer", interaction.id), error)
    log.warning("answer not delivered (%s): user %s was not told %s (%s)", where,
                interaction.user.id, what, reason(error))


@contextmanager
def answering(interaction: discord.Interaction[Any], what: str, where: str) -> Iterator[None]:
    """Around an answer to ``interaction``: if Discord fails to take it, :func:`lost` says so
    and nothing is raised. A bug (anything else) is raised as ever."""
    try:
        yield
    except Exception as e:
        if not undelivered(e):
            raise
        lost(interaction, what, where, e)


@dataclass
class Sent:
    """What became of a send made through :func:`sending`: ``error`` is why it failed."""

    error: BaseException | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None


@contextmanager
def sending(client: Any, what: str) -> Iterator[Sent]:
    """Around a send to Discord outside the Outbox (``what``: what it was, naming a table or a
    tournament, never a card): if Discord fails to take it, one WARNING says so, a failure of
    Discord's counts with the outage's, and nothing is raised; the caller reads
    ``Sent.failed``. A bug (anything else) is raised as ever."""
    sent = Sent()
    try:
        yield sent
    except Exception as e:
        if not undelivered(e):
            raise
        sent.error = e
        count(client, ("send", what), e)
        log.warning("not delivered: %s (%s)", what, reason(e))


class GuardedChoices(discord.InteractionResponse[Any]):
    """The response of an autocomplete interaction whose choices go through
    :func:`answering`: discord.py sends an autocomplete callback's choices itself, after the
    callback returned, and would log a failure at ERROR with its traceback."""

    __slots__ = ()

    async def autocomplete(self, choices: Sequence[app_commands.Choice[Any]]) -> None:
        interaction = self._parent
        command = interaction.command
        where = f"/{command.qualified_name}" if command is not None else "a command"
        with answering(interaction, "the choices of an option", where):
            await super().autocomplete(choices)


def guard_choices(interaction: discord.Interaction[Any]) -> None:
    """Make the choices of this autocomplete interaction go through :func:`answering` (its
    response is a GuardedChoices; discord.py keeps an interaction's response in this slot,
    made on first use, and uses it to send the choices)."""
    interaction._cs_response = GuardedChoices(interaction)  # type: ignore[attr-defined]
