"""Pacing per rate-limit bucket: a message in a channel is edited at most as often as Discord
allows there, planned ahead rather than discovered by 429 answers.

Discord documents 5 message edits per 5 seconds per channel. The edits are also spread: at most
one in any second (a fifth of the window). Five at once and then none for five seconds would
leave the newest state of a busy table unshown for up to five seconds; one a second shows it
within a second, and a burst of changes merges into that one edit (the Outbox sends the newest
state). discord.py keeps the
X-RateLimit-Remaining/Reset of each bucket to itself (and only waits, after the fact, once it
reached 0), so the plan uses that documented figure; a 429 that comes anyway (a shared or
smaller bucket) holds the bucket for the Retry-After Discord gave.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable

EDITS_PER_CHANNEL = (5, 5.0)  # Discord's message edits in one channel: 5 per 5 seconds


def window_wait(sent: deque[float], now: float, limit: int, per: float, spread: int) -> float:
    """Seconds until one more send may go (0.0: now), ``sent`` holding the times of the sends
    so far, oldest first (those that left the window are dropped here): at most ``limit`` in
    any ``per`` seconds, and ``limit / spread`` (rounded up) in any ``per / spread`` seconds.
    The pacer's and the global budget's (bot/budget.py) rule alike."""
    while sent and sent[0] <= now - per:
        sent.popleft()
    if len(sent) >= limit:
        return sent[-limit] + per - now  # the oldest of the last ``limit`` leaves the window
    burst, short = -(-limit // spread), per / spread
    if len(sent) >= burst and sent[-burst] > now - short:
        return sent[-burst] + short - now
    return 0.0


class Pacer:
    """A sliding window of sends per bucket (a channel's message edits), and holds after 429s."""

    def __init__(self, limit: int = EDITS_PER_CHANNEL[0],
                 per: float = EDITS_PER_CHANNEL[1], spread: int | None = None) -> None:
        """At most ``limit`` sends in any ``per`` seconds, and ``limit / spread`` (rounded up)
        in any ``per / spread`` seconds; ``spread`` defaults to ``limit``: evenly spaced."""
        self.limit, self.per = limit, per
        self.spread = limit if spread is None else spread
        self._sent: dict[Hashable, deque[float]] = {}
        self._held: dict[Hashable, float] = {}  # bucket -> until when (a 429's Retry-After)

    def take(self, bucket: Hashable, now: float) -> float:
        """0.0 when a send may go now (and count it), else the seconds to wait first."""
        held = self._held.get(bucket)
        if held is not None:
            if now < held:
                return held - now
            del self._held[bucket]
        sent = self._sent.setdefault(bucket, deque())
        wait = window_wait(sent, now, self.limit, self.per, self.spread)
        if wait > 0.0:
            return wait
        sent.append(now)
        return 0.0

    def hold(self, bucket: Hashable, until: float) -> None:
        """Discord said 429: nothing goes in this bucket before ``until``."""
        self._held[bucket] = max(until, self._held.get(bucket, until))

    def forget(self, bucket: Hashable, now: float) -> None:
        """Drop a bucket with nothing in its window (keeps the maps small)."""
        sent = self._sent.get(bucket)
        if sent is not None and (not sent or sent[-1] <= now - self.per) and \
                bucket not in self._held:
            del self._sent[bucket]
