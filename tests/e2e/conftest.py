"""End-to-end fixtures: the fake Discord (tests/fakediscord), the no-network guard, and a fresh
database path for the bot."""

from pathlib import Path

import pytest

from tests.fakediscord.fixtures import _no_network, fake_discord

__all__ = ["_no_network", "database_path", "fake_discord"]


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    """Where the bot under test keeps its SQLite database (a restarted bot reuses it)."""
    return tmp_path / "belote.sqlite3"
