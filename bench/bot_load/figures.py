"""Small figures of bench_bot: percentiles, the busiest second, the global budget in words."""

from __future__ import annotations

VARIANTS = ("classic", "coinche", "bulgarian")  # a table's variant: by its number


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def busiest(times: list[float], window: float = 1.0) -> int:
    """The most of ``times`` in any ``window`` seconds (a rolling window)."""
    times, most, first = sorted(times), 0, 0
    for last, t in enumerate(times):
        while times[first] <= t - window:
            first += 1
        most = max(most, last - first + 1)
    return most


def budget_limit() -> str:
    from bot import budget
    spread = getattr(budget, "SPREAD", 1)  # an older build, measured beside this one: none
    return f"{budget.LIMIT} in {budget.PER:g} s, {-(-budget.LIMIT // spread)} in " \
        f"{budget.PER / spread:g} s"
