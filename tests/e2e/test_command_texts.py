"""What Discord shows of the slash commands: names, descriptions and choices within its limits,
every option described, and no description silently cut short by discord.py."""

from __future__ import annotations

import re
from typing import Any

from discord import app_commands

from bot.answers import ANSWERS, PRIVATE, PUBLIC

from .table_helpers import World

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule for command and option names
CUT = "…"  # what discord.py puts in place of a missing description, or at the end of a cut one


def walk(node: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option under a command's JSON, with its path."""
    out = [(path, node)]
    for option in node.get("options", []):
        out += walk(option, f"{path} {option['name']}")
    return out


def written_descriptions(tree: app_commands.CommandTree) -> dict[str, str]:
    """The option descriptions as written in the code (before discord.py shortens them)."""
    out: dict[str, str] = {}
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            given = getattr(command.callback, "__discord_app_commands_param_description__", {})
            for name, text in given.items():
                out[f"{command.qualified_name} {name}"] = " ".join(str(text).split())
    return out


async def test_every_command_and_option_fits_discord_limits(world: World) -> None:
    tree = world.bot.tree
    commands = tree.get_commands()
    assert commands
    written = written_descriptions(tree)
    problems: list[str] = []
    for command in commands:
        for path, node in walk(command.to_dict(tree), command.name):
            name, description = node["name"], node.get("description", "")
            if not NAME.match(name) or name != name.lower():
                problems.append(f"/{path}: name {name!r}")
            if not 1 <= len(description) <= 100:
                problems.append(f"/{path}: description of {len(description)} characters")
            if description == CUT or description.endswith(CUT):
                problems.append(f"/{path}: no description, or one cut short: {description!r}")
            if path in written and written[path] != description:
                problems.append(f"/{path}: description cut from {len(written[path])} "
                                f"characters to {description!r}")
            choices = node.get("choices") or []
            if len(choices) > 25:
                problems.append(f"/{path}: {len(choices)} choices")
            for choice in choices:
                if not 1 <= len(choice["name"]) <= 100:
                    problems.append(f"/{path}: choice {choice['name']!r}")
    assert not problems, "\n".join(problems)


async def test_every_name_option_and_choice_is_worded_in_french_and_bulgarian(
        world: World) -> None:
    """A French or Bulgarian client shows every command, option and choice in its language:
    none falls back to the English default (each one has its own catalogue id)."""
    tree = world.bot.tree
    translator = tree.translator
    assert translator is not None
    missing: list[str] = []

    def check(node: dict[str, Any], path: str) -> None:
        for kind, item in (("name", node), *(("choice", c) for c in node.get("choices") or [])):
            given = item.get("name_localizations") or {}
            for locale in ("fr", "bg"):
                if not given.get(locale):
                    missing.append(f"/{path} {kind} {item['name']!r} in {locale}")
        for option in node.get("options", []):
            check(option, f"{path} {option['name']}")

    for command in tree.get_commands():
        check(await command.get_translated_payload(tree, translator), command.name)
    assert not missing, "\n".join(missing)


async def test_every_command_says_how_it_answers(world: World) -> None:
    """Its answer is armed as it arrives, and deferred in time if the command is slow
    (bot/answers.py): a command without a kind would fail after 3 s of a slow database."""
    commands = [c for c in world.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(commands) > 15
    assert {c.qualified_name: c.extras.get(ANSWERS) for c in commands
            if c.extras.get(ANSWERS) not in (PRIVATE, PUBLIC)} == {}
