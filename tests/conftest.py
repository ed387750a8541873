"""Suite-wide settings: nothing in a test run depends on chance.

- Hypothesis draws its examples from a hash of each test (``derandomize``), without the local
  example database, so a property test tests the same examples on every run and machine.
- Every table service the tests make without a seed of its own (a bot made by ``create_bot``
  without ``table_seed``, a ``TableService(db)``) draws its tables' seeds and first dealers from
  a fixed seed instead of the system's randomness.
- A test that asks for ``table_clock`` runs every table service it makes (a restarted bot's
  too) on that FakeClock: turn timers and the sweeper's deadlines fall due when the test moves
  it forward, never after real seconds.
- The bot's render workers are started, and have each made an image, before the first test:
  their start (an interpreter, Pillow, the palette) can take seconds on a busy machine, and
  paid on a test's first click it would miss Discord's 3 s answer deadline by chance.
- A bot records what its messages show without its pause between writes (bot/shown.py: PAUSE):
  the harness waits for every task a click starts, the writer's pause included.
  tests/bot/test_shown.py tests the pause on a clock of its own.
- ``browser`` (tests/web/browser.py) is a real browser, headless Chromium, for the web pages.
- ``database_target`` runs a test on each backend, SQLite and PostgreSQL (a throwaway server,
  tests/db/pgserver.py, started once per run; a fresh database per test).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from bench.bench_render import mid_deal_view
from bot import images, shown
from bot import settings as bot_settings
from rendering import render_hand, render_table
from service.tables import clock as table_clocks
from service.tables import state as table_state
from service.tables.clock import FakeClock
from tests.db import pgserver
from tests.web.browser import browser  # noqa: F401 (a fixture: a real browser)

settings.register_profile("deterministic", derandomize=True, database=None, print_blob=True)
settings.load_profile("deterministic")

# The seed of the tables of a service the tests make without one.
TEST_TABLE_SEED = 20240601


@pytest.fixture(autouse=True)
def _seeded_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(table_state, "system_rng", lambda: random.Random(TEST_TABLE_SEED))
    yield


class _Watched(random.Random):
    """A generator made where no seed was given: every draw from it is noted."""

    def __init__(self, where: str, draws: list[str]) -> None:
        super().__init__()
        self.where, self.draws = where, draws

    def random(self) -> float:
        self.draws.append(self.where)
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.draws.append(self.where)
        return super().getrandbits(k)


@pytest.fixture(autouse=True)
def _no_unseeded_draws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Outbox's retry jitter and a tournament's draws come from the bot's generator
    (seeded by TABLE_SEED, or the seeded one above): a test that made one without a seed and
    drew from it depends on luck, and fails here."""
    from bot import outbox
    from service import tournaments

    draws: list[str] = []
    monkeypatch.setattr(outbox, "unseeded", lambda: _Watched("bot/outbox.py", draws))
    monkeypatch.setattr(tournaments, "unseeded", lambda: _Watched("service/tournaments.py", draws))
    yield
    assert not draws, f"unseeded draws: {sorted(set(draws))} ({len(draws)})"


@pytest.fixture(autouse=True)
def _shown_without_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shown, "PAUSE", 0.0)


@pytest.fixture(autouse=True)
def _forced_cards_clicked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots the tests make play no forced card by themselves (the tests click every card
    they mean); tests/e2e/test_forced.py turns it on, on its injected clock."""
    monkeypatch.setattr(bot_settings, "DEFAULT_FORCED_DELAY", None)


@pytest.fixture
def table_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    clock = FakeClock()
    monkeypatch.setattr(table_clocks, "system_clock", lambda: clock)
    return clock


@pytest.fixture(scope="session", autouse=True)
def _render_workers_ready() -> None:
    async def one_image_each() -> None:
        public, seat = mid_deal_view()
        await asyncio.gather(images.HANDS.run(render_hand, seat),
                             *(images.OTHERS.run(render_table, public)
                               for _ in range(images.OTHERS.size)))

    images.warm()
    asyncio.run(one_image_each())


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[pgserver.Server]:
    """One PostgreSQL server for the run. No server binaries: the test fails, saying why."""
    try:
        server = pgserver.start()
    except pgserver.NoPostgres as e:
        pytest.fail(str(e), pytrace=False)
    yield server
    server.stop()


_databases = itertools.count()


@pytest.fixture
def postgres_url(postgres_server: pgserver.Server) -> str:
    """The URL of a new, empty database on the test server."""
    import asyncpg

    name = f"belote_test_{next(_databases)}"

    async def create() -> None:
        conn = await asyncpg.connect(postgres_server.url)
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()

    asyncio.run(create())
    return postgres_server.database_url(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``Database.open`` opens, once per backend: a new SQLite file, or a new PostgreSQL
    database."""
    if request.param == "sqlite":
        return str(tmp_path / "belote.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url
