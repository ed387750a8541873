"""/belote wallet, /belote daily and /belote credits: each member's virtual credits.

Credits have no money value and cannot be bought (every reply says so once). The service is
service/credits.py; the ledger db/credits.py.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.answers import ANSWERS, PRIVATE, PUBLIC
from bot.bot import BeloteBot
from bot.controls.base import public_words
from bot.errors import reply
from bot.languages import server_language
from bot.messages import NO_MENTIONS
from bot.translator import text
from i18n import Number, Words

from .common import BeloteSubcommands, member_words, option_names

RICHEST = 10


def amount(value: int, w: Words) -> str:
    return w.plural("credits.amount", value)


def wallet_text(who: int, wallet: Any, w: Words) -> str:
    lines = [w("credits.wallet.title", who=f"<@{who}>", balance=amount(wallet.balance, w))]
    if wallet.grant_due:
        lines.append(w("credits.wallet.grant_due"))
    if wallet.rank is not None:
        lines.append(w("credits.wallet.rank", rank=wallet.rank))
    if wallet.movements:
        lines.append(w("credits.wallet.last"))
        for m in wallet.movements:
            sign = "+" if m.amount > 0 else "-"
            lines.append(w("credits.wallet.line", date=m.created_at[:10],
                           amount=f"{sign}{w.number(abs(m.amount))}",
                           reason=w(f"credits.reason.{m.reason}"),
                           balance=Number(m.balance)))
    lines.append(w("credits.not_money"))
    return "\n".join(lines)


class Credits(BeloteSubcommands):
    def __init__(self, bot: BeloteBot) -> None:
        super().__init__(bot)

    async def _words(self, interaction: discord.Interaction[Any]) -> Words:
        assert interaction.guild_id is not None
        settings = await self.bot.guild_settings.get(interaction.guild_id)
        return member_words(interaction, server_language(settings, interaction.guild))

    @app_commands.command(name=text("commands.wallet.name"),
                          description=text("commands.wallet.description"),
                          extras={ANSWERS: PRIVATE})
    @app_commands.rename(**option_names("wallet", ("member",)))
    @app_commands.describe(member=text("commands.wallet.member.description"))
    @app_commands.guild_only()
    async def wallet(self, interaction: discord.Interaction[Any],
                     member: discord.Member | None = None) -> None:
        assert interaction.guild_id is not None
        w = await self._words(interaction)
        who = member or interaction.user
        mine = who.id == interaction.user.id
        # Looking at one's own wallet gives the starting grant; another's shows what is there.
        wallet = await self.bot.credits.wallet(interaction.guild_id, who.id, grant=mine)
        await reply(interaction, wallet_text(who.id, wallet, w), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name=text("commands.daily.name"),
                          description=text("commands.daily.description"),
                          extras={ANSWERS: PRIVATE})
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        w = await self._words(interaction)
        bonus, balance = await self.bot.credits.daily(interaction.guild_id, interaction.user.id)
        await reply(interaction, w("credits.daily.given", bonus=amount(bonus, w),
                                   balance=amount(balance, w)), ephemeral=True)

    @app_commands.command(name=text("commands.credits.name"),
                          description=text("commands.credits.description"),
                          extras={ANSWERS: PUBLIC})
    @app_commands.guild_only()
    async def credits(self, interaction: discord.Interaction[Any]) -> None:
        """The credits leaderboard: posted for everybody, in the server's language."""
        assert interaction.guild_id is not None
        w = await public_words(interaction)
        rows = await self.bot.credits.repo.richest(interaction.guild_id, RICHEST)
        lines = [w("credits.board.title")]
        lines += [w("credits.board.line", rank=i, who=f"<@{user}>", balance=amount(bal, w))
                  for i, (user, bal) in enumerate(rows, start=1)]
        if not rows:
            lines.append(w("credits.board.empty"))
        rank = await self.bot.credits.repo.rank(interaction.guild_id, interaction.user.id)
        if rank is not None and rank > RICHEST:
            lines.append(w("credits.board.you", rank=rank))
        lines.append(w("credits.not_money"))
        await reply(interaction, "\n".join(lines), ephemeral=False, allowed_mentions=NO_MENTIONS)


async def setup(bot: BeloteBot) -> None:
    await bot.add_cog(Credits(bot))
