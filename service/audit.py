"""The audit log: every moderator action and every automatic closing, written to the database
and handed to the listeners (the Admin cog posts it to the server's log channel)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from db.audit import AuditEntry

if TYPE_CHECKING:
    from db import Database

log = logging.getLogger(__name__)

# The actions written. A moderator's: CONFIG, END (a table ended by someone not its host), KICK
# (a player removed from a table by its host or a moderator, details {"user": id}).
# The bot's own (actor None): CLOSED, with details {"reason": ...}.
CONFIG, END, CLOSED, KICK = "config", "end", "closed", "kick"


class AuditLog:
    def __init__(self, db: Database) -> None:
        self.repo = db.audit
        # Called with each entry once it is written; a failing listener is logged, not raised:
        # the action it records has happened already.
        self.listeners: list[Callable[[AuditEntry], None]] = []

    async def record(self, guild_id: int, action: str, *, actor_id: int | None,
                     table_id: int | None = None,
                     details: Mapping[str, Any] | None = None) -> AuditEntry:
        entry = await self.repo.add(guild_id, action, actor_id=actor_id, table_id=table_id,
                                    details=details)
        for listener in self.listeners:
            try:
                listener(entry)
            except Exception:
                log.exception("audit listener failed on entry %s", entry.id)
        return entry

    async def closed(self, guild_id: int, table_id: int, reason: str) -> AuditEntry:
        """A table the bot closed by itself (a lobby that never started, an abandoned game)."""
        return await self.record(guild_id, CLOSED, actor_id=None, table_id=table_id,
                                 details={"reason": reason})
