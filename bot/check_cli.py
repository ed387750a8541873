"""``belote-bot check``: the preflight from the command line, with the token: every server the
bot is in, each channel where tables may open there and what the bot lacks, whether the slash
commands are registered; exits 1 when something blocks play.

Over REST only (no gateway session: a second session beside a running bot could take its
events), so it is safe to run while the bot runs. The channels setting is read from the bot's
database when there is one (none yet: every text channel). Whether DMs reach a member can only
be found by sending one: ``/belote check`` does that, in Discord.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

import discord

from db import Database
from i18n import words
from service.guild_settings import GuildSettingsStore

from .preflight import report_lines, rest_checks
from .settings import Settings


async def run_check(settings: Settings, language: str = "en", out: TextIO | None = None
                    ) -> int:
    """Print the report (on stdout by default); 0 when nothing blocks play, 1 otherwise
    (raises discord.LoginFailure for a refused token, and what the network or Discord
    raises)."""
    w = words(language)
    out = out if out is not None else sys.stdout
    client = discord.Client(intents=discord.Intents.none())
    db = await _database(settings)
    blocked = False
    try:
        await client.login(settings.token or "")
        http, me = client.http, client.user
        assert me is not None
        store = GuildSettingsStore(db) if db is not None else None
        guilds = await http.get_guilds(200)
        if not guilds:
            print(w("admin.check.cli.no_server"), file=out)
            blocked = True
        for partial in guilds:
            gid = int(partial["id"])
            guild: Any = await http.get_guild(gid, with_counts=False)
            channels: Any = await http.get_all_guild_channels(gid)
            member: Any = await http.get_member(gid, me.id)
            allowed = (await store.get(gid)).channels if store is not None else ()
            checks = rest_checks(guild, guild.get("roles", []), member, channels, allowed,
                                 me.id)
            blocked = blocked or not checks or any(c.blocks for c in checks)
            print(w("admin.check.cli.server", name=guild.get("name", gid), id=gid), file=out)
            for line in report_lines(checks, w, mention=False):
                print("  " + line, file=out)
        blocked = await _commands(client, settings, w, out) or blocked
        print(w("admin.check.cli.dms"), file=out)
        print(w("admin.check.blocking") if blocked else w("admin.check.ready"), file=out)
    finally:
        await client.close()
        if db is not None:
            await db.close()
    return 1 if blocked else 0


async def _commands(client: discord.Client, settings: Settings, w: Any, out: TextIO) -> bool:
    """Say whether /belote is registered where the bot syncs it; True when it is not."""
    app = client.application_id
    assert app is not None
    if settings.dev_guild_id is not None:
        registered: Any = await client.http.get_guild_commands(app, settings.dev_guild_id)
    else:
        registered = await client.http.get_global_commands(app)
    belote = next((c for c in registered if c.get("name") == "belote"), None)
    if belote is None:
        print(w("admin.check.cli.commands_missing"), file=out)
        return True
    print(w.plural("admin.check.cli.commands_synced", len(belote.get("options", []))),
          file=out)
    return False


async def _database(settings: Settings) -> Database | None:
    """The bot's database if it has one already (a check never creates it)."""
    if settings.database_url is None and not Path(settings.database_path).is_file():
        return None
    return await Database.open(settings.database)
