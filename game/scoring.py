"""Deal scoring for each variant: made, failed, equality, capot/valat, doubling, rounding.

Functions here see only totals per team; the deal collects them. Held (litige, hanging) points
are created here and carried between deals by the match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .announcements import Announcement
from .contract import Contract
from .rules import Trump, Variant


class Outcome(StrEnum):
    MADE = "made"
    FAILED = "failed"
    LITIGE = "litige"
    HANGING = "hanging"
    PASSED = "passed"


@dataclass(frozen=True, slots=True)
class DealScore:
    outcome: Outcome
    score: tuple[int, int]  # what each team scores for the deal, before held points collected
    held: int = 0  # points this deal puts on hold for the winner of a later deal
    raw: tuple[int, int] | None = None  # bulgarian: points before division and rounding


@dataclass(frozen=True, slots=True)
class DealResult:
    """Everything the deal sheet and the record's replay show about a finished deal."""

    contract: Contract | None
    card_points: tuple[int, int]
    last_trick: int | None
    announcements: tuple[Announcement, ...]
    scored: tuple[bool, ...]  # one per announcement
    belote: tuple[int, int]
    sweep: int | None  # the team that took all eight tricks (capot, valat)
    outcome: Outcome
    raw: tuple[int, int] | None  # bulgarian points before rounding
    score: tuple[int, int]  # as added to the match, held points collected included
    held_created: int
    collected: tuple[int, int]  # held points each team collected in this deal
    hanging: int  # all points still held after this deal
    totals: tuple[int, int]


# Enum members as module constants: reading one off its class goes through the enum
# metaclass's __getattr__ hook (about a microsecond), and these are read on every deal.
_MADE: Final = Outcome.MADE
_FAILED: Final = Outcome.FAILED
_LITIGE: Final = Outcome.LITIGE
_HANGING: Final = Outcome.HANGING
_PASSED: Final = Outcome.PASSED
_NO_TRUMPS: Final = Trump.NO_TRUMPS


def score_classic(contract: Contract, card_points: tuple[int, int], sweep: int | None,
                  ann: tuple[int, int], belote: tuple[int, int]) -> DealScore:
    t = contract.team
    d = 1 - t
    base = list(card_points)
    if sweep is not None:
        base[sweep] = 252
    # Written out (no comprehension, no keywords): one scoring a deal, and the bid search
    # scores many.
    pts = [base[0] + ann[0] + belote[0], base[1] + ann[1] + belote[1]]
    score = [0, 0]
    if pts[t] > pts[d]:
        return DealScore(_MADE, (pts[0], pts[1]), 0, None)
    if pts[t] < pts[d]:
        score[d] = (252 if sweep == d else 162) + ann[0] + ann[1] + belote[d]
        score[t] = belote[t]
        return DealScore(_FAILED, (score[0], score[1]), 0, None)
    score[d] = pts[d]
    score[t] = belote[t]
    return DealScore(_LITIGE, (score[0], score[1]), pts[t] - belote[t], None)


def score_coinche(contract: Contract, card_points: tuple[int, int], sweep: int | None,
                  ann: tuple[int, int], belote: tuple[int, int]) -> DealScore:
    t = contract.team
    d = 1 - t
    value = contract.value
    assert value is not None
    made_pts = [(250 if sweep == 0 else card_points[0]) + belote[0] + ann[0],
                (250 if sweep == 1 else card_points[1]) + belote[1] + ann[1]]
    made = sweep == t if contract.is_capot_bid else made_pts[t] >= value
    score = [0, 0]
    if contract.multiplier == 1:
        if made:
            score[t] = value + made_pts[t]
            score[d] = made_pts[d]
        else:
            score[d] = 160 + value + ann[0] + ann[1] + belote[d]
            score[t] = belote[t]
    else:
        w = t if made else d
        score[w] = 160 + contract.multiplier * value + ann[0] + ann[1] + belote[w]
        score[1 - w] = belote[1 - w]
    return DealScore(_MADE if made else _FAILED, (score[0], score[1]), 0, None)


LIMIT_DIGIT = {Trump.NO_TRUMPS: 5, Trump.ALL_TRUMPS: 4}  # suit contracts: 6


def limit_digit(trump: Trump) -> int:
    return LIMIT_DIGIT.get(trump, 6)


def round_points(points: int, limit: int, up_on_limit: bool) -> int:
    """Divide by 10: last digit above the limit rounds up, below rounds down, on it as told."""
    q, digit = divmod(points, 10)
    if digit > limit or (digit == limit and up_on_limit):
        return q + 1
    return q


def round_pair(raw: tuple[int, int], limit: int, up_on_tie: int) -> tuple[int, int]:
    """Round both teams' points. On the limit digit the team with fewer points rounds up and the
    other down; on equal points the team ``up_on_tie`` rounds up."""
    a, b = raw
    if a == b:
        return (round_points(a, limit, up_on_tie == 0), round_points(b, limit, up_on_tie == 1))
    return (round_points(a, limit, a < b), round_points(b, limit, b < a))


def score_bulgarian(contract: Contract, card_points: tuple[int, int], sweep: int | None,
                    ann: tuple[int, int], belote: tuple[int, int]) -> DealScore:
    t = contract.team
    d = 1 - t
    factor = 2 if contract.trump is _NO_TRUMPS else 1
    raw = (card_points[0] * factor + ann[0] + belote[0] + (90 if sweep == 0 else 0),
           card_points[1] * factor + ann[1] + belote[1] + (90 if sweep == 1 else 0))
    limit = limit_digit(contract.trump)
    mult = contract.multiplier
    if mult == 1:
        if raw[t] > raw[d]:
            return DealScore(_MADE, round_pair(raw, limit, t), 0, raw)
        if raw[t] < raw[d]:
            score = [0, 0]
            # Everything to the defence, summed first and rounded once.
            score[d] = round_points(raw[0] + raw[1], limit, False)
            return DealScore(_FAILED, (score[0], score[1]), 0, raw)
        rounded = round_pair(raw, limit, t)
        score = [0, 0]
        score[d] = rounded[d]
        return DealScore(_HANGING, (score[0], score[1]), rounded[t], raw)
    total = round_points(raw[0] + raw[1], limit, False) * mult
    if raw[0] == raw[1]:
        return DealScore(_HANGING, (0, 0), total, raw)
    w = 0 if raw[0] > raw[1] else 1
    score = [0, 0]
    score[w] = total
    return DealScore(_MADE if w == t else _FAILED, (score[0], score[1]), 0, raw)


def with_held(ds: DealScore, hanging: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """What a deal adds to each team's total, with the ``hanging`` points held from earlier
    deals, and what each team collected of them: the team that scores more for a deal that is
    not itself an equality (litige, hanging) nor passed collects them all."""
    score = ds.score
    if hanging and score[0] != score[1] and ds.outcome is not _PASSED and \
            ds.outcome is not _LITIGE and ds.outcome is not _HANGING:
        if score[0] > score[1]:
            return (score[0] + hanging, score[1]), (hanging, 0)
        return (score[0], score[1] + hanging), (0, hanging)
    return score, (0, 0)


Scorer = Callable[[Contract, tuple[int, int], int | None, tuple[int, int], tuple[int, int]],
                  DealScore]


def scorer_for(variant: Variant) -> Scorer:
    """The scoring function of ``variant``: (contract, card points, sweep, announcements,
    belote) to the deal's score."""
    return _SCORERS[variant]


_SCORERS: dict[Variant, Scorer] = {Variant.CLASSIC: score_classic, Variant.COINCHE: score_coinche,
                                   Variant.BULGARIAN: score_bulgarian}
