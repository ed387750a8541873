"""A table's stake in virtual credits: who pays what when (db/credits.py moves them).

Each person seated when the match starts stakes ``live.row.stake``; the winning team shares
the pot. A player who left and did not come back forfeits: the pot goes to the winners who
stayed (to the other team's players who stayed if both winners left). A player a moderator
removed (kicked) gets their stake back and shares nothing: nobody gains from a kick, and the
pot holds only the stakes of those who were not removed. A match ended before a winner returns
every stake; one abandoned (the sweeper) returns every stake but its idle players'
(``abandoned_credits``). Every movement is keyed by the table and the member, so a payout
retried after a crash moves nothing twice.
"""

from __future__ import annotations

from collections.abc import Collection

from db.credits import Move
from db.tables import KICKED

from .state import LiveTable


def staked(live: LiveTable) -> list[int]:
    """The people who stake (or staked) at this table, by seat."""
    if not live.row.stake:
        return []
    return [s.user_id for s in sorted(live.seats.values(), key=lambda s: s.seat)
            if s.user_id is not None]


def stakes_taken(live: LiveTable) -> list[Move]:
    return [Move(u, -live.row.stake, "stake", f"stake:{live.id}:{u}", table_id=live.id)
            for u in staked(live)]


def stakes_returned(live: LiveTable) -> list[Move]:
    return [Move(u, live.row.stake, "refund", f"refund:{live.id}:{u}", table_id=live.id)
            for u in staked(live)]


def kicked(live: LiveTable) -> set[int]:
    """The people a moderator removed from this match (not those removed from its lobby)."""
    return {s.user_id for s in live.seats.values()
            if s.user_id is not None and s.departed == KICKED}


def _refunds(live: LiveTable, people: Collection[int]) -> list[Move]:
    return [Move(u, live.row.stake, "refund", f"refund:{live.id}:{u}", table_id=live.id)
            for u in staked(live) if u in people]


def pot_paid(live: LiveTable, winner: int) -> list[Move]:
    """The pot for team ``winner`` (0: seats 0 and 2): shared by its players who stayed; the
    people removed from the match have their own stakes back."""
    people = staked(live)
    if not people:
        return []
    removed = kicked(live)
    gone = set(live.leavers())  # the removed ones included: they share nothing
    by_team = [[s.user_id for s in sorted(live.seats.values(), key=lambda s: s.seat)
                if s.user_id is not None and s.seat % 2 == team and s.user_id not in gone]
               for team in (0, 1)]
    takers = by_team[winner] or by_team[1 - winner]
    if not takers:
        return stakes_returned(live)
    pot = live.row.stake * (len(people) - len(removed))
    share, extra = divmod(pot, len(takers))
    return _refunds(live, removed) + [
        Move(u, share + (extra if i == 0 else 0), "pot", f"pot:{live.id}:{u}",
             table_id=live.id) for i, u in enumerate(takers)]


def abandoned_credits(live: LiveTable, idle: Collection[int]) -> list[Move]:
    """An abandoned match: every stake comes back but the idle players' (``idle``), which
    nobody receives: nobody should gain from another going quiet."""
    return _refunds(live, [u for u in staked(live) if u not in idle])
