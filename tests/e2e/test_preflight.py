"""/belote check (moderators): each channel where tables may open and what the bot lacks
there, whether DMs reach the moderator; refused to others. In the reader's language."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest

from bot.__main__ import main
from tests.fakediscord import FakeDiscord

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
    assert "Embed Links" in lacking and "Manage Threads" in lacking
    assert "Send Messages," not in lacking
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


async def test_the_command_line_check_lists_servers_channels_and_commands(
        world: World, database_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    fake, guild = world.fake, world.guild
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", fake.token)
    monkeypatch.setenv("DATABASE_PATH", str(database_path))
    assert await asyncio.to_thread(main, ["check"]) == 0
    out = capsys.readouterr().out
    assert f"Server Cafe ({guild.id}):" in out and "Nothing blocks play." in out
    assert "The /belote command is registered on Discord" in out

    cards = guild.add_text_channel("cards")
    guild.set_bot_permissions(cards, discord.Permissions(view_channel=True,
                                                         send_messages=True))
    assert await asyncio.to_thread(main, ["check", "--language", "fr"]) == 1
    out = capsys.readouterr().out
    assert "❌ #cards" in out and "Joindre des fichiers" in out
    assert "Un point ci-dessus empêche de jouer" in out

    # The channels setting, read from the bot's database: #cards is not one of them.
    await world.bot.guild_settings.change(guild.id, {"channels": [world.channel.id]}, [])
    assert await asyncio.to_thread(main, ["check"]) == 0
    assert "#cards" not in capsys.readouterr().out


async def test_the_command_line_check_fails_without_registered_commands(
        fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    fake_discord.add_guild("Cafe").add_text_channel("belote")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", fake_discord.token)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "none.sqlite3"))
    assert await asyncio.to_thread(main, ["check"]) == 1
    out = capsys.readouterr().out
    assert "not registered on Discord" in out
    assert not (tmp_path / "none.sqlite3").exists()  # a check creates no database
