"""Virtual credits in each server: the starting grant, the daily bonus, the wallet.

Credits have no money value and cannot be bought. Each member of a server gets the server's
starting grant once, the first time credits matter to them, and may ask for the daily bonus
once a UTC day (both server settings). Every movement goes through the ledger (db/credits.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from db import Database
from db.credits import Move, Movement

from .guild_settings import GuildSettingsStore
from .refusals import Refusal


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Wallet:
    balance: int
    rank: int | None
    movements: list[Movement]
    # The balance shown is the starting grant this member has not been given yet (another
    # member looked, which gives nothing): it comes with their first use of credits.
    grant_due: bool = False


class Credits:
    def __init__(self, db: Database, settings: GuildSettingsStore,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.repo = db.credits
        self.settings = settings
        self.clock = clock

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's balance, their starting grant given first if it is still due."""
        known = await self.repo.balance(guild_id, user_id)
        if known is not None:
            return known
        grant = (await self.settings.get(guild_id)).starting_credits
        if grant <= 0:
            return 0
        (after,) = await self.repo.apply(guild_id, [
            Move(user_id, grant, "grant", f"grant:{user_id}")])
        # None: given meanwhile (two first commands at once): read what is there.
        return after if after is not None else await self.repo.balance(guild_id, user_id) or 0

    async def daily(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """The daily bonus: (the bonus, the balance after it). Refused when the server gives
        none, or when it was taken today (UTC); then nothing moves."""
        bonus = (await self.settings.get(guild_id)).daily_bonus
        if bonus <= 0:
            raise Refusal("credits.daily_off")
        await self.balance(guild_id, user_id)  # the grant first, if due
        now = self.clock()
        (after,) = await self.repo.apply(guild_id, [
            Move(user_id, bonus, "daily", f"daily:{user_id}:{now.date().isoformat()}")])
        if after is None:
            tomorrow = datetime(now.year, now.month, now.day, tzinfo=UTC).timestamp() + 86400
            raise Refusal("credits.daily_taken", when=f"<t:{int(tomorrow)}:R>")
        return bonus, after

    async def wallet(self, guild_id: int, user_id: int, *, grant: bool = True,
                     last: int = 10) -> Wallet:
        """The balance (the grant given first when ``grant``: a member looking at their own
        wallet), their rank in the server and their last movements."""
        if grant:
            balance = await self.balance(guild_id, user_id)
        else:
            known = await self.repo.balance(guild_id, user_id)
            if known is None:  # never had credits here: what they will have at their first use
                due = max(0, (await self.settings.get(guild_id)).starting_credits)
                return Wallet(due, None, [], grant_due=due > 0)
            balance = known
        return Wallet(balance, await self.repo.rank(guild_id, user_id),
                      await self.repo.history(guild_id, user_id, last))
