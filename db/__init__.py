"""Persistence: aiosqlite with WAL, numbered migrations, small typed repositories."""

from .connection import Database, Transaction
from .log import LogEntry, to_record
from .results import MatchPlayer, RatingRow
from .tables import ChoiceRow, SeatRow, TableRow, TableStatus

__all__ = ["ChoiceRow", "Database", "LogEntry", "MatchPlayer", "RatingRow", "SeatRow", "TableRow",
           "TableStatus", "Transaction", "to_record"]
