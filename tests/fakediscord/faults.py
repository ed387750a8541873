"""Failures injected into the fake Discord: one 5xx answer on a given request, a dropped
connection, an outage window in which every request fails. Off unless a test asks.

A rule matches a request by method and route template (a regex, fully matched, or the exact
template); ``times`` requests fail, then it is spent. ``drop=True`` closes the connection with
no answer (the bot sees aiohttp's ServerDisconnectedError); ``after=True`` does the request
first and drops only the answer (the change happened, the bot cannot know). An outage fails
everything except the routes it spares (by default none) until ``end_outage``; tests move
through it with their own clock, never by sleeping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass
class Fault:
    method: str | None
    route: str | None
    status: int = 503
    times: int = 1
    drop: bool = False
    after: bool = False
    hits: int = 0
    path: str | None = None  # a regex on the concrete path (one message, one channel)

    def matches(self, method: str, template: str, path: str) -> bool:
        if self.method is not None and self.method.upper() != method:
            return False
        if self.path is not None and re.fullmatch(self.path, path) is None:
            return False
        return self.route is None or self.route == template or \
            re.fullmatch(self.route, template) is not None


@dataclass
class Outage:
    status: int = 503
    drop: bool = False
    spare: tuple[str, ...] = ()  # route templates (regexes) that still answer
    failed: int = 0


class Faults:
    """Kept by FakeDiscord (``fake.faults``); consulted under its lock for every request."""

    def __init__(self) -> None:
        self.rules: list[Fault] = []
        self.outage: Outage | None = None

    def fail(self, method: str | None = None, route: str | None = None, *, status: int = 503,
             times: int = 1, drop: bool = False, after: bool = False,
             path: str | None = None) -> Fault:
        """The next ``times`` matching requests fail with ``status`` (or are dropped)."""
        fault = Fault(method, route, status, times, drop, after, path=path)
        self.rules.append(fault)
        return fault

    def start_outage(self, *, status: int = 503, drop: bool = False,
                     spare: tuple[str, ...] = ()) -> Outage:
        self.outage = Outage(status, drop, spare)
        return self.outage

    def end_outage(self) -> Outage | None:
        outage, self.outage = self.outage, None
        return outage

    def take(self, method: str, template: str, path: str) -> Fault | None:
        """The failure this request meets, if any (and count it)."""
        outage = self.outage
        if outage is not None and not any(
                re.fullmatch(spared, template) or spared == template for spared in outage.spare):
            outage.failed += 1
            return Fault(None, None, outage.status, 1, outage.drop, False, 1)
        for fault in self.rules:
            if fault.hits < fault.times and fault.matches(method, template, path):
                fault.hits += 1
                return fault
        return None

    @property
    def pending(self) -> list[Fault]:
        """Rules that have not failed as many requests as they were set for."""
        return [f for f in self.rules if f.hits < f.times]
