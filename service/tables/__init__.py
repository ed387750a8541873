"""The live tables: the service the cogs call and the table state it keeps."""

from .service import TableService
from .state import (
    TURN_TIMERS,
    LiveTable,
    NewTable,
    NullListener,
    SeatChoice,
    TableListener,
)

__all__ = ["TURN_TIMERS", "LiveTable", "NewTable", "NullListener",
           "SeatChoice", "TableListener", "TableService"]
