"""A tournament's entry fees and prizes in virtual credits (db/credits.py moves them).

Each member who signs up to a tournament with an entry fee pays it into the prize pool (a
computer playing an empty place pays nothing); leaving before the start or a cancelled
tournament gives it back. At the end the pool goes to the winners and the runners-up, split by
the server's ``tournament_prize_split`` (the winners' percentage). A prize goes only to a
member still in (one who left is played by a computer and gets none: their partner gets the
pair's share); a pair with nobody left to pay gives its share to the other pair.
"""

from __future__ import annotations

from collections.abc import Sequence

from db.credits import Move
from db.tournaments import TournamentRow


def fee_taken(row: TournamentRow, user_id: int) -> Move:
    return Move(user_id, -row.entry_fee, "entry_fee", f"fee:{row.id}:{user_id}",
                tournament_id=row.id)


def fee_returned(row: TournamentRow, user_id: int) -> Move:
    return Move(user_id, row.entry_fee, "refund", f"fee-refund:{row.id}:{user_id}",
                tournament_id=row.id)


def _shares(pool: int, people: Sequence[int]) -> list[tuple[int, int]]:
    share, extra = divmod(pool, len(people))
    return [(u, share + (extra if i == 0 else 0)) for i, u in enumerate(people)]


def prizes(row: TournamentRow, payers: Sequence[int], winners: Sequence[int],
           runners_up: Sequence[int], out: set[int], split: int) -> list[Move]:
    """The prizes of a finished tournament: ``payers`` paid the fee; ``out`` left."""
    if not row.entry_fee or not payers:
        return []
    pool = row.entry_fee * len(payers)
    first = [u for u in winners if u > 0 and u not in out]
    second = [u for u in runners_up if u > 0 and u not in out]
    if not first and not second:
        return [fee_returned(row, u) for u in payers]
    to_first = pool * split // 100 if second else pool
    if not first:
        to_first = 0
    paid = _shares(to_first, first) if first else []
    if second:
        paid += _shares(pool - to_first, second)
    return [Move(u, amount, "prize", f"prize:{row.id}:{u}", tournament_id=row.id)
            for u, amount in paid if amount > 0]
