"""/belote check (moderators): each channel where tables may open and what the bot lacks
there, whether DMs reach the moderator; refused to others. In the reader's language."""

from __future__ import annotations

import discord

from .table_helpers import FLAT, World


async def test_check_names_the_channel_whose_permission_was_removed(world: World) -> None:
    fake, bot, guild = world.fake, world.bot, world.guild
    mod = guild.add_member("mod", manage_guild=True)
    other = guild.add_text_channel("cards")
    r = await fake.slash(bot, mod, world.channel, "belote check")
    assert r.ephemeral
    assert "Nothing blocks play." in r.text
    assert "3 channels have everything" in r.text  # with the server's #general
    assert "Direct messages from the bot reach you" in r.text
    assert "Belote check" in fake.dm_messages(mod)[-1].content  # the test DM itself

    guild.set_bot_permissions(other, discord.Permissions(view_channel=True))
    guild.set_bot_permissions(world.channel, FLAT)  # no threads, no embeds: plays all the same
    await fake.settle()
    mod.close_dms()
    r = await fake.slash(bot, mod, world.channel, "belote check")
    lines = r.text.splitlines()
    blocked = next(line for line in lines if f"<#{other.id}>" in line)
    assert blocked.startswith("❌") and "Send Messages" in blocked and "Attach Files" in blocked
    assert "cannot be played there" in blocked
    lacking = next(line for line in lines if f"<#{world.channel.id}>" in line)
    assert lacking.startswith("⚠️") and "Create Public Threads" in lacking
    assert "Embed Links" in lacking and "Send Messages," not in lacking
    assert "do not reach you" in r.text
    assert "Something above blocks play" in r.text


async def test_check_follows_the_channels_setting_and_speaks_french(world: World) -> None:
    fake, bot, guild = world.fake, world.bot, world.guild
    mod = guild.add_member("mod", manage_guild=True)
    mod.user.locale = "fr"
    await bot.guild_settings.change(guild.id, {"channels": [world.channel.id, 424242]}, [])
    guild.add_text_channel("ignored", bot_permissions=discord.Permissions.none())
    r = await fake.slash(bot, mod, world.channel, "belote check")
    assert "ignored" not in r.text  # not a channel where tables may open
    assert "Le salon 424242" in r.text and "n'existe plus" in r.text
    assert "1 salon a tout ce qu'il faut au bot." in r.text


async def test_only_moderators_may_check(world: World) -> None:
    r = await world.fake.slash(world.bot, world.members[1], world.channel, "belote check")
    assert r.ephemeral and "Only moderators" in r.text
    assert not world.fake.dm_messages(world.members[1])
