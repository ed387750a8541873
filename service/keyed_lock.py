"""One asyncio lock per key, forgotten as soon as nobody holds it or waits for it.

A plain ``dict[key, asyncio.Lock]`` keeps a lock for every key it was ever asked about (every
server that ever seated someone, every tournament id ever clicked, forged ones included): it
only grows. Here a key's lock lives while at least one task holds it or waits on it; the last
one out removes it, so the map holds the keys in use right now and nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # tasks holding the lock or waiting for it


class KeyedLock(Generic[K]):
    """``async with locks(key):`` runs one holder of ``key`` at a time; different keys never
    wait for each other."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[K, _Entry] = {}

    def __call__(self, key: K) -> AbstractAsyncContextManager[None]:
        return self._hold(key)

    @asynccontextmanager
    async def _hold(self, key: K) -> AsyncIterator[None]:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            # A waiter cancelled here still leaves through ``finally``: it is counted out.
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._entries[key]

    def locked(self, key: K) -> bool:
        entry = self._entries.get(key)
        return entry is not None and entry.lock.locked()

    def __len__(self) -> int:
        """The keys held or waited on now."""
        return len(self._entries)
