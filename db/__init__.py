"""Persistence: SQLite (aiosqlite, WAL) by default or PostgreSQL (asyncpg) behind one Database,
numbered migrations for each, small typed repositories (docs/postgresql.md)."""

from . import postgres, sqlite  # the backends: each registers the targets it opens
from .connection import Database, Transaction
from .log import LogEntry, to_record
from .results import MatchPlayer, RatingRow
from .tables import ChoiceRow, SeatRow, TableRow, TableStatus

__all__ = [
           "ChoiceRow",
           "Database",
           "LogEntry",
           "MatchPlayer",
           "RatingRow",
           "SeatRow",
           "TableRow",
           "TableStatus",
           "Transaction",
           "postgres",
           "sqlite",
           "to_record",
]
