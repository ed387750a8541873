"""Per-member token buckets on an injected clock: a burst, then the steady rate, and when the
next use is allowed."""

from __future__ import annotations

from bot.ratelimit import Rate, RateLimiter


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_steady_rate() -> None:
    clock = Clock()
    limiter = RateLimiter(Rate(capacity=3, every=10.0), clock)
    assert [limiter.take("ana") for _ in range(3)] == [None, None, None]
    assert limiter.take("ana") == clock.now + 10.0  # when the next token is there
    assert limiter.take("bo") is None  # each member has their own bucket
    clock.now += 9.9
    assert limiter.take("ana") is not None
    clock.now += 0.1
    assert limiter.take("ana") is None
    assert limiter.take("ana") == clock.now + 10.0
    clock.now += 1000  # full again, never above the capacity
    assert [limiter.take("ana") for _ in range(4)][-1] is not None


def test_a_use_given_back_does_not_count() -> None:
    clock = Clock()
    limiter = RateLimiter(Rate(capacity=1, every=60.0), clock)
    assert limiter.take("ana") is None
    limiter.give_back("ana")
    assert limiter.take("ana") is None
    assert limiter.take("ana") is not None


def test_full_buckets_are_forgotten() -> None:
    clock = Clock()
    limiter = RateLimiter(Rate(capacity=2, every=1.0), clock)
    limiter.PRUNE_AT = 3  # type: ignore[misc]
    for name in ("a", "b", "c"):
        limiter.take(name)
    clock.now += 10
    limiter.take("d")
    assert set(limiter._buckets) == {"d"}
