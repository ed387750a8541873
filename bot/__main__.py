"""`belote-bot` (or `python -m bot`): run the bot, print its invite link, check what it lacks
in its servers (the preflight), back up its database, rebuild its ratings from the stored
matches, or move its data to another database (SQLite to PostgreSQL)."""

from __future__ import annotations

import argparse
import asyncio
import base64
import binascii
import logging
import sqlite3
import sys
from dataclasses import fields, replace
from pathlib import Path

import aiohttp
import discord

from db.backup import BackupError, backup_database
from db.connection import Database, redact, url_passwords
from db.rebuild import rebuild_ratings
from db.routing import ShardTaken
from db.transfer import TransferError, copy_database

from .bot import INVITE_PERMISSIONS, create_bot
from .logjson import use_json_lines
from .logs import quiet_voice_warnings, setup_logging
from .settings import Settings, SettingsError, read_env_file, shard_ranges
from .web import WebUnavailable

log = logging.getLogger("bot")

NO_TOKEN = """\
No bot token: set DISCORD_TOKEN in the environment or in a .env file (see .env.example).
To get one: open https://discord.com/developers/applications, create an application (or pick
yours), open "Bot", click "Reset Token" and copy it. Then invite the bot to your server with
`belote-bot invite-url` and start it again."""


