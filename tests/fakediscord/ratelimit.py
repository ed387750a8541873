"""Discord's rate limits, optional (FakeDiscord.rate_limits = True), for benchmarks.

Per-route buckets keyed by the major parameter (channel, guild, webhook) and one global bucket,
with the X-RateLimit-* headers discord.py reads to pace itself, and 429 answers when it does not.
Interaction callbacks and webhook calls are outside the global limit, as on Discord.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

# (method, route) -> (requests, per seconds); the figures Discord is known to use.
ROUTE_LIMITS: dict[tuple[str, str], tuple[int, float]] = {
    ("POST", "/channels/{channel_id}/messages"): (5, 5.0),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): (5, 5.0),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): (5, 1.0),
    ("POST", "/channels/{channel_id}/threads"): (5, 5.0),
    ("POST", "/users/@me/channels"): (5, 5.0),
    ("PUT", "/applications/{app_id}/commands"): (2, 60.0),
}
DEFAULT_LIMIT = (50, 1.0)
GLOBAL_LIMIT = (50, 1.0)
MAJOR_PARAMETERS = ("channel_id", "guild_id", "app_id", "token")


@dataclass
class Bucket:
    limit: int
    per: float
    count: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> float:
        """0.0 if a request may go now (and counts it), else the seconds to wait."""
        if now >= self.reset_at:
            self.count, self.reset_at = 0, now + self.per
        if self.count >= self.limit:
            return self.reset_at - now
        self.count += 1
        return 0.0

    def headers(self, now: float, name: str) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - self.count)),
            "X-RateLimit-Reset": f"{time.time() + max(0.0, self.reset_at - now):.3f}",
            "X-RateLimit-Reset-After": f"{max(0.0, self.reset_at - now):.3f}",
            "X-RateLimit-Bucket": name,
        }


class RateLimiter:
    def __init__(self) -> None:
        # Per instance, so a test may shorten a window without touching others.
        self.route_limits = dict(ROUTE_LIMITS)
        self._buckets: dict[tuple[str, str, str], Bucket] = {}
        self._global = Bucket(*GLOBAL_LIMIT)

    def check(
        self, method: str, route: str, params: dict[str, str], counts_globally: bool,
        now: float | None = None,
    ) -> tuple[float, bool, dict[str, str]]:
        """(seconds to retry after or 0, whether the global limit was hit, headers to send);
        ``now``: when the request arrived (time.monotonic), by default now."""
        now = time.monotonic() if now is None else now
        limit, per = self.route_limits.get((method, route), DEFAULT_LIMIT)
        major = next((params[p] for p in MAJOR_PARAMETERS if p in params), "")
        name = f"{method}:{route}"
        bucket = self._buckets.setdefault((name, major, ""), Bucket(limit, per))
        if counts_globally:
            wait = self._global.take(now)
            if wait:
                return wait, True, {}
        wait = bucket.take(now)
        return wait, False, bucket.headers(now, name)
