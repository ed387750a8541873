"""``LOG_FORMAT=json``: one JSON object a line (time, level, logger, message, guild, table,
shard), for log collectors. A formatter only, put on the handlers bot/logs.py sets up: their
filters (the token's redaction) run before it, whatever the format.

The server and the table a line is about come from context variables: the server is set as an
interaction arrives (discord.py's parser of INTERACTION_CREATE, so every task its handling
starts inherits it), the table (and its server) when a change goes through the table's door.
A line may also pass them itself (``extra={"guild": ..., "table": ...}``). What a line says is
its message as the text format writes it: never a hand (no log line prints one), and the
token is replaced before it gets here.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from service.log_context import GUILD, TABLE

if TYPE_CHECKING:
    import discord


def tag_interactions(client: discord.Client) -> None:
    """Every interaction's handling knows its server: set as it arrives, before discord.py
    starts the tasks that handle it (they inherit it), and put back after."""
    def tagged(data: Any) -> None:
        guild = data.get("guild_id")
        guild_token = GUILD.set(int(guild) if guild else None)
        table_token = TABLE.set(None)
        try:
            parse(data)
        finally:
            GUILD.reset(guild_token)
            TABLE.reset(table_token)

    parse = on_interaction_create(client, tagged)


def on_interaction_create(client: discord.Client, parser: Callable[[Any], None]
                          ) -> Callable[[Any], None]:
    """Put ``parser`` in the place of discord.py's parser of INTERACTION_CREATE (the gateway
    reads it from the state's table of parsers; the state's method is replaced too, for
    whoever calls it by name); returns the parser it replaced, which ``parser`` must call."""
    state = client._connection
    parse: Callable[[Any], None] = state.parsers["INTERACTION_CREATE"]
    state.parsers["INTERACTION_CREATE"] = parser
    setattr(state, "parse_interaction_create", parser)  # noqa: B010
    return parse


def use_json_lines(shard_count: int = 1, shards: str = "0") -> None:
    """Every handler of the root logger (bot/logs.py: setup_logging) writes JSON lines from
    now on; its filters stay as they are."""
    for handler in logging.getLogger().handlers:
        handler.setFormatter(JsonFormatter(shard_count, shards))


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON. ``shard_count``: the bot's shards in all, to name the
    shard of a server; ``shards``: this process's, for a line about no server."""

    def __init__(self, shard_count: int = 1, shards: str = "0") -> None:
        super().__init__()
        self.shard_count, self.shards = max(1, shard_count), shards

    def format(self, record: logging.LogRecord) -> str:
        guild = getattr(record, "guild", None) or GUILD.get()
        table = getattr(record, "table", None) or TABLE.get()
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "guild": str(guild) if guild is not None else None,
            "table": table,
            "shard": str((int(guild) >> 22) % self.shard_count) if guild is not None
            else self.shards,
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False)
