"""A bounded least-recently-used cache, for what the match page builds (web/site.py).

A finished match never changes, except its analysis arriving and the server's language or
token: the page built for one (match, server, token, language, analysis state) stays right, and
each of those is in its key, so an entry is never stale, only dropped when the cache is full.
Bounded by the sizes its entries are given (a page's characters, say), oldest used first out;
an entry larger than the whole cache is not kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class LRU(Generic[V]):
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.size = 0
        self.hits = self.misses = 0  # for the tests and the benchmark
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> V | None:
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return entry[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        old = self._entries.pop(key, None)
        if old is not None:
            self.size -= old[1]
        if size > self.capacity:
            return
        self._entries[key] = (value, size)
        self.size += size
        while self.size > self.capacity:
            _, (_, dropped) = self._entries.popitem(last=False)
            self.size -= dropped
