"""The clicks kept for their tokens: an interaction's token edits the message it answered for
15 minutes, outside Discord's global request limit (which tokens are not bound by). The
delivery edits a table message through the last click that edited it, a DM hand through its
player's last click on it, and a closed-DM player's private hand through the click that showed
it (the only way to reach that reply at all).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import discord

K = TypeVar("K", bound=Hashable)
Kept = dict[K, tuple[discord.Interaction[Any], float]]  # a click kept for its token, and when

# An interaction's token edits its ephemeral reply for 15 minutes; keep a margin.
TOKEN_LIFETIME = 14 * 60.0

# The answers to a click that edit the message clicked: that message is then the token's
# original message, which the token edits for 15 minutes.
UPDATED = (discord.InteractionResponseType.message_update,
           discord.InteractionResponseType.deferred_message_update)


class Tokens:
    """The kept clicks of every table. ``down``: whether Discord is down (then nothing is
    edited through a token: see ``usable``)."""

    def __init__(self, down: Callable[[], bool], clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.down = down
        self.clock = clock
        # Players with open DMs: the newest click on their DM hand that was answered by
        # editing it, and when. Its token edits that same message later (their turn comes,
        # the trick ends): a DM edit is otherwise a call against the global limit for every
        # card played.
        self.dm: Kept[tuple[int, int]] = {}
        # The same for each table message: the newest click on it answered by editing it (a
        # seat taken, the game started, a seat taken back). Its token edits the table
        # message, paced as ever in its channel but outside the global limit: the table
        # edits that the global limit could not carry at a few hundred busy tables.
        self.table: Kept[int] = {}
        # Players with closed DMs: the newest interaction that showed their hand as an
        # ephemeral reply (its token edits that reply), and when it came.
        self.ephemeral: Kept[tuple[int, int]] = {}
        # Their answers (showing the hand) still on the way: token edits wait for them.
        self.answering: dict[tuple[int, int], set[asyncio.Future[None]]] = {}

    @property
    def usable(self) -> bool:
        """While Discord is down, messages are edited as messages, not through tokens: the
        Outbox probes with one request at a time, and discord.py tries an edit through a
        token five times over 16 s on any 5xx (a request of its own client: on 500, 502, 504,
        524)."""
        return not self.down()

    def kept(self, kept: Kept[K], key: K, message_id: int | None
             ) -> discord.Interaction[Any] | None:
        """The click kept under ``key`` whose token edits ``message_id`` now: None when there
        is none, while Discord is down, or when it ran out or was for another message (then
        it is dropped)."""
        held = kept.get(key)
        if held is None or not self.usable:
            return None
        interaction, since = held
        if self.clock() - since < TOKEN_LIFETIME and interaction.message is not None and \
                interaction.message.id == message_id:
            return interaction
        del kept[key]
        return None

    def fresh(self, key: tuple[int, int]) -> discord.Interaction[Any] | None:
        """The click that showed a closed-DM player's private hand, while its token lasts."""
        held = self.ephemeral.get(key)
        if held is not None and self.clock() - held[1] < TOKEN_LIFETIME:
            return held[0]
        return None

    def forget(self, table_id: int) -> None:
        """A table is over: its clicks are dropped."""
        self.table.pop(table_id, None)
        for seat in range(4):
            self.ephemeral.pop((table_id, seat), None)
            self.dm.pop((table_id, seat), None)
