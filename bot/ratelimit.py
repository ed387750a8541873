"""Per-member limits: token buckets for opening tables, for slash commands and for clicks.

A bucket holds up to ``capacity`` tokens and gains one every ``every`` seconds; each use takes
one. A member may so burst a few commands, then goes on at the steady rate. The clock is
injected (Unix seconds, as Discord's timestamps want), so tests move it instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Rate:
    capacity: int  # uses in a burst
    every: float  # seconds for one more use


# Generous: a person playing never meets them; a script or a stuck key does.
TABLES: Final = Rate(capacity=5, every=60.0)
COMMANDS: Final = Rate(capacity=30, every=2.0)
# Clicks on buttons and selects (seat switching, My hand, pages...), per member: twelve at
# once, then two a second. A bid or a card the table accepted gives its click back
# (bot/controls/base.py), so a player who plays as fast as they can is never held up; a member
# clicking a button over and over is.
CLICKS: Final = Rate(capacity=12, every=0.5)


class TokenBucket:
    __slots__ = ("rate", "stamp", "tokens")

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate, self.tokens, self.stamp = rate, float(rate.capacity), now

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(float(self.rate.capacity),
                              self.tokens + (now - self.stamp) / self.rate.every)
        self.stamp = max(self.stamp, now)

    def take(self, now: float) -> float | None:
        """Take a token: None if taken, else the time (same clock) when one will be there."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return None
        return self.stamp + (1.0 - self.tokens) * self.rate.every

    def give_back(self) -> None:
        self.tokens = min(float(self.rate.capacity), self.tokens + 1.0)

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.rate.capacity


class RateLimiter:
    """One bucket per key (a member), made on first use; full buckets are forgotten now and
    then, so the map holds only the members who used it lately."""

    PRUNE_AT: Final = 10_000

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.time) -> None:
        self.rate, self.clock = rate, clock
        self._buckets: dict[Hashable, TokenBucket] = {}

    def take(self, key: Hashable) -> float | None:
        """None if ``key`` may go on now; else when it may (Unix time, from the clock)."""
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.PRUNE_AT:
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full(now)}
            bucket = self._buckets[key] = TokenBucket(self.rate, now)
        return bucket.take(now)

    def give_back(self, key: Hashable) -> None:
        """A use that did not happen after all (the request was refused for another reason)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.give_back()


class MemberLimits:
    """The bot's limits: opening tables and commands, per (server, member); clicks, per
    member (a hand's clicks come from a DM, in no server)."""

    def __init__(self, clock: Callable[[], float] = time.time, *, tables: Rate = TABLES,
                 commands: Rate = COMMANDS, clicks: Rate = CLICKS) -> None:
        self.tables = RateLimiter(tables, clock)
        self.commands = RateLimiter(commands, clock)
        self.clicks = RateLimiter(clicks, clock)

    def set_clock(self, clock: Callable[[], float]) -> None:
        self.tables.clock = self.commands.clock = self.clicks.clock = clock
