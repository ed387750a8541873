"""Server administration through the fake Discord: /belote config (moderators by Manage Server
or by role, refused for others), every setting applied to a new table, invalid values refused,
the channels and maxima of /belote new, /belote end by host, moderator and refused, the audit log
and its log channel, the rate limits on an injected clock, /belote help and /belote tables."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import create_bot
from bot.ratelimit import MemberLimits, Rate
from cogs.admin import MODERATOR_COMMANDS
from i18n import words
from service.guild_settings import DEFAULTS
from tests.fakediscord import FakeDiscord

from .table_helpers import TABLE_SEED


@dataclass
class Server:
    fake: FakeDiscord
    bot: Any
    guild: Any
    channel: Any  # #belote
    games: Any  # #games
    modlog: Any  # #modlog
    role: Any  # "Belote mods": no permission of its own
    ana: Any
    bo: Any
    eve: Any  # has the "Belote mods" role
    mod: Any  # has Manage Server


class Clock:
    def __init__(self, now: float = 2_000_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def server(fake_discord: FakeDiscord, database_path: Path) -> Server:
    guild = fake_discord.add_guild("Cafe")
    channel = guild.add_text_channel("belote")
    games = guild.add_text_channel("games")
    modlog = guild.add_text_channel("modlog")
    role = guild.add_role("Belote mods", discord.Permissions.none())
    ana, bo = guild.add_member("ana"), guild.add_member("bo")
    eve = guild.add_member("eve", roles=[role])
    mod = guild.add_member("mod", manage_guild=True)
    bot = await fake_discord.start_bot(create_bot, database_path, computer_delay=0,
                                       table_seed=TABLE_SEED)
    return Server(fake_discord, bot, guild, channel, games, modlog, role, ana, bo, eve, mod)


async def config(s: Server, member: Any, **options: Any) -> Any:
    return await s.fake.slash(s.bot, member, s.channel, "belote config", **options)


async def new_table(s: Server, member: Any, channel: Any = None, **options: Any) -> Any:
    return await s.fake.slash(s.bot, member, channel or s.channel, "belote new", **options)


def table_of(s: Server, member: Any) -> Any:
    return s.bot.service.table_of(s.guild.id, member.id)


async def test_config_shows_the_settings_and_is_for_moderators_only(server: Server) -> None:
    s = server
    r = await config(s, s.mod)
    assert r.ephemeral and "Belote settings of this server" in r.text
    assert "Channels for tables: any channel" in r.text
    assert "Default variant: Classic Belote" in r.text
    assert "Moderator role: none (Manage Server only)" in r.text
    r = await config(s, s.ana, target=1000)
    assert r.ephemeral and "Only moderators can do that" in r.text
    assert await s.bot.guild_settings.get(s.guild.id) == DEFAULTS
    r = await config(s, s.eve)  # the role is not the moderator role yet
    assert "Only moderators can do that" in r.text
    r = await config(s, s.mod, moderator_role=s.role)
    assert "Settings changed" in r.text and f"Moderator role: <@&{s.role.id}> (changed)" in r.text
    r = await config(s, s.eve, away_turns=5)  # now a moderator by role
    assert "Turns away before a takeover: 5 (changed)" in r.text
    assert (await s.bot.guild_settings.get(s.guild.id)).away_turns == 5


async def test_every_setting_applies_to_a_new_table(server: Server) -> None:
    s = server
    r = await config(s, s.mod, variant="coinche", target=1000, turn_timer=60, level="hard",
                     lobby_minutes=10, idle_minutes=20, away_turns=2, max_tables_channel=5,
                     max_tables_server=9, log_channel=s.modlog, language="en")
    assert "Settings changed" in r.text, r.text
    for line in ("Default variant: Coinche (changed)", "Default target: 1000 (changed)",
                 "Default turn timer: 60 seconds (changed)",
                 "Default computer level: hard (changed)", "Lobby time limit: 10 minutes",
                 "Idle time limit: 20 minutes", "Open tables per channel: 5",
                 "Open tables per server: 9", f"Log channel: <#{s.modlog.id}> (changed)"):
        assert line in r.text, (line, r.text)
    settings = await s.bot.guild_settings.get(s.guild.id)
    assert (settings.lobby_minutes, settings.idle_minutes, settings.away_turns) == (10, 20, 2)
    # A restarted bot reads the same settings from the database.
    await s.fake.disconnect(s.bot)
    s.bot = await s.fake.start_bot(create_bot, s.bot.settings.database_path, computer_delay=0,
                                   table_seed=TABLE_SEED)
    assert await s.bot.guild_settings.get(s.guild.id) == settings
    r = await new_table(s, s.ana)  # no option: the server's defaults
    assert r.callback_type == 5, r.text
    live = table_of(s, s.ana)
    assert live.variant.value == "coinche" and live.options.target == 1000
    assert live.row.turn_timer == 60 and live.row.computer_level == "hard"
    # Options given win over the defaults.
    r = await new_table(s, s.bo, variant="bulgarian", target=151, turn_timer=0, level="easy")
    assert r.callback_type == 5, r.text
    live = table_of(s, s.bo)
    assert live.variant.value == "bulgarian" and live.options.target == 151
    assert live.row.turn_timer is None and live.row.computer_level == "easy"


@pytest.mark.parametrize(("options", "why"), [
    ({"target": 0}, "Default target: it goes from 1 to 100000, not 0"),
    ({"target": 100001}, "Default target: it goes from 1 to 100000, not 100001"),
    ({"lobby_minutes": 0}, "Lobby time limit: it goes from 1 to 1440, not 0"),
    ({"idle_minutes": 5000}, "Idle time limit: it goes from 1 to 1440, not 5000"),
    ({"away_turns": 99}, "Turns away before a takeover: it goes from 1 to 20, not 99"),
    ({"max_tables_channel": 0}, "Open tables per channel: it goes from 1 to 100, not 0"),
    ({"max_tables_server": 0}, "Open tables per server: it goes from 1 to 1000, not 0"),
])
async def test_invalid_values_are_refused_and_change_nothing(
        server: Server, options: dict[str, Any], why: str) -> None:
    s = server
    r = await config(s, s.mod, variant="coinche", **options)  # the valid one is not kept either
    assert r.ephemeral and r.text == f"Nothing was changed: {why}.", r.text
    assert await s.bot.guild_settings.get(s.guild.id) == DEFAULTS
    assert await s.bot.db.audit.recent(s.guild.id) == []


async def test_tables_open_only_in_the_allowed_channels(server: Server) -> None:
    s = server
    r = await config(s, s.mod, add_channel=s.games)
    assert f"Channels for tables: <#{s.games.id}> (changed)" in r.text
    r = await new_table(s, s.ana, variant="classic")
    assert r.ephemeral and "Tables cannot open in this channel" in r.text
    assert f"<#{s.games.id}>" in r.text and table_of(s, s.ana) is None
    r = await new_table(s, s.ana, s.games, variant="classic")
    assert r.callback_type == 5 and table_of(s, s.ana) is not None
    r = await config(s, s.mod, remove_channel=s.games)
    assert "Channels for tables: any channel (changed)" in r.text
    r = await new_table(s, s.bo, variant="classic")
    assert r.callback_type == 5 and table_of(s, s.bo) is not None


async def test_the_open_table_maxima(server: Server) -> None:
    s = server
    await config(s, s.mod, max_tables_channel=1, max_tables_server=2)
    assert (await new_table(s, s.ana)).callback_type == 5
    r = await new_table(s, s.bo)
    assert r.ephemeral and "This channel has its 1 open table already" in r.text
    assert table_of(s, s.bo) is None
    assert (await new_table(s, s.bo, s.games)).callback_type == 5
    r = await new_table(s, s.eve, s.modlog)
    assert r.ephemeral and "This server has 2 open tables already" in r.text
    # A reset puts the default back.
    await config(s, s.mod, reset="max_tables_server")
    assert (await new_table(s, s.eve, s.modlog)).callback_type == 5


async def test_end_by_host_moderator_and_refused_with_audit_and_log_channel(
        server: Server) -> None:
    s = server
    await config(s, s.mod, moderator_role=s.role, log_channel=s.modlog)
    await s.fake.settle()
    posted = [m.content for m in s.fake.messages(s.modlog)]
    # The change that sets the log channel is posted there too.
    assert len(posted) == 1 and f"<@{s.mod.id}> changed the Belote settings: " in posted[0]
    assert f"Log channel: none → <#{s.modlog.id}>" in posted[0]
    assert f"Moderator role: none (Manage Server only) → <@&{s.role.id}>" in posted[0]
    r = await new_table(s, s.ana)
    table_id = table_of(s, s.ana).id
    r = await s.fake.slash(s.bot, s.bo, s.channel, "belote end", table=table_id)
    assert r.ephemeral and "Only the host or a moderator" in r.text
    assert table_id in s.bot.service.live
    r = await s.fake.slash(s.bot, s.eve, s.channel, "belote end", table=table_id)  # by role
    assert f"Table #{table_id} was ended" in r.text and table_id not in s.bot.service.live
    await s.fake.settle()
    assert f"<@{s.eve.id}> ended Belote table #{table_id}." in \
        s.fake.messages(s.modlog)[-1].content
    # The host ending their own table is no moderator action.
    await new_table(s, s.ana)
    own = table_of(s, s.ana).id
    r = await s.fake.slash(s.bot, s.ana, s.channel, "belote end", table=own)
    assert f"Table #{own} was ended" in r.text
    entries = await s.bot.db.audit.recent(s.guild.id)
    assert [(e.action, e.actor_id, e.table_id) for e in entries][:1] == \
        [("end", s.eve.id, table_id)]
    assert [e.action for e in entries] == ["end", "config"]
    # An automatic closing (the sweeper's API) is written and posted too.
    await s.bot.audit.closed(s.guild.id, 99, "nobody played for 60 minutes")
    await s.fake.settle()
    assert s.fake.messages(s.modlog)[-1].content == \
        "Belote table #99 closed by itself: nobody played for 60 minutes."
    assert (await s.bot.db.audit.recent(s.guild.id))[0].actor_id is None


async def test_no_log_channel_no_post(server: Server) -> None:
    s = server
    await config(s, s.mod, away_turns=4)
    await s.fake.settle()
    assert s.fake.messages(s.modlog) == []
    assert [e.action for e in await s.bot.db.audit.recent(s.guild.id)] == ["config"]


async def test_rate_limits_say_when_to_try_again(server: Server) -> None:
    s = server
    clock = Clock()
    s.bot.limits = MemberLimits(clock, tables=Rate(capacity=1, every=60.0),
                                commands=Rate(capacity=4, every=10.0))
    assert (await new_table(s, s.ana)).callback_type == 5
    await s.fake.slash(s.bot, s.ana, s.channel, "belote leave")
    r = await new_table(s, s.ana)
    assert r.ephemeral and r.text == \
        f"You have opened many tables in a short time. You can open another " \
        f"<t:{int(clock.now) + 60}:R>."
    assert table_of(s, s.ana) is None
    r = await s.fake.slash(s.bot, s.ana, s.channel, "belote help")  # the 4th command
    assert "Belote" in r.text
    r = await s.fake.slash(s.bot, s.ana, s.channel, "belote help")
    assert r.ephemeral and r.text == \
        f"You are sending commands too fast. Try again <t:{int(clock.now) + 10}:R>."
    r = await s.fake.slash(s.bot, s.bo, s.channel, "belote help")  # another member is free
    assert "Your commands" in r.text
    clock.now += 60
    assert (await new_table(s, s.ana)).callback_type == 5


async def test_a_refused_table_does_not_count_against_the_limit(server: Server) -> None:
    s = server
    s.bot.limits = MemberLimits(Clock(), tables=Rate(capacity=1, every=600.0))
    await config(s, s.mod, add_channel=s.games)
    r = await new_table(s, s.ana)  # not allowed here: no table, no token taken
    assert "Tables cannot open in this channel" in r.text
    assert (await new_table(s, s.ana, s.games)).callback_type == 5


async def test_help_as_member_and_as_moderator(server: Server) -> None:
    s = server
    r = await s.fake.slash(s.bot, s.ana, s.channel, "belote help")
    assert r.ephemeral and "`/belote new`" in r.text and "/belote rules" in r.text
    assert "`/belote help`" in r.text and "`/belote end`" in r.text
    assert "/belote config" not in r.text and "Moderator commands" not in r.text
    assert "`/belote kick`" in r.text  # the host of a table may kick too
    assert "/belote tournament" not in r.text
    assert "`/belote wallet`" in r.text and "`/belote daily`" in r.text
    assert "Credits are virtual: they have no money value and cannot be bought." in r.text
    assert len(r.text) < 2000
    r = await s.fake.slash(s.bot, s.mod, s.channel, "belote help")
    assert "Moderator commands" in r.text and "`/belote config`" in r.text
    assert "`/belote tables`" in r.text and "`/belote tournament`" in r.text


@pytest.mark.parametrize("locale", ["en-US", "fr", "bg"])
async def test_help_fits_discords_limit_in_every_language_for_both_audiences(
        server: Server, locale: str) -> None:
    """Discord refuses a message over 2,000 characters: help comes as whole sections, as few
    private messages as fit, in the reader's language, everything said once."""
    s = server
    w = words(locale[:2])
    group = next(c for c in s.bot.tree.get_commands() if isinstance(c, app_commands.Group))
    for member, commands in ((s.ana, len(group.commands) - len(MODERATOR_COMMANDS)),
                             (s.mod, len(group.commands))):
        member.user.locale = locale
        r = await s.fake.slash(s.bot, member, s.channel, "belote help")
        assert r.messages and all(m.ephemeral for m in r.messages), r.text
        assert all(len(m.content) <= 2000 for m in r.messages), \
            [len(m.content) for m in r.messages]
        assert r.text.count(w("admin.help.what")) == 1
        assert r.text.count(w("credits.not_money")) == 1
        listed = [line for line in r.text.splitlines() if line.startswith("`/")]
        assert len(listed) == commands, listed
        assert len(set(listed)) == len(listed)


