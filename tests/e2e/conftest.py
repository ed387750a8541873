"""End-to-end fixtures: the fake Discord (tests/fakediscord), the no-network guard, and a fresh
database path for the bot."""

from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import _no_network, fake_discord, instant_discord_retries

from .table_helpers import World, make_world

__all__ = ["_no_network", "database_path", "fake_discord", "instant_discord_retries", "world"]


@pytest.fixture(autouse=True)
def _render_in_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot ends its render workers when it closes (bot/images.py), and a worker takes a
    second or more to start: the bots here, one or two per test, render in threads.
    tests/bot/test_images.py runs every kind of image through the worker processes."""
    monkeypatch.setenv("BELOTE_RENDER_THREADS", "1")


@pytest.fixture(autouse=True)
def _unpaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's Outbox paces table edits on real seconds (5 per 5 s in a channel); tests that
    play whole matches in a moment would wait through them. tests/e2e/test_pacing.py puts the
    real pace back, on an injected clock. The same for the global budget (48 calls a second):
    tests/bot/test_budget.py tests it on its own clock."""
    import bot.outbox
    from bot.budget import Budget
    from bot.pacing import Pacer
    monkeypatch.setattr(bot.outbox, "Pacer", lambda: Pacer(10**9, 5.0))
    monkeypatch.setattr(bot.outbox, "Budget",
                        lambda **clocks: Budget(10**9, 1.0, **clocks))


@pytest.fixture(autouse=True)
def _unhurried_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer is deferred only when a test asks for it (it sets ``answers.BUDGET`` itself):
    how busy the machine is must not change what a test sees (see fake_discord)."""
    from bot import answers
    monkeypatch.setattr(answers, "BUDGET", 50.0)


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    """Where the bot under test keeps its SQLite database (a restarted bot reuses it)."""
    return tmp_path / "belote.sqlite3"


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path) -> World:
    """The usual server: #belote, four members (ana, bo, cy, dee), the bot started."""
    return await make_world(fake_discord, database_path)
