"""The live tables: the service the cogs call, the table state it keeps, why it refuses."""

from .refusals import Refusal, said
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
           "Refusal", "SeatChoice", "TableListener", "TableService", "said"]
