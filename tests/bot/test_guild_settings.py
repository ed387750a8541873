"""Server settings: the registered defaults, checks that refuse with a clear message and write
nothing, storage of only the changed values, the cache, and values stored by an older bot."""

from __future__ import annotations

import pytest

from db import Database
from i18n import words
from service.guild_settings import DEFAULTS, KEYS, GuildSettingsStore, SettingRefused, label, show

GUILD = 100


def test_every_setting_has_a_label_and_shows_its_default() -> None:
    w = words()
    assert set(KEYS) >= {"channels", "variant", "target", "turn_timer", "computer_level",
                         "lobby_minutes", "idle_minutes", "away_turns", "max_tables_channel",
                         "max_tables_server", "moderator_role", "log_channel", "language"}
    for key in KEYS:
        assert label(key, w) and show(key, getattr(DEFAULTS, key), w)
    assert show("channels", (), w) == "any channel"
    assert show("lobby_minutes", 30, w) == "30 minutes"
    assert show("turn_timer", 0, w) == "off"


async def test_defaults_until_changed_and_only_changes_are_stored(db: Database) -> None:
    store = GuildSettingsStore(db)
    assert await store.get(GUILD) == DEFAULTS
    after, changes = await store.change(GUILD, {"variant": "coinche", "target": 1000,
                                                "channels": [7, 8, 7]})
    assert (after.variant, after.target, after.channels) == ("coinche", 1000, (7, 8))
    assert {c.key for c in changes} == {"variant", "target", "channels"}
    assert await db.settings.load(GUILD) == {"variant": "coinche", "target": 1000,
                                                       "channels": [7, 8]}
    # A new store (a restarted bot) reads the same; a reset goes back to the default.
    again = GuildSettingsStore(db)
    assert (await again.get(GUILD)).variant == "coinche"
    after, changes = await again.change(GUILD, {}, ["variant"])
    assert after.variant == DEFAULTS.variant and [c.key for c in changes] == ["variant"]
    assert await store.get(GUILD + 1) == DEFAULTS  # another server is untouched


@pytest.mark.parametrize(("key", "value", "why"), [
    ("target", 0, "Default target: it goes from 1 to 100000, not 0"),
    ("turn_timer", 5, "Default turn timer: it is 0 (off) or from 15 to 600, not 5"),
    ("computer_level", "genius", "Default computer level: it is one of"),
    ("variant", "poker", "Default variant: it is one of classic, coinche, bulgarian"),
    ("lobby_minutes", 0, "Lobby time limit: it goes from 1 to 1440, not 0"),
    ("idle_minutes", 100000, "Idle time limit: it goes from 1 to 1440"),
    ("away_turns", 0, "Turns away before a takeover: it goes from 1 to 20"),
    ("max_tables_channel", 0, "Open tables per channel: it goes from 1 to 100"),
    ("max_tables_server", -1, "Open tables per server: it goes from 1 to 1000"),
    ("language", "xx", "Table language: it is one of auto, en, bg, fr, not xx"),
    ("moderator_role", "admins", "Moderator role: that is not a channel or a role"),
    ("log_channel", -5, "Log channel: that is not a channel or a role"),
    ("channels", list(range(1, 40)), "Channels for tables: at most 25 channels"),
])
async def test_invalid_values_are_refused_and_nothing_is_written(
        db: Database, key: str, value: object, why: str) -> None:
    store = GuildSettingsStore(db)
    with pytest.raises(SettingRefused) as refused:
        # A valid change given with the invalid one is not written either.
        await store.change(GUILD, {"away_turns": 5, key: value})
    assert str(refused.value).startswith("Nothing was changed: " + why), str(refused.value)
    assert await db.settings.load(GUILD) == {}
    assert await store.get(GUILD) == DEFAULTS


async def test_a_stored_value_no_longer_valid_gives_the_default(db: Database) -> None:
    await db.settings.change(GUILD, {"language": "tlh", "away_turns": 4,
                                               "gone_setting": True})
    settings = await GuildSettingsStore(db).get(GUILD)
    assert settings.language == DEFAULTS.language and settings.away_turns == 4


async def test_audit_entries_are_kept_newest_first(db: Database) -> None:
    repo = db.audit
    first = await repo.add(GUILD, "config", actor_id=5, details={"changes": {"target": [1, 2]}})
    second = await repo.add(GUILD, "closed", actor_id=None, table_id=9,
                            details={"reason": "abandoned"})
    await repo.add(GUILD + 1, "end", actor_id=6, table_id=3)
    assert [e.id for e in await repo.recent(GUILD)] == [second.id, first.id]
    assert (await repo.recent(GUILD))[0].details == {"reason": "abandoned"}
