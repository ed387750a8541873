"""The /belote group is one tree whichever cog adds a subcommand: the same commands, options
and localizations as Discord is sent them."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from .table_helpers import World


def shape(node: dict[str, Any]) -> Any:
    """A command's JSON reduced to its names: ``{name: [option names or subcommand shapes]}``."""
    return {node["name"]: [shape(o) if o.get("type") in (1, 2) else o["name"]
                           for o in node.get("options", [])]}


EXPECTED = [{"belote": [
    {"new": ["variant", "target", "private", "announcements", "must_undertrump", "shuffle",
             "computers", "level", "turn_timer", "language", "stake"]},
    {"invite": ["player"]}, {"hand": []}, {"leave": []}, {"show": []}, {"rules": ["variant"]},
    {"end": ["table"]}, {"kick": ["player"]},
    {"config": ["add_channel", "remove_channel", "variant", "target", "turn_timer", "level",
                "lobby_minutes", "idle_minutes", "away_turns", "autoplay", "analysis",
                "max_tables_channel", "max_tables_server", "moderator_role", "log_channel",
                "language",
                "tournament_no_show", "tournament_prize_split", "starting_credits",
                "daily_bonus", "season_length", "season_role", "announce_channel", "reset",
                "renew_web_link"]},
    {"help": []}, {"tables": ["end"]}, {"check": []},
    {"leaderboard": ["variant", "period", "pairs", "season"]}, {"stats": ["member", "variant"]},
    {"history": ["member"]}, {"replay": ["match"]},
    {"tournament": [{"new": ["format", "variant", "starts_in", "entry_fee"]}]},
    {"wallet": ["member"]}, {"daily": []}, {"credits": []}, {"seasons": []},
    {"challenge": ["variant", "world", "board"]}]}]


def tree_shape(tree: app_commands.CommandTree) -> list[Any]:
    return [shape(c.to_dict(tree)) for c in sorted(tree.get_commands(), key=lambda c: c.name)]


async def test_the_command_tree_names_every_subcommand_and_option(world: World) -> None:
    assert tree_shape(world.bot.tree) == EXPECTED


async def test_the_language_choices_are_named_in_words(world: World) -> None:
    group = next(c for c in world.bot.tree.get_commands() if c.name == "belote")
    data = group.to_dict(world.bot.tree)
    named = {"new": ["English", "Български", "Français"],
             # The server's setting also has its default: the server's own language.
             "config": ["Automatic (the server's language)", "English", "Български",
                        "Français"]}
    for command, names in named.items():
        options = next(o for o in data["options"] if o["name"] == command)["options"]
        language = next(o for o in options if o["name"] == "language")
        assert [c["name"] for c in language["choices"]] == names
