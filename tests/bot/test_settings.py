"""Settings, the command line without a token, the invite link, logging without the token."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import discord
import pytest

from bot import Settings, create_bot
from bot.__main__ import client_id_from_token, invite_url
from bot.bot import INVITE_PERMISSIONS, NEEDED_PERMISSIONS
from bot.controls import decode_action, encode_action
from bot.logs import RedactToken
from bot.settings import SettingsError
from game.actions import Action, CoincheBid, ContractBid, Pass, Play, Take
from game.cards import Suit
from game.rules import Trump, Variant

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.secret-part-of-the-token"


def test_environment_then_dotenv_then_defaults(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=42\nCOMPUTER_DELAY=0.5\n")
    s = Settings.from_env({"DISCORD_TOKEN": "from-env", "LOG_LEVEL": "debug"}, env_file)
    assert (s.token, s.dev_guild_id, s.log_level, s.computer_delay) == (
        "from-env", 42, "DEBUG", 0.5)
    # Not in the env file: the default name, beside the env file, as an absolute path.
    assert s.database_path == str(tmp_path / "belote.sqlite3")
    assert "from-env" not in repr(s)
    with pytest.raises(SettingsError, match="DEV_GUILD_ID"):
        Settings.from_env({"DEV_GUILD_ID": "abc"}, None)
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        Settings.from_env({"LOG_LEVEL": "loud"}, None)


def test_database_path_is_absolute_and_relative_to_where_it_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service, cwd = tmp_path / "service", tmp_path / "cwd"
    service.mkdir()
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    env_file = service / ".env"
    env_file.write_text("DATABASE_PATH=data/b.sqlite3\n")
    assert Settings.from_env({}, env_file).database_path == str(service / "data" / "b.sqlite3")
    # Given in the environment, a relative path is relative to the working directory.
    s = Settings.from_env({"DATABASE_PATH": "env.sqlite3"}, env_file)
    assert s.database_path == str(cwd / "env.sqlite3")
    assert Settings.from_env({}, None).database_path == str(cwd / "belote.sqlite3")
    assert Settings.from_env({"DATABASE_PATH": "/abs/x.sqlite3"}, None).database_path == \
        "/abs/x.sqlite3"


def test_create_bot_builds_without_connecting(tmp_path: Path) -> None:
    bot = create_bot(str(tmp_path / "x.sqlite3"), computer_delay=0)
    assert bot.settings.database_path.endswith("x.sqlite3")
    assert not bot.intents.members and not bot.intents.message_content
    assert not bot.intents.presences
    with pytest.raises(SettingsError, match="unknown"):
        create_bot(str(tmp_path / "x.sqlite3"), colour="red")


def test_without_a_token_it_says_how_to_get_one(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "DISCORD_TOKEN" in out.stderr and "discord.com/developers" in out.stderr
    assert "Traceback" not in out.stderr


def test_invite_url_has_the_scopes_and_permissions(tmp_path: Path) -> None:
    assert client_id_from_token(TOKEN) == 123456789012345678
    query = parse_qs(urlparse(invite_url(123)).query)
    assert query["client_id"] == ["123"]
    assert set(query["scope"][0].split()) == {"bot", "applications.commands"}
    permissions = discord.Permissions(int(query["permissions"][0]))
    assert permissions == INVITE_PERMISSIONS and permissions >= NEEDED_PERMISSIONS
    assert permissions.manage_threads  # a closed table's thread is locked
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN}
    out = subprocess.run([sys.executable, "-m", "bot", "invite-url"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "client_id=123456789012345678" in out.stdout
    assert TOKEN not in out.stdout + out.stderr


def test_the_token_never_reaches_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("belote.test")
    logger.addFilter(RedactToken(TOKEN))
    with caplog.at_level(logging.INFO):
        logger.info("logging in with %s", TOKEN)
    assert TOKEN not in caplog.text and "[token]" in caplog.text


@pytest.mark.parametrize(("variant", "action"), [
    (Variant.CLASSIC, Take(Suit.HEARTS)), (Variant.CLASSIC, Take()), (Variant.CLASSIC, Pass()),
    (Variant.COINCHE, CoincheBid(90, Suit.DIAMONDS)),
    (Variant.COINCHE, CoincheBid(250, Suit.SPADES)),
    (Variant.BULGARIAN, ContractBid(Trump.NO_TRUMPS)), (Variant.BULGARIAN, Play(13)),
])
def test_action_codes_round_trip(variant: Variant, action: Action) -> None:
    code = encode_action(action)
    assert len(code) <= 20 and ":" not in code
    assert decode_action(variant, code) == action


def test_shards_from_the_environment_and_their_checks() -> None:
    from bot.settings import SettingsError
    from bot.sharding import Shards

    settings = Settings.from_env({"SHARD_COUNT": "4", "SHARDS": "0,2-3",
                                  "DATABASE_URL": "postgresql://u@h/db"}, dotenv_path=None)
    assert (settings.shard_count, settings.shards) == (4, (0, 2, 3))
    shards = Shards.of(settings)
    assert not shards.whole and shards.budget(48) == 36
    # Discord's rule: (id >> 22) % count; direct messages are shard 0's.
    assert [shards.shard_of(n << 22) for n in (0, 1, 5)] == [0, 1, 1]
    assert shards.owns(None) and shards.owns(2 << 22) and not shards.owns(5 << 22)
    unsharded = Shards.of(Settings())
    assert unsharded.whole and unsharded.owns(12345 << 22) and unsharded.budget(48) == 48
    for bad, says in ((dict(SHARDS="1"), "SHARDS needs SHARD_COUNT"),
                      (dict(SHARD_COUNT="0"), "at least 1"),
                      (dict(SHARD_COUNT="two"), "whole number"),
                      (dict(SHARD_COUNT="2", SHARDS="1-"), "such as 0-3"),
                      (dict(SHARD_COUNT="2", SHARDS="3-1"), "such as 0-3")):
        with pytest.raises(SettingsError, match=says):
            Settings.from_env({**bad, "DATABASE_URL": "postgresql://u@h/db"}, dotenv_path=None)


def test_the_table_a_control_names() -> None:
    from bot.controls import button_id, select_id
    from bot.sharding import table_of

    assert table_of(button_id("act", 42, 7, "play.JH")) == 42
    assert table_of(select_id("bid", 9, 3, "H")) == 9
    assert table_of(button_id("hand", 5)) == 5
    assert table_of("tn:join:4") is None and table_of("bt:act:x:1") is None
