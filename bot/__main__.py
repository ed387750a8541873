"""`belote-bot` (or `python -m bot`): run the bot, or print its invite link."""

from __future__ import annotations

import argparse
import base64
import binascii
import sys
from dataclasses import fields

import discord

from .bot import NEEDED_PERMISSIONS, create_bot
from .logs import setup_logging
from .settings import Settings, SettingsError

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
    return discord.utils.oauth_url(client_id, permissions=NEEDED_PERMISSIONS,
                                   scopes=("bot", "applications.commands"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="belote-bot",
                                     description="A Discord bot that hosts Belote tables.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (the default)")
    inv = sub.add_parser("invite-url", help="print the link that adds the bot to a server")
    inv.add_argument("--client-id", type=int, help="the application id (default: from the "
                     "token or DISCORD_APPLICATION_ID)")
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
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
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 1
    setup_logging(settings.log_level, settings.token)
    bot = create_bot(**{f.name: getattr(settings, f.name) for f in fields(settings)})
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("belote-bot: Discord refused the token: reset it on the developer portal and "
              "update DISCORD_TOKEN.", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("belote-bot: this bot needs no privileged intent; check the token.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