async def test_tables_lists_and_ends_for_moderators(server: Server) -> None:
    s = server
    r = await s.fake.slash(s.bot, s.mod, s.channel, "belote tables")
    assert r.text == "No table is open in this server."
    await new_table(s, s.ana, variant="classic")
    await new_table(s, s.bo, s.games, variant="bulgarian", computers=True)
    first, second = table_of(s, s.ana), table_of(s, s.bo)
    r = await s.fake.slash(s.bot, s.ana, s.channel, "belote tables")
    assert "Only moderators can do that" in r.text
    r = await s.fake.slash(s.bot, s.mod, s.channel, "belote tables")
    assert r.ephemeral and "**2 open tables**" in r.text
    assert f"#{first.id} · classic · waiting for players · <#{s.channel.id}> · <@{s.ana.id}>" \
        in r.text
    assert f"#{second.id} · bulgarian" in r.text and f"<#{s.games.id}>" in r.text
    assert r.text.count("· last action <t:") == 2
    assert f"https://discord.com/channels/{s.guild.id}/{first.row.home_id}/" \
           f"{first.row.message_id}" in r.text
    r = await s.fake.slash(s.bot, s.mod, s.channel, "belote tables", end=12345)
    assert "There is no open table #12345" in r.text
    r = await s.fake.slash(s.bot, s.mod, s.channel, "belote tables", end=first.id)
    assert r.text == f"Table #{first.id} is ended." and first.id not in s.bot.service.live
    entries = await s.bot.db.audit.recent(s.guild.id)
    assert [(e.action, e.actor_id, e.table_id) for e in entries] == \
        [("end", s.mod.id, first.id)]


async def test_a_moderator_sets_what_happens_to_tournament_no_shows(server: Server) -> None:
    s = server
    r = await config(s, s.mod, tournament_no_show="cancel")
    assert "Tournament no-shows: The tournament is cancelled (changed)" in r.text, r.text
    assert (await s.bot.guild_settings.get(s.guild.id)).tournament_no_show == "cancel"
    r = await config(s, s.ana, tournament_no_show="computer")
    assert "Only moderators can do that" in r.text
    assert (await s.bot.guild_settings.get(s.guild.id)).tournament_no_show == "cancel"
