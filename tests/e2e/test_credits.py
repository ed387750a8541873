"""/belote wallet, /belote daily and /belote credits through the fake Discord: the starting grant
once, the daily bonus once a UTC day (the clock injected), the board, the server's settings,
the words of a French member, and the statement that credits have no money value."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from i18n import words

from .table_helpers import World

DAY = datetime(2026, 11, 24, 9, 30, tzinfo=UTC)


async def test_the_grant_comes_once_and_the_daily_bonus_once_a_day(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members[:2]
    now = [DAY]
    bot.credits.clock = lambda: now[0]
    r = await fake.slash(bot, ana, world.channel, "belote wallet")
    assert r.ephemeral and f"**Wallet of <@{ana.id}>**: 1,000 credits" in r.text, r.text
    assert "starting grant" in r.text and "no money value and cannot be bought" in r.text
    r = await fake.slash(bot, ana, world.channel, "belote daily")
    assert r.text == "Daily bonus: 100 credits. Your balance: 1,100 credits.", r.text
    again = await fake.slash(bot, ana, world.channel, "belote daily")
    assert again.ephemeral and "You already took today's bonus" in again.text
    assert await bot.credits.repo.balance(world.guild.id, ana.id) == 1100  # nothing moved
    now[0] = DAY + timedelta(days=1)
    r = await fake.slash(bot, ana, world.channel, "belote daily")
    assert "Your balance: 1,200 credits." in r.text
    # Another member's wallet shows the grant they have coming, and says so; looking does
    # not give it to them.
    r = await fake.slash(bot, ana, world.channel, "belote wallet", member=bo)
    assert f"**Wallet of <@{bo.id}>**: 1,000 credits" in r.text, r.text
    assert words()("credits.wallet.grant_due") in r.text
    assert await bot.credits.repo.balance(world.guild.id, bo.id) is None
    await fake.slash(bot, bo, world.channel, "belote wallet")
    board = await fake.slash(bot, bo, world.channel, "belote credits")
    assert not board.ephemeral
    assert [line for line in board.text.splitlines() if line[:2] in ("1.", "2.")] == [
        f"1. <@{ana.id}> — 1,200 credits", f"2. <@{bo.id}> — 1,000 credits"]
    balances, ledger, per_reason = await bot.credits.repo.sums(world.guild.id)
    assert balances == ledger == 2200 and per_reason == {"grant": 2000, "daily": 200}


async def test_the_server_sets_the_grant_and_the_bonus(world: World) -> None:
    fake, bot = world.fake, world.bot
    mod = world.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, world.channel, "belote config", starting_credits=50,
                         daily_bonus=0)
    assert "Starting credits: 50 credits (changed)" in r.text, r.text
    assert "Daily bonus: 0 credits (changed)" in r.text, r.text
    cy = world.members[2]
    cy.user.locale = "fr"
    r = await fake.slash(bot, cy, world.channel, "belote wallet")
    fr = words("fr")
    assert fr("credits.wallet.title", who=f"<@{cy.id}>",
              balance=fr.plural("credits.amount", 50)) in r.text
    assert fr("credits.not_money") in r.text
    r = await fake.slash(bot, cy, world.channel, "belote daily")
    assert r.ephemeral and r.text == fr("credits.daily_off")
    assert await bot.credits.repo.balance(world.guild.id, cy.id) == 50
