"""What the log lines of a task are about: the server and the table, as context variables.

The table's door sets them (``about_table``) so every line a change writes, in its task and
the tasks it starts, names its table; the bot's JSON log format reads them
(bot/logjson.py), and sets the server as an interaction arrives.
"""

from __future__ import annotations

from contextvars import ContextVar

GUILD: ContextVar[int | None] = ContextVar("belote_log_guild", default=None)
TABLE: ContextVar[int | None] = ContextVar("belote_log_table", default=None)


def about_table(table_id: int, guild_id: int) -> None:
    """What follows in this task (and the tasks it starts) is about this table."""
    TABLE.set(table_id)
    GUILD.set(guild_id)
