"""Whether this process can play now, for ``/readyz``: logged in, every shard it runs connected
to the gateway, the database answering, the render pools able to draw, Discord not down."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord

from . import images

if TYPE_CHECKING:
    from .host import Host

# A database that has not answered a trivial query within this long is not answering.
DATABASE_WAIT = 2.0


class Health:
    """Follows the gateway connection of each shard (discord.py's connect, resume and
    disconnect events) and says what stands in the way of play."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._connected: set[int] = set()
        if isinstance(bot, discord.AutoShardedClient):
            bot.add_listener(self._shard_up, "on_shard_connect")
            bot.add_listener(self._shard_up, "on_shard_resumed")
            bot.add_listener(self._shard_down, "on_shard_disconnect")
        else:
            bot.add_listener(self._up, "on_connect")
            bot.add_listener(self._up, "on_resumed")
            bot.add_listener(self._down, "on_disconnect")

    def connected(self, shard_id: int) -> bool:
        return shard_id in self._connected

    async def _shard_up(self, shard_id: int) -> None:
        self._connected.add(shard_id)

    async def _shard_down(self, shard_id: int) -> None:
        self._connected.discard(shard_id)

    async def _up(self) -> None:
        self._connected.update(self.bot.sharding.ids)

    async def _down(self) -> None:
        self._connected.clear()

    async def problems(self) -> list[str]:
        bot = self.bot
        wrong: list[str] = []
        if bot.user is None or bot.is_closed():
            wrong.append("not logged in to Discord")
        down = [str(s) for s in bot.sharding.ids if s not in self._connected]
        if down:
            wrong.append(f"shard(s) {', '.join(down)} not connected to the gateway")
        if bot.delivery.jobs.down:
            wrong.append("Discord is failing: messages are held until it answers")
        wrong += await self._database()
        for pool in (images.HANDS, images.OTHERS):
            if not pool.threads_only and pool.failures > 1 and not pool.in_processes:
                wrong.append(f"render pool {pool.name} has no worker (images in threads)")
        return wrong

    async def _database(self) -> list[str]:
        db = self.bot.db
        if db is None:
            return ["the database is not open"]
        try:
            await asyncio.wait_for(db.ping(), DATABASE_WAIT)
        except TimeoutError:
            return [f"the database did not answer within {DATABASE_WAIT:.0f} s"]
        except Exception as e:
            return [f"the database failed: {type(e).__name__}"]
        return []
