"""Small helpers the cogs share: the bot's parts, the member's words, and the one way a cog's
commands join the /belote group."""

from __future__ import annotations

from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.bot import BeloteBot
from bot.controls.base import bot_of
from bot.controls.replies import display_name
from bot.languages import member_language
from bot.translator import text
from i18n import DEFAULT_LANGUAGE, Words, words
from service.computers import available_levels
from service.tables import TURN_TIMERS

# What the bot posts for everybody in a channel: in the server's language (English until
# servers choose one). What one member alone reads is in their client's language.
PUBLIC = words(DEFAULT_LANGUAGE)


def member_words(interaction: discord.Interaction[Any],
                 otherwise: str = DEFAULT_LANGUAGE) -> Words:
    """The words of the member who used the command or control: their client's language when
    we speak it, else ``otherwise`` (the table's or the server's)."""
    return words(member_language(interaction, otherwise))


__all__ = ["PUBLIC", "BeloteSubcommands", "bot_of", "display_name", "member_words"]


class BeloteSubcommands(commands.Cog):
    """A cog whose slash commands join the /belote group (cogs/belote.py) instead of being
    top-level commands: Discord allows a command name once, and /belote is one group."""

    GROUP: ClassVar[str] = "belote"

    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot
        self._joined: list[str] = []

    def belote_group(self) -> app_commands.Group:
        group = self.bot.tree.get_command(self.GROUP)
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("load cogs.belote (the /belote group) before this cog")
        return group

    async def cog_load(self) -> None:
        group = self.belote_group()
        for command in self.__cog_app_commands__:
            # Already a copy bound to this cog; under the group it is "/belote <name>".
            command.parent = group
            group.add_command(command)
            self._joined.append(command.name)
        # What is left here is added to the tree as top-level commands after cog_load.
        self.__cog_app_commands__ = []

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command(self.GROUP)
        if isinstance(group, app_commands.Group):
            for name in self._joined:
                group.remove_command(name)
        self._joined.clear()


def option_names(command: str, options: tuple[str, ...]) -> dict[str, app_commands.locale_str]:
    """Each option's name through the catalogue, ``commands.<command>.<option>.name`` (its
    English is the parameter's name), for ``app_commands.rename``: a French client types
    ``/belote config langue:``."""
    return {o: text(f"commands.{command}.{o}.name") for o in options}


def _timer_choice(seconds: int) -> app_commands.locale_str:
    if seconds % 60 == 0:
        return text("commands.choice.timer.minutes", n=seconds // 60)
    return text("commands.choice.timer.seconds", n=seconds)


# The choices /belote new and /belote config both offer, worded once.
TIMERS = [app_commands.Choice(name=text("commands.choice.timer.off"), value=0)] + [
    app_commands.Choice(name=_timer_choice(t), value=t) for t in TURN_TIMERS]
LEVELS = [app_commands.Choice(name=text(f"commands.choice.level.{level}"), value=level)
          for level in available_levels()]


