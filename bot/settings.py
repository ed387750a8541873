"""Settings from the environment and an optional env file (python-dotenv; default ./.env)."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from db.connection import redact

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_FORMATS = ("text", "json")
DEFAULT_DATABASE = "belote.sqlite3"
SQLITE_SCHEME = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class SettingsError(ValueError):
    """A setting with a value we cannot use; the message names it."""


# Seconds before a person's forced card is played for them, by default (FORCED_DELAY).
DEFAULT_FORCED_DELAY: float | None = 0.8


@dataclass(frozen=True, slots=True)
class Settings:
    # repr=False: the token must never reach a log line or a traceback.
    token: str | None = field(default=None, repr=False)
    database_path: str = DEFAULT_DATABASE
    # DATABASE_URL=postgresql://...: PostgreSQL instead of the SQLite file (repr=False: the URL
    # may hold a password).
    database_url: str | None = field(default=None, repr=False)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    computer_delay: float = 1.0  # seconds a computer waits before it acts
    # Seconds before a person's forced card is played for them (FORCED_DELAY; "off" or None:
    # never, whatever the servers' autoplay setting).
    forced_delay: float | None = field(default_factory=lambda: DEFAULT_FORCED_DELAY)
    computer_level: str = "easy"  # the level of computers that fill seats or take over
    application_id: int | None = None  # for `belote-bot invite-url` without a token
    # Seeds the tables' decks and first dealers (reproducible runs, tests); None: the system's
    # randomness, as a live bot wants.
    table_seed: int | None = None
    # Discord's sharding: how many shards the bot has in all (None: one, unsharded) and which
    # of them this process runs (None: all). Several processes need PostgreSQL.
    shard_count: int | None = None
    shards: tuple[int, ...] | None = None
    # What the click key of sharded processes is derived from (bot/sharding.py), if not the
    # token: the same in every process of the bot. repr=False, as the token.
    click_secret: str | None = field(default=None, repr=False)
    # The HTTP port of health, readiness and metrics (and the web pages); None: no web server.
    # 0 picks a free port (tests). WEB_HOST: the address it listens on.
    web_port: int | None = None
    web_host: str = "127.0.0.1"
    web_base_url: str | None = None  # the public address of the web pages, for links
    # The reverse proxies in front of the web pages (addresses or networks): a request from
    # one of them is limited by the client address its X-Forwarded-For names, not its own.
    web_trusted_proxies: tuple[str, ...] = ()
    log_format: str = "text"  # "json": one JSON object a line, for log collectors

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None,
                 dotenv_path: str | Path | None = ".env") -> Settings:
        """Values from ``environ`` (default os.environ), then the env file, then defaults.

        The database path comes back absolute, so the log and the admin see which file is used:
        a relative ``DATABASE_PATH`` written in the env file (or the default, when an env file is
        read) is relative to that file's folder; one given in the environment is relative to the
        working directory, as any path on a command line.
        """
        env = os.environ if environ is None else environ
        values: dict[str, str | None] = {}
        env_file = read_env_file(dotenv_path)
        if env_file is not None:
            values.update(dotenv_values(env_file))
        values.update(env)

        def get(name: str) -> str | None:
            v = values.get(name)
            return v.strip() if v is not None and v.strip() else None

        url = get("DATABASE_URL")
        path_name = "DATABASE_URL" if url is not None else "DATABASE_PATH"
        path, postgres = get("DATABASE_PATH"), None
        if url is not None:
            if url.startswith(POSTGRES_SCHEMES):
                postgres = url
            elif url.startswith(SQLITE_SCHEME) and url != SQLITE_SCHEME:
                path = url[len(SQLITE_SCHEME):]
            else:
                raise SettingsError("DATABASE_URL must be sqlite:///path/to/file.sqlite3 or "
                                    "postgresql://user:password@host:port/database")
        in_environment = bool((env.get(path_name) or "").strip())
        base = Path.cwd() if in_environment or env_file is None else env_file.parent
        return cls.build(
            token=get("DISCORD_TOKEN"),
            database_path=absolute_database_path(path or DEFAULT_DATABASE, base),
            database_url=postgres,
            dev_guild_id=get("DEV_GUILD_ID"),
            log_level=get("LOG_LEVEL"),
            computer_delay=get("COMPUTER_DELAY"),
            forced_delay=get("FORCED_DELAY"),
            computer_level=get("COMPUTER_LEVEL"),
            application_id=get("DISCORD_APPLICATION_ID"),
            table_seed=get("TABLE_SEED"),
            shard_count=get("SHARD_COUNT"),
            shards=get("SHARDS"),
            click_secret=get("CLICK_SECRET"),
            web_port=get("WEB_PORT"),
            web_host=get("WEB_HOST"),
            web_base_url=get("WEB_BASE_URL"),
            web_trusted_proxies=get("WEB_TRUSTED_PROXIES"),
            log_format=get("LOG_FORMAT"),
        )

    @property
    def database(self) -> str:
        """What the bot opens: the PostgreSQL URL, or else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def database_shown(self) -> str:
        """The database as a log line may show it (no password)."""
        if self.database_url is None:
            return self.database_path
        return redact(self.database_url)

    @classmethod
    def build(cls, **given: Any) -> Settings:
        """Settings from keyword values (strings are converted and checked)."""
        known = {f.name for f in fields(cls)}
        unknown = set(given) - known
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        s = replace(cls(), **{k: v for k, v in given.items() if v is not None})
        return s.checked()

    def checked(self) -> Settings:
        def as_id(name: str, v: Any) -> int | None:
            if v is None or isinstance(v, int):
                return v
            if not str(v).isdigit():
                raise SettingsError(f"{name} must be a numeric id, not {v!r}")
            return int(v)

        level = str(self.log_level).upper()
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        try:
            delay = float(self.computer_delay)
        except ValueError:
            raise SettingsError("COMPUTER_DELAY must be a number of seconds") from None
        if not 0 <= delay <= 30:
            raise SettingsError("COMPUTER_DELAY must be between 0 and 30 seconds")
        forced: float | None = None
        if self.forced_delay is not None and str(self.forced_delay).lower() != "off":
            try:
                forced = float(self.forced_delay)
            except ValueError:
                raise SettingsError("FORCED_DELAY must be a number of seconds or off") from None
            if not 0 <= forced <= 10:
                raise SettingsError("FORCED_DELAY must be between 0 and 10 seconds, or off")
        if self.computer_level not in ("random", "easy", "hard"):
            raise SettingsError("COMPUTER_LEVEL must be random, easy or hard")
        seed = self.table_seed
        if seed is not None and not isinstance(seed, int):
            try:
                seed = int(str(seed))
            except ValueError:
                raise SettingsError("TABLE_SEED must be a whole number") from None
        port = self.web_port
        if port is not None and not isinstance(port, int):
            if not str(port).strip().isdigit():
                raise SettingsError(f"WEB_PORT must be a port number, not {port!r}")
            port = int(str(port))
        if port is not None and not 0 <= port <= 65535:
            raise SettingsError("WEB_PORT must be between 0 and 65535")
        base_url = self.web_base_url
        if base_url is not None and not str(base_url).startswith(("http://", "https://")):
            raise SettingsError("WEB_BASE_URL must start with http:// or https://")
        proxies = checked_networks(self.web_trusted_proxies)
        log_format = str(self.log_format).lower()
        if log_format not in LOG_FORMATS:
            raise SettingsError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}")
        count, shards = checked_shards(self.shard_count, self.shards)
        if shards is not None and len(shards) < (count or 1) and self.database_url is None:
            raise SettingsError(
                f"SHARDS={shard_ranges(shards)} leaves the other shards to other processes, "
                "which must share one database: set DATABASE_URL=postgresql://... (a SQLite "
                "file serves one process; leave SHARDS unset to run every shard here)")
        return replace(self, log_level=level, computer_delay=delay, forced_delay=forced,
                       dev_guild_id=as_id("DEV_GUILD_ID", self.dev_guild_id),
                       application_id=as_id("DISCORD_APPLICATION_ID", self.application_id),
                       database_path=str(self.database_path), table_seed=seed,
                       shard_count=count, shards=shards, web_port=port,
                       web_trusted_proxies=proxies, log_format=log_format)


