"""Suite-wide settings: nothing in a test run depends on chance.

- Hypothesis draws its examples from a hash of each test (``derandomize``), without the local
  example database, so a property test tests the same examples on every run and machine.
- Every table service the tests make without a seed of its own (a bot made by ``create_bot``
  without ``table_seed``, a ``TableService(db)``) draws its tables' seeds and first dealers from
  a fixed seed instead of the system's randomness.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import settings

from bot import service

settings.register_profile("deterministic", derandomize=True, database=None, print_blob=True)
settings.load_profile("deterministic")

# The seed of the tables of a service the tests make without one.
TEST_TABLE_SEED = 20240601


@pytest.fixture(autouse=True)
def _seeded_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(service, "system_rng", lambda: random.Random(TEST_TABLE_SEED),
                        raising=False)
    yield
