"""Time-out notices: a player whose turn timer ran out is told so in the table's thread.

The table message's buttons themselves are controls: bot/controls/lobby.py.
"""

from __future__ import annotations

from discord.ext import commands

from bot.bot import BeloteBot
from db import SeatRow
from i18n import words
from service.tables import LiveTable


class Lobby(commands.Cog):
    def __init__(self, bot: BeloteBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.service.timeout_hooks.append(self.timed_out)

    async def cog_unload(self) -> None:
        self.bot.service.timeout_hooks.remove(self.timed_out)

    def timed_out(self, live: LiveTable, seat: SeatRow) -> None:
        """Tell a player who ran out of time, in the table's thread (a DM edit does not
        notify them): a computer plays for them, and how to take the seat back. Through the
        Outbox: sent again while Discord fails (once, by its nonce), a refusal one WARNING."""
        if seat.user_id is None or live.lost is not None:
            return
        user_id = seat.user_id
        text = words(live.language)("lobby.timed_out", user=f"<@{user_id}>", table=live.id)
        once = ("timed out", seat.seat, live.seq)  # the table moves on while it is tried
        self.bot.delivery.jobs.request(
            ("timed out", live.id, seat.seat, live.seq),  # (the table's id second: its thread
            # is archived once its sends went, delivery.close_thread)
            lambda: self.bot.delivery.notice(live, text, mention=user_id, once=once))


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Lobby(bot))
