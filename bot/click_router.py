"""The clicks one process carries to another: installed in a process that does not run every
shard, it sends a direct-message click on a table another process owns to that process
(db/routing.py), which answers it with the interaction's token, as it answers its own."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from i18n import words

from .errors import tell
from .languages import member_language
from .sharding import Shards, table_of
from .undelivered import answering

if TYPE_CHECKING:
    from db.routing import ClickRoutes

    from .host import Host

log = logging.getLogger(__name__)

_COMPONENT, _MODAL = 3, 5


class ClickRouter:
    """Installed in a process that does not run every shard: a direct-message click for a
    table another process owns goes to that process; everything else is parsed here."""

    def __init__(self, bot: Host, shards: Shards) -> None:
        self.bot, self.shards = bot, shards
        self.routes: ClickRoutes | None = None
        state = bot._connection
        self._parse: Callable[[Any], None] = state.parse_interaction_create
        # The gateway calls ``parsers``; the instance attribute catches direct calls too.
        state.parse_interaction_create = self.parse  # type: ignore[method-assign]
        state.parsers["INTERACTION_CREATE"] = self.parse
        self._tasks: set[asyncio.Task[None]] = set()

    def parse(self, data: Any) -> None:
        table_id = self._foreign_table(data)
        if table_id is None:
            self._parse(data)
            return
        task = asyncio.get_running_loop().create_task(self._route(table_id, data),
                                                      name=f"belote-route-{data.get('id')}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def taken(self, data: dict[str, Any]) -> None:
        """A click another process carried here: ours, so parsed as it arrived."""
        self._parse(data)

    def _foreign_table(self, data: Any) -> int | None:
        """The table of a direct-message click that may live in another process."""
        if data.get("guild_id") is not None or data.get("type") not in (_COMPONENT, _MODAL):
            return None
        table_id = table_of(str((data.get("data") or {}).get("custom_id", "")))
        service = getattr(self.bot, "service", None)
        if table_id is None or service is None or table_id in service.live:
            return None
        return table_id

    async def _route(self, table_id: int, data: dict[str, Any]) -> None:
        db = self.bot.db
        row = await db.tables.get(table_id) if db is not None else None
        if row is None or self.shards.owns(row.guild_id) or self.routes is None:
            self._parse(data)  # ours (a table over, say) or none: answered here
            return
        shard = self.shards.shard_of(row.guild_id)
        if await self.routes.send(shard, table_id, data):
            return
        log.warning("a click for table %s found no process running shard %s", table_id, shard)
        interaction: discord.Interaction[Any] = discord.Interaction(
            data=data, state=self.bot._connection)  # type: ignore[arg-type]
        with answering(interaction, "that the table's process is away",
                       f"a click for table {table_id}"):
            await tell(interaction, words(member_language(interaction))("shards.owner_away"))

    async def close(self) -> None:
        for task in list(self._tasks):
            await asyncio.gather(task, return_exceptions=True)
