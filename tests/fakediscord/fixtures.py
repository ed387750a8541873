"""pytest fixtures shared by tests/e2e and tests/fakediscord_selftest (via their conftest)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import discord.webhook.async_
import pytest

from .netguard import no_network
from .server import FakeDiscord


class _BotErrors(logging.Handler):
    """Keeps the errors discord.py and asyncio log when a bot's handler raised: on Discord that
    is a silent "This interaction failed", so a test should fail loudly instead."""

    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record)


@pytest.fixture(autouse=True)
def _no_network() -> Iterator[None]:
    """Every test here runs with the network beyond loopback switched off, and fails if tried."""
    with no_network() as attempts:
        yield
    assert not attempts, f"network access was attempted: {attempts}"


UNHURRIED_DEADLINE = 60.0


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started, installed fake Discord; connected bots are closed and the server stopped after.
    The test fails if the bot used a route the fake does not know, or if an exception escaped
    one of its handlers (fake.bot_errors; a test expecting one asserts on it and clears it)."""
    # Discord forgets an interaction unanswered after 3 s, and the bot defers an answer not
    # ready within 2 s (bot/answers.py). Both are real seconds: on a loaded machine an ordinary
    # click would be deferred, or lost, and a test would see something else than on a quiet one.
    # Here both are far away; tests/e2e/test_slow_answers.py and test_interaction_errors.py
    # bring them back on purpose to test those paths.
    fake = FakeDiscord(callback_deadline=UNHURRIED_DEADLINE).start()
    fake.install()
    handler = _BotErrors(fake.bot_errors)
    watched = [logging.getLogger("discord"), logging.getLogger("asyncio")]
    for logger in watched:
        logger.addHandler(handler)
    try:
        yield fake
    finally:
        await fake.close_bots()
        fake.close()
        for logger in watched:
            logger.removeHandler(handler)
    assert not fake.unhandled, f"the bot called routes the fake Discord lacks: {fake.unhandled}"
    assert not fake.crashes, f"the fake Discord itself failed: {fake.crashes}"
    escaped = [
        f"{r.name}: {r.getMessage()} {r.exc_info[1]!r}" for r in fake.bot_errors if r.exc_info
    ]
    escaped += [f"{r.name}: {r.getMessage()}" for r in fake.bot_errors if not r.exc_info]
    assert not escaped, f"exceptions escaped the bot's handlers: {escaped}"


class _InstantAsyncio:
    """asyncio as discord.py's HTTP modules see it, but with sleeps that do not wait."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        await asyncio.sleep(0)
        return result


@pytest.fixture
def instant_discord_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's own retries (of 5xx answers and connection resets) run at once instead of
    after its real seconds of waiting, so tests of Discord failures sleep through none."""
    proxy = _InstantAsyncio()
    monkeypatch.setattr(discord.http, "asyncio", proxy)
    monkeypatch.setattr(discord.webhook.async_, "asyncio", proxy)
