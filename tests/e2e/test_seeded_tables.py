"""The bot's TABLE_SEED setting reaches its tables: the same seed deals the same tables."""

from __future__ import annotations

import random
from pathlib import Path

from tests.fakediscord import FakeDiscord

from .table_helpers import make_world, open_table


async def test_the_table_seed_setting_decides_the_deck_and_the_first_dealer(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, table_seed=5)
    table_id, _ = await open_table(w, w.members[0], variant="classic")
    row = w.bot.service.live[table_id].row
    rng = random.Random(5)
    assert (row.seed, row.first_dealer) == (rng.getrandbits(62), rng.randrange(4))
