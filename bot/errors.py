"""The one error path of slash commands and controls: what the user reads when a handler raised.

A Refusal (the service turning a request down) is answered privately in its own words and is
no error. Discord failing to take the handler's answer (an outage) is no bug either: one
WARNING (bot/undelivered.py), and no apology, which could not get through either. Anything
else is a bug: the user gets a short private apology instead of Discord's "The application did
not respond", and the log gets its traceback, once. Either way the answer works whether or not
the interaction was already answered or deferred, and this path never raises: an answer that
does not get through is one WARNING.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any, Final

import discord

from i18n import DEFAULT_LANGUAGE, words
from service import Refusal

from .answers import THINKING_PUBLICLY, SlowAnswer
from .languages import member_language
from .messages import NO_MENTIONS
from .outbox import is_transient
from .undelivered import UNKNOWN_INTERACTION, answering, lost

log = logging.getLogger(__name__)

APOLOGY: Final = words(DEFAULT_LANGUAGE)("errors.apology")  # in English


def apology(interaction: discord.Interaction[Any]) -> str:
    """What a user reads when their command or click failed on our side."""
    return words(member_language(interaction))("errors.apology")


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """Say ``text`` to the user alone: the interaction's answer, or a follow-up once it has one
    (a deferred "thinking…" answer is replaced by it). A private answer armed as the click
    arrived sends it, so that its defer, if one is on its way, lands first."""
    await reply(interaction, text, ephemeral=True)


async def reply(interaction: discord.Interaction[Any], text: str, *, ephemeral: bool,
                files: Sequence[discord.File] = (), view: discord.ui.View | None = None,
                allowed_mentions: discord.AllowedMentions = NO_MENTIONS) -> None:
    """Answer with a new message, for the user alone (``ephemeral``) or for the channel:
    through the answer armed as the command or click arrived if it is of this kind (its
    defer, if one is on its way, lands first), else as the interaction's answer, else as a
    follow-up. Words for the user alone after a public "thinking…" replace it privately: the
    public placeholder is deleted, and they go as a private follow-up."""
    early = SlowAnswer.waiting(interaction, update=False, ephemeral=ephemeral)
    if early is not None:
        await early.send({"content": text, "attachments": list(files), "view": view,
                          "allowed_mentions": allowed_mentions})
        return
    # An answer of the other kind armed: closed first, so that a defer on its way lands.
    await SlowAnswer.closing(interaction)
    response = interaction.response
    if not response.is_done():
        await response.send_message(text, ephemeral=ephemeral, files=list(files),
                                    view=view or discord.utils.MISSING,
                                    allowed_mentions=allowed_mentions)
        return
    if ephemeral and interaction.extras.pop(THINKING_PUBLICLY, False):
        with contextlib.suppress(discord.NotFound):
            await interaction.delete_original_response()
    await interaction.followup.send(text, ephemeral=ephemeral, files=list(files),
                                    view=view or discord.utils.MISSING,
                                    allowed_mentions=allowed_mentions)


async def answer_error(interaction: discord.Interaction[Any], error: BaseException,
                       where: str, otherwise: str = DEFAULT_LANGUAGE) -> None:
    """Answer an interaction whose handler raised ``error`` (``where``: what it was, for the
    log, never naming a card; ``otherwise``: the language of a member whose client's we do
    not speak, the table's). Never raises: a failure to answer is one WARNING."""
    if isinstance(error, Refusal):
        # In the words of who clicked or typed; the log names the refusal, not its words.
        text = error.text(member_language(interaction, otherwise))
        what = f"a refusal ({error.message_id})"
    elif is_transient(error) or (isinstance(error, discord.NotFound) and
                                 error.code == UNKNOWN_INTERACTION):
        # Discord did not take the handler's answer (down, or too late: it has forgotten the
        # interaction): nobody can be told, an apology would not get through either.
        lost(interaction, "its answer", where, error)
        return
    else:
        log.error("%s failed (user %s, channel %s)", where, interaction.user.id,
                  interaction.channel_id, exc_info=error)
        text = apology(interaction)
        what = "an apology"
    with answering(interaction, what, where):
        await tell(interaction, text)
