"""pytest fixtures shared by tests/e2e and tests/fakediscord_selftest (via their conftest)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from .netguard import no_network
from .server import FakeDiscord


@pytest.fixture(autouse=True)
def _no_network() -> Iterator[None]:
    """Every test here runs with the network beyond loopback switched off, and fails if tried."""
    with no_network() as attempts:
        yield
    assert not attempts, f"network access was attempted: {attempts}"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started, installed fake Discord; connected bots are closed and the server stopped after.
    The test fails if the bot used a route the fake does not know."""
    fake = FakeDiscord().start()
    fake.install()
    try:
        yield fake
    finally:
        await fake.close_bots()
        fake.close()
    assert not fake.unhandled, f"the bot called routes the fake Discord lacks: {fake.unhandled}"
