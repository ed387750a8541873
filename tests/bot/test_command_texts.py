"""Every command text (name, description, option, choice) in every language is within Discord's
limits; the names people type are unchanged; the sync hash sees a changed translation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.bot import BeloteBot, create_bot
from bot.translator import CatalogueTranslator
from cogs.admin import Admin
from cogs.belote import Belote
from cogs.stats import Stats
from db import Database
from service.audit import AuditLog

# Discord's rule for command and option names (CHAT_INPUT), and its length limits.
NAME = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
DESCRIPTION_MAX = CHOICE_MAX = 100


async def _bot() -> BeloteBot:
    bot = create_bot(":memory:")
    await bot.tree.set_translator(CatalogueTranslator())
    await bot.add_cog(Belote(bot))
    bot.audit = AuditLog(await Database.open(":memory:"))  # the admin cog listens to it
    await bot.add_cog(Admin(bot))  # these two join the /belote group
    await bot.add_cog(Stats(bot))
    return bot


async def _payloads(bot: BeloteBot) -> list[dict[str, Any]]:
    translator = bot.tree.translator
    assert translator is not None
    return [await c.get_translated_payload(bot.tree, translator)
            for c in bot.tree.get_commands()]


def _texts(item: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, text) for a command or option and everything under it, in every language."""
    for name in (item["name"], *item.get("name_localizations", {}).values()):
        yield "name", name
    if "description" in item:
        for text in (item["description"], *item.get("description_localizations", {}).values()):
            yield "description", text
    for choice in item.get("choices", []):
        for text in (choice["name"], *choice.get("name_localizations", {}).values()):
            yield "choice", text
    for option in item.get("options", []):
        yield from _texts(option)


async def test_every_command_text_in_every_language_is_within_discords_limits() -> None:
    bot = await _bot()
    try:
        found = [pair for payload in await _payloads(bot) for pair in _texts(payload)]
    finally:
        await bot.close()
    assert len(found) > 40
    for kind, value in found:
        if kind == "name":
            assert NAME.match(value) and value == value.lower(), value
        else:
            assert 1 <= len(value) <= (DESCRIPTION_MAX if kind == "description" else CHOICE_MAX), \
                value


async def test_the_names_people_type_are_unchanged() -> None:
    bot = await _bot()
    try:
        (group,) = await _payloads(bot)
    finally:
        await bot.close()
    assert group["name"] == "belote" and group["description"] == "Play Belote"
    names = {c["name"]: [o["name"] for o in c.get("options", [])] for c in group["options"]}
    assert names == {
        "new": ["variant", "target", "private", "announcements", "must_undertrump", "shuffle",
                "computers", "level", "turn_timer", "language", "stake"],
        "invite": ["player"], "hand": [], "leave": [], "show": [], "rules": ["variant"],
        "end": ["table"], "kick": ["player"],
        # the moderators' commands (cogs/admin.py)
        "config": ["add_channel", "remove_channel", "variant", "target", "turn_timer", "level",
                   "lobby_minutes", "idle_minutes", "away_turns", "autoplay", "analysis",
                   "max_tables_channel", "max_tables_server", "moderator_role", "log_channel",
                   "language",
                   "tournament_no_show", "tournament_prize_split", "starting_credits",
                "daily_bonus", "season_length", "season_role", "announce_channel", "reset",
                "renew_web_link"],
        "help": [], "tables": ["end"], "check": [],
        # the stats commands (cogs/stats.py); leaderboard keeps its variant option
        "leaderboard": ["variant", "period", "pairs", "season"], "stats": ["member", "variant"],
        "history": ["member"], "replay": ["match"]}
    new = next(c for c in group["options"] if c["name"] == "new")
    timer = next(o for o in new["options"] if o["name"] == "turn_timer")
    assert [c["name"] for c in timer["choices"]] == ["off", "30 s", "1 min", "2 min", "5 min"]


async def test_a_changed_translation_changes_the_sync_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await _bot()
    try:
        before = await bot.command_hash(None)
        assert await bot.command_hash(None) == before  # stable

        async def french(self: CatalogueTranslator, string: app_commands.locale_str,
                         locale: discord.Locale, context: object) -> str | None:
            return "partie" if locale is discord.Locale.french and \
                string.extras.get("id") == "commands.new.description" else None

        monkeypatch.setattr(CatalogueTranslator, "translate", french)
        assert await bot.command_hash(None) != before
    finally:
        await bot.close()
