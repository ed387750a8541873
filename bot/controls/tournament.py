"""The sign-up message's buttons: Join and Leave a tournament.

``tn:join:<tournament>`` and ``tn:leave:<tournament>`` (``tn:`` is the tournaments' prefix).
Anyone may press them; the runner refuses what the format refuses (full, already in, a leaver
coming back), in the user's words.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from game.tournament import TournamentError
from i18n import DEFAULT_LANGUAGE, words
from service import Refusal

from ..errors import tell
from ..languages import member_language
from .base import ID, BadControl, Control, bot_of, number
from .replies import display_name

PREFIX = "tn"


def refusal(error: TournamentError) -> Refusal:
    return Refusal(f"tournaments.error.{error.code}")


class TournamentButton(Control, discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"(?!)"):
    """A button naming its tournament: ``tn:<kind>:<tournament>``."""

    def __init__(self, tournament_id: int, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.tournament_id = tournament_id
        self.table_id = 0  # no table: a failed answer is only logged
        super().__init__(discord.ui.Button(
            custom_id=f"{PREFIX}:{self.kind}:{tournament_id}", label=label, style=style))

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        # An id past the database's integers names no tournament (0: none has it): asked
        # for, it is refused as one that does not exist, and never reaches a query.
        try:
            return cls(number(match["tournament"], "tournament"))
        except BadControl:
            return cls(0)

    async def check_server(self, interaction: discord.Interaction[Any]) -> None:
        """A sign-up button names a tournament of the server it is clicked in: another
        server's (a forged click) is refused as a tournament that does not exist."""
        row = await bot_of(interaction).tournaments.repo.get(self.tournament_id)
        if row is not None and row.guild_id != interaction.guild_id:
            raise refusal(TournamentError("no_such_tournament"))

    def where(self) -> str:
        return f"control {PREFIX}:{self.kind} of tournament {self.tournament_id}"


class JoinTournamentButton(TournamentButton, template=rf"tn:join:(?P<tournament>{ID})"):
    kind = "join"
    answers_by = "reply"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        try:
            await bot.tournaments.join(self.tournament_id, interaction.user.id,
                                       display_name(interaction.user))
        except TournamentError as e:
            raise refusal(e) from None
        await tell(interaction,
                   await _reader_words(interaction, self.tournament_id, "tournaments.joined"))


class LeaveTournamentButton(TournamentButton, template=rf"tn:leave:(?P<tournament>{ID})"):
    kind = "leave"
    answers_by = "reply"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        try:
            await bot.tournaments.leave(self.tournament_id, interaction.user.id)
        except TournamentError as e:
            raise refusal(e) from None
        await tell(interaction,
                   await _reader_words(interaction, self.tournament_id, "tournaments.left"))


TOURNAMENT_CONTROLS = (JoinTournamentButton, LeaveTournamentButton)


async def _reader_words(interaction: discord.Interaction[Any], tournament_id: int,
                        message_id: str) -> str:
    """A reply only the clicking member reads: in their client's language, else the
    tournament's."""
    row = await bot_of(interaction).tournaments.repo.get(tournament_id)
    spoken = row.language if row is not None else DEFAULT_LANGUAGE
    return words(member_language(interaction, spoken))(message_id)


def signup_view(tournament_id: int, spoken: str = DEFAULT_LANGUAGE) -> discord.ui.View:
    w = words(spoken)
    view = discord.ui.View(timeout=None)
    view.add_item(JoinTournamentButton(tournament_id, w("tournaments.button.join"),
                                       discord.ButtonStyle.primary))
    view.add_item(LeaveTournamentButton(tournament_id, w("tournaments.button.leave")))
    return view