def checked_networks(value: Any) -> tuple[str, ...]:
    """WEB_TRUSTED_PROXIES as networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``; comma or space
    separated), each written in its normal form."""
    if isinstance(value, tuple):
        items = list(value)
    else:
        items = str(value).replace(",", " ").split()
    out = []
    for item in items:
        try:
            out.append(str(ipaddress.ip_network(str(item).strip(), strict=False)))
        except ValueError:
            raise SettingsError(
                f"WEB_TRUSTED_PROXIES must be addresses or networks (10.0.0.0/8, ::1), "
                f"comma separated, not {item!r}") from None
    return tuple(out)


def checked_shards(count: Any, shards: Any) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT as a number of at least 1 and SHARDS (``0-3``, ``0,2``, ``1``, or a
    tuple) as sorted shard ids below it; SHARDS alone is refused (it needs the count)."""
    if count is not None and not isinstance(count, int):
        if not str(count).strip().isdigit():
            raise SettingsError(f"SHARD_COUNT must be a whole number, not {count!r}")
        count = int(str(count))
    if count is not None and count < 1:
        raise SettingsError("SHARD_COUNT must be at least 1")
    if shards is None:
        return count, None
    if count is None:
        raise SettingsError("SHARDS needs SHARD_COUNT (the number of shards in all processes)")
    ids = shards if isinstance(shards, tuple) else parse_shard_ranges(str(shards))
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong:
        raise SettingsError(f"SHARDS names shard {wrong[0]}; with SHARD_COUNT={count} the "
                            f"shards are 0 to {count - 1}")
    return count, tuple(sorted(set(ids)))


def parse_shard_ranges(text: str) -> tuple[int, ...]:
    """``0-3`` -> (0, 1, 2, 3); ``0,2,5-6`` -> (0, 2, 5, 6)."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()) or \
                (dash and int(last) < int(first)):
            raise SettingsError(f"SHARDS must be shard ids or ranges such as 0-3 or 0,2, "
                                f"not {text!r}")
        ids.extend(range(int(first), int(last if dash else first) + 1))
    return tuple(ids)


def shard_ranges(ids: tuple[int, ...]) -> str:
    """The shard ids as ``SHARDS`` writes them: (0, 1, 2, 5) -> ``0-2,5``."""
    parts: list[str] = []
    start = prev = ids[0]
    for i in (*ids[1:], None):
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return ",".join(parts)


def read_env_file(path: str | Path | None) -> Path | None:
    """The absolute path of the env file to read, or None when there is none to read."""
    if path is None:
        return None
    resolved = Path(path).expanduser().resolve()
    return resolved if resolved.is_file() else None


def absolute_database_path(path: str, base: Path) -> str:
    if path == ":memory:":
        return path
    return str((base / Path(path).expanduser()).resolve())
