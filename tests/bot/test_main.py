"""`belote-bot` as an administrator meets it: failures to reach Discord in one line, where its
settings and database come from, and backups of the live database."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot import __main__ as cli
from bot.bot import BeloteBot
from db import Database
from db.routing import ShardTaken

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.secret-part-of-the-token"

# A machine with no route to Discord: every name lookup fails as it does offline.
OFFLINE = """
import socket, sys
def offline(*args, **kwargs):
    raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
socket.getaddrinfo = offline
from bot.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def _run_offline(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
               "DISCORD_TOKEN": TOKEN, "COMPUTER_DELAY": "0", **env}
    return subprocess.run([sys.executable, "-c", OFFLINE, *args], cwd=cwd, env=environ,
                          capture_output=True, text=True, timeout=120)


def test_no_route_to_discord_is_one_line_and_a_failure(tmp_path: Path) -> None:
    out = _run_offline(tmp_path)
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    [line] = [x for x in out.stderr.splitlines() if x.startswith("belote-bot:")]
    assert "cannot reach Discord" in line and "discord.com" in line
    assert len(out.stderr.splitlines()) <= 6, out.stderr
    assert TOKEN not in out.stderr
    # The bot uses no voice: discord.py's voice-library warnings are not shown.
    assert "voice" not in out.stderr.lower()


def test_the_start_names_the_database_and_env_file_it_uses(tmp_path: Path) -> None:
    home = tmp_path / "service"
    home.mkdir()
    (home / "settings.env").write_text("DATABASE_PATH=data/belote.sqlite3\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = _run_offline(elsewhere, "--env-file", str(home / "settings.env"))
    assert out.returncode == 1
    # A relative DATABASE_PATH in an env file is relative to that file's folder, not to the
    # working directory the service happens to start in.
    database = home / "data" / "belote.sqlite3"
    assert list(elsewhere.iterdir()) == []
    [info] = [x for x in out.stderr.splitlines() if "INFO" in x and "database" in x]
    assert str(database) in info and str(home / "settings.env") in info


def test_a_missing_env_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--env-file", str(tmp_path / "nope.env"), "invite-url"]) == 2
    err = capsys.readouterr().err
    assert "no env file" in err and str(tmp_path / "nope.env") in err


def _http_error(status: int, text: str) -> discord.HTTPException:
    response: Any = SimpleNamespace(status=status, reason="Bad Gateway")
    return discord.HTTPException(response, text)


@pytest.mark.parametrize(("error", "says"), [
    (OSError(101, "Network is unreachable"), "cannot reach Discord"),
    (TimeoutError(), "cannot reach Discord"),
    (discord.GatewayNotFound(), "Discord's gateway"),  # type: ignore[no-untyped-call]
    (_http_error(502, "upstream"), "Discord answered 502"),
    (sqlite3.OperationalError("unable to open database file"), "cannot use the database"),
    (ShardTaken("shard 1 is run by another process"), "stop that process first"),
])
def test_each_connection_failure_is_one_line(error: BaseException, says: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    async def start(self: BeloteBot, token: str, *, reconnect: bool = True) -> None:
        raise error

    monkeypatch.setattr(BeloteBot, "start", start)
    monkeypatch.setattr(cli, "setup_logging", lambda *a: None)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert cli.main(["run"]) == 1
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


async def test_backup_copies_a_live_database(tmp_path: Path) -> None:
    live = tmp_path / "belote.sqlite3"
    db = await Database.open(live)
    try:
        await db.guilds.set_meta("marker", "kept")
        # The row is in the write-ahead log, not yet in the main file: a file copy misses it.
        out = tmp_path / "backup.sqlite3"
        env = tmp_path / ".env"
        env.write_text(f"DATABASE_PATH={live}\n")
        status = await asyncio.to_thread(cli.main, ["--env-file", str(env), "backup", str(out)])
        assert status == 0
    finally:
        await db.close()
    copy = sqlite3.connect(out)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT value FROM meta WHERE key = 'marker'").fetchone() == ("kept",)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    finally:
        copy.close()
    assert not Path(f"{out}-wal").exists()


def test_backup_refuses_to_overwrite_or_to_invent_a_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = tmp_path / ".env"
    env.write_text(f"DATABASE_PATH={tmp_path / 'missing.sqlite3'}\n")
    out = tmp_path / "out.sqlite3"
    assert cli.main(["--env-file", str(env), "backup", str(out)]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not out.exists() and not (tmp_path / "missing.sqlite3").exists()
    out.write_text("precious")
    sqlite3.connect(tmp_path / "missing.sqlite3").close()
    assert cli.main(["--env-file", str(env), "backup", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out.read_text() == "precious"


def test_shard_flags_choose_the_shards_and_need_postgresql_for_a_part(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    started: list[BeloteBot] = []

    async def start(self: BeloteBot, token: str, *, reconnect: bool = True) -> None:
        started.append(self)

    monkeypatch.setattr(BeloteBot, "start", start)
    monkeypatch.setattr(cli, "setup_logging", lambda *a: None)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    # Every shard in one process: SQLite will do; discord.py's AutoShardedBot runs them.
    assert cli.main(["--shard-count", "2", "--shards", "0-1", "run"]) == 0
    [bot] = started
    assert isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (2, [0, 1])
    assert bot.sharding.whole and bot.router is None
    # A part of them: the other processes must share the database.
    assert cli.main(["--shard-count", "4", "--shards", "1"]) == 2
    err = capsys.readouterr().err
    assert "DATABASE_URL=postgresql://" in err and "SHARDS=1" in err
    assert cli.main(["--shard-count", "2", "--shards", "2"]) == 2
    assert "the shards are 0 to 1" in capsys.readouterr().err