def client_id_from_token(token: str) -> int | None:
    """A bot token starts with the bot's user id (the application id) in base64."""
    head = token.split(".", 1)[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=False).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def invite_url(client_id: int) -> str:
    return discord.utils.oauth_url(client_id, permissions=INVITE_PERMISSIONS,
                                   scopes=("bot", "applications.commands"))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="belote-bot",
                                     description="A Discord bot that hosts Belote tables.")
    parser.add_argument("--env-file", metavar="PATH",
                        help="the settings file to read (default: .env in the working "
                        "directory, when there is one); the environment overrides it")
    parser.add_argument("--shard-count", metavar="N",
                        help="the number of shards of the bot in all processes (default: "
                        "SHARD_COUNT, else one, unsharded)")
    parser.add_argument("--shards", metavar="IDS",
                        help="the shards this process runs, e.g. 0-3 or 0,2 (default: SHARDS, "
                        "else all); other processes run the rest, on one PostgreSQL")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (the default)")
    inv = sub.add_parser("invite-url", help="print the link that adds the bot to a server")
    inv.add_argument("--client-id", type=int, help="the application id (default: from the "
                     "token or DISCORD_APPLICATION_ID)")
    backup = sub.add_parser("backup", help="copy the database, safely while the bot runs")
    backup.add_argument("output", metavar="OUT.sqlite3", help="the new file to write")
    sub.add_parser("rebuild-ratings", help="compute every rating again from the stored "
                   "matches, in order (stop the bot first)")
    check = sub.add_parser("check", help="the preflight: in each server, what the bot lacks "
                           "where tables may open, and whether its commands are registered; "
                           "exits 1 when something blocks play")
    check.add_argument("--language", choices=("en", "fr", "bg"), default="en",
                       help="the language of the report (default: en)")
    move = sub.add_parser("migrate-db", help="copy every table of one database into another, "
                          "e.g. SQLite to PostgreSQL (stop the bot first)")
    move.add_argument("--from", dest="source", metavar="URL",
                      help="the database to read: sqlite:///path or a path (default: the "
                      "configured database)")
    move.add_argument("--to", dest="target", metavar="URL", required=True,
                      help="the database to fill, e.g. postgresql://user:password@host/db")
    move.add_argument("--overwrite", action="store_true",
                      help="replace the rows a non-empty target holds (refused without it)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    env_file = read_env_file(args.env_file or ".env")
    if args.env_file and env_file is None:
        print(f"belote-bot: no env file at {Path(args.env_file).expanduser().resolve()}",
              file=sys.stderr)
        return 2
    try:
        settings = Settings.from_env(dotenv_path=env_file)
        if args.shard_count is not None or args.shards is not None:
            settings = replace(settings, shard_count=args.shard_count or settings.shard_count,
                               shards=args.shards or settings.shards).checked()
    except SettingsError as e:
        print(f"belote-bot: {e}", file=sys.stderr)
        return 2
    if args.command == "invite-url":
        client_id = args.client_id or settings.application_id or (
            client_id_from_token(settings.token) if settings.token else None)
        if client_id is None:
            print("belote-bot: give --client-id (the Application ID on the developer portal's "
                  "General Information page), or set DISCORD_TOKEN.", file=sys.stderr)
            return 2
        print(invite_url(client_id))
        return 0
    if args.command == "backup":
        if settings.database_url is not None:
            print("belote-bot: the database is PostgreSQL (DATABASE_URL): back it up with "
                  "PostgreSQL's pg_dump; `backup` copies SQLite files", file=sys.stderr)
            return 2
        return _backup(settings.database_path, args.output)
    if args.command == "rebuild-ratings":
        return _rebuild(settings.database, settings.database_shown)
    if args.command == "migrate-db":
        return _migrate_db(args.source or settings.database, args.target, args.overwrite)
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 1
    if args.command == "check":
        return _check(settings, args.language)
    setup_logging(settings.log_level, settings.token,
                  url_passwords(settings.database_url) if settings.database_url else ())
    if settings.log_format == "json":
        use_json_lines(settings.shard_count or 1, shard_ranges(
            settings.shards or tuple(range(settings.shard_count or 1))))
    quiet_voice_warnings()
    log.info("database %s; settings from %s", settings.database_shown,
             env_file if env_file is not None else "the environment (no env file)")
    if settings.shard_count is not None:
        log.info("shards %s of %d", shard_ranges(settings.shards or
                                                  tuple(range(settings.shard_count))),
                 settings.shard_count)
    bot = create_bot(**{f.name: getattr(settings, f.name) for f in fields(settings)})
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        return _fail("Discord refused the token: reset it on the developer portal and "
                     "update DISCORD_TOKEN.")
    except discord.PrivilegedIntentsRequired:
        return _fail("this bot needs no privileged intent; check the token.")
    except discord.GatewayNotFound:
        return _fail("Discord's gateway cannot be found (an outage on Discord's side?); "
                     "try again later.")
    except discord.HTTPException as e:
        return _fail(f"Discord answered {e.status} at login ({e.text or 'no detail'}); "
                     "try again later.")
    except WebUnavailable as e:
        return _fail(str(e))
    except ShardTaken as e:
        return _fail(f"{e}; stop that process first, or give this one other --shards.")
    except database_errors() as e:
        # Opened at login (setup_hook): a folder without write access, a file that is no
        # database, a PostgreSQL server that refuses the login.
        return _fail(f"cannot use the database {settings.database_shown}: {e}.")
    except (TimeoutError, aiohttp.ClientError, OSError) as e:
        # aiohttp's connection errors are OSErrors too; the reason is in the last message.
        reason = str(e).strip() or type(e).__name__
        return _fail(f"cannot reach Discord (discord.com): {reason}. Check the network, the "
                     "DNS and any firewall or proxy.")
    if bot.shards_lost:
        return _fail("stopped: the database connection holding this process's shards was "
                     "lost and another process took them over.")
    return 0


def _check(settings: Settings, language: str) -> int:
    from .check_cli import run_check

    try:
        return asyncio.run(run_check(settings, language))
    except discord.LoginFailure:
        return _fail("Discord refused the token: reset it on the developer portal and "
                     "update DISCORD_TOKEN.")
    except discord.HTTPException as e:
        return _fail(f"Discord answered {e.status} ({e.text or 'no detail'}); try again later.")
    except (TimeoutError, aiohttp.ClientError, OSError) as e:
        reason = str(e).strip() or type(e).__name__
        return _fail(f"cannot reach Discord (discord.com): {reason}.")
    except database_errors() as e:
        return _fail(f"cannot read the database {settings.database_shown}: {e}.")


def _fail(message: str) -> int:
    # A database's error may quote its connection string: never its password.
    print(f"belote-bot: {redact(message)}", file=sys.stderr)
    return 1


def _backup(database: str, output: str) -> int:
    try:
        size = backup_database(database, output)
    except (BackupError, OSError) as e:
        print(f"belote-bot: backup failed: {e}", file=sys.stderr)
        return 2
    print(f"backed up {database} to {Path(output).resolve()} ({size} bytes)")
    return 0


def _rebuild(database: str, shown: str) -> int:
    if not database.startswith(("postgresql://", "postgres://")) \
            and not Path(database).is_file():
        print(f"belote-bot: no database at {database}", file=sys.stderr)
        return 2

    async def run() -> int:
        db = await Database.open(database)
        try:
            return await rebuild_ratings(db)
        finally:
            await db.close()
    failures: tuple[type[Exception], ...] = (OSError, *database_errors())
    try:
        rated = asyncio.run(run())
    except failures as e:
        print(f"belote-bot: cannot rebuild the ratings in {shown}: {e}", file=sys.stderr)
        return 1
    print(f"rebuilt the ratings of {shown} from {rated} rated match(es)")
    return 0


if __name__ == "__main__":
    sys.exit(main())


def database_errors() -> tuple[type[Exception], ...]:
    """The errors a database gives for a bad file, server or login."""
    errors: tuple[type[Exception], ...] = (sqlite3.Error,)
    try:
        import asyncpg
    except ImportError:
        return errors
    return (*errors, asyncpg.PostgresError, asyncpg.InterfaceError)


def _migrate_db(source: str, target: str, overwrite: bool) -> int:
    from db.connection import redact, sqlite_path

    shown_source = redact(source)
    try:
        if not source.startswith(("postgresql://", "postgres://")) \
                and not Path(sqlite_path(source)).is_file():
            print(f"belote-bot: no database at {shown_source}", file=sys.stderr)
            return 2
    except ValueError as e:
        print(f"belote-bot: {e}", file=sys.stderr)
        return 2

    async def move() -> dict[str, int]:
        src = await Database.open(source)
        try:
            dst = await Database.open(target)
            try:
                return await copy_database(src, dst, overwrite=overwrite)
            finally:
                await dst.close()
        finally:
            await src.close()

    failures: tuple[type[Exception], ...] = (ValueError, RuntimeError, OSError,
                                             *database_errors())
    try:
        copied = asyncio.run(move())
    except TransferError as e:
        print(f"belote-bot: {e}", file=sys.stderr)
        return 1
    except failures as e:
        print(f"belote-bot: cannot move {shown_source} to {redact(target)}: {e}",
              file=sys.stderr)
        return 1
    for table, n in copied.items():
        print(f"  {table}: {n} row(s)")
    print(f"moved {sum(copied.values())} row(s) in {len(copied)} table(s) from {shown_source} "
          f"to {redact(target)}; the counts match")
    return 0
