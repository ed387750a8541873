"""A run of computer moves told to the delivery as one change.

At a table of one person and three computers, each card a computer plays used to be one edit
of the table message: three edits a trick that Discord counts against the bot's global request
limit, and the person watched the cards come one a second. A run (the computers' moves from a
person's action to the next person's turn: the end of a trick and the start of the next) is
now played after one computer delay and shown in one edit: the image shows the trick in
progress and the last trick with its winner, so nothing a player needs is lost.
"""

from __future__ import annotations

from collections.abc import Iterable

from .state import LiveTable, TableListener

# The most moves between two turns of one person at a table of four seats: the three others
# finish the trick, then up to three more lead the next one. A run ends there, or earlier when
# a person is to act or a deal ends.
RUN_MOVES = 6


class Batch:
    """A TableListener for one table that holds the changes of a run and tells ``listener``
    once (``flush``). A deal or match that ends, or the table closing, is told at once, after
    what was held, in the order the service told them."""

    def __init__(self, listener: TableListener, live: LiveTable) -> None:
        self.listener, self.live = listener, live
        self._table = False
        self._seats: set[int] = set()

    def table_changed(self, live: LiveTable) -> None:
        self._table = True

    def hands_changed(self, live: LiveTable, seats: Iterable[int]) -> None:
        self._seats.update(seats)

    def acted(self, live: LiveTable, seat: int) -> None:
        self.listener.acted(live, seat)  # nothing held: it is no change, only a head start

    def flush(self) -> None:
        """Tell the listener what the run changed (nothing if it changed nothing)."""
        table, seats = self._table, self._seats
        self._table, self._seats = False, set()
        if table:
            self.listener.table_changed(self.live)
        if seats:
            self.listener.hands_changed(self.live, sorted(seats))

    def deal_finished(self, live: LiveTable, deal_index: int) -> None:
        self.flush()
        self.listener.deal_finished(live, deal_index)

    def match_finished(self, live: LiveTable, ratings: dict[int, tuple[float, float]]) -> None:
        self.flush()
        self.listener.match_finished(live, ratings)

    def table_closed(self, live: LiveTable, reason: str) -> None:
        self.flush()
        self.listener.table_closed(live, reason)
