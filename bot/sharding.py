"""Discord's shards, and the clicks one process carries to another.

A server belongs to shard ``(guild_id >> 22) % shard_count`` (Discord's rule), and a table to
the process that runs its server's shard: only that process holds it in memory, so its timers,
computer turns, sweeping and tournament run there, once. Direct messages arrive at shard 0:
a click on a hand whose table lives elsewhere is carried to its owner (db/routing.py), which
answers it with the interaction's token, as it answers its own; the user sees no difference.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from i18n import words

from .controls.base import MAX_ID
from .errors import tell
from .languages import member_language
from .settings import Settings
from .undelivered import answering

if TYPE_CHECKING:
    from db.routing import ClickRoutes

    from .bot import BeloteBot

log = logging.getLogger(__name__)

# The table a control's custom_id names (bot/controls/base.py: ``bt:<kind>:<table>...``).
_TABLE_CONTROL = re.compile(r"b[ts]:[a-z]+:([0-9]{1,19})(?::|$)")
_COMPONENT, _MODAL = 3, 5


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards in all (``count``) and those this process runs (``ids``)."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    @classmethod
    def of(cls, settings: Settings) -> Shards:
        count = settings.shard_count or 1
        return cls(count, settings.shards or tuple(range(count)))

    @property
    def whole(self) -> bool:
        """Every shard runs here: nothing is routed, nothing shared."""
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int | None) -> int:
        """The shard of a server; direct messages (no server) are shard 0's."""
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids

    def budget(self, limit: int) -> int:
        """This process's part of the bot's global request limit (Discord counts it per bot,
        not per process): its share of the shards, at least one call."""
        return max(1, limit * len(self.ids) // self.count)


def click_key(settings: Settings) -> bytes:
    """The key that signs the clicks carried between this bot's processes (db/routing.py):
    derived from ``CLICK_SECRET`` when it is set, else from the bot's token, which every
    process of the bot has and the database never holds."""
    secret = settings.click_secret or settings.token or ""
    return hmac.new(b"belote routed clicks", secret.encode(), hashlib.sha256).digest()


def table_of(custom_id: str) -> int | None:
    """The table a control of ours names, or None."""
    found = _TABLE_CONTROL.match(custom_id)
    if found is None or int(found.group(1)) > MAX_ID:  # past the database's integers: forged
        return None
    return int(found.group(1))


class ClickRouter:
    """Installed in a process that does not run every shard: a direct-message click for a
    table another process owns goes to that process; everything else is parsed here."""

    def __init__(self, bot: BeloteBot, shards: Shards) -> None:
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
