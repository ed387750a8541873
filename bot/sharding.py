"""Discord's shards: which process owns a server's tables, and the key that signs the clicks one
process carries to another (bot/click_router.py carries them).

A server belongs to shard ``(guild_id >> 22) % shard_count`` (Discord's rule), and a table to
the process that runs its server's shard: only that process holds it in memory, so its timers,
computer turns, sweeping and tournament run there, once. Direct messages arrive at shard 0:
a click on a hand whose table lives elsewhere is carried to its owner (db/routing.py), which
answers it with the interaction's token, as it answers its own; the user sees no difference.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from db.queries import MAX_ID

from .settings import Settings

# The table a control's custom_id names (bot/controls/base.py: ``bt:<kind>:<table>...``).
_TABLE_CONTROL = re.compile(r"b[ts]:[a-z]+:([0-9]{1,19})(?::|$)")


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
