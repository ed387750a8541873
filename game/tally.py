"""What a match's stats count, read from a match: contracts taken and made per seat, capots or
valats per team, belotes per seat, and the score of each deal (pure; db/results stores it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .match import Match
from .scoring import Outcome


@dataclass(frozen=True, slots=True)
class Tally:
    taken: tuple[int, int, int, int] = (0, 0, 0, 0)
    made: tuple[int, int, int, int] = (0, 0, 0, 0)
    sweeps: tuple[int, int] = (0, 0)  # capots / valats won by each team
    belotes: tuple[int, int, int, int] = (0, 0, 0, 0)  # belotes completed (rebelote said)
    sheet: list[dict[str, Any]] = field(default_factory=list)  # per deal, JSON-ready


def tally(match: Match) -> Tally:
    taken = [0, 0, 0, 0]
    made = [0, 0, 0, 0]
    sweeps = [0, 0]
    belotes = [0, 0, 0, 0]
    sheet: list[dict[str, Any]] = []
    for deal, result in zip(match.deals, match.results, strict=False):
        c = result.contract
        for call in deal.belote_calls:
            if call.word == "rebelote":
                belotes[call.seat] += 1
        if result.sweep is not None:
            sweeps[result.sweep] += 1
        entry: dict[str, Any] = {"score": list(result.score), "outcome": str(result.outcome)}
        if c is not None and result.outcome is not Outcome.PASSED:
            taken[c.seat] += 1
            ok = result.outcome is Outcome.MADE
            made[c.seat] += int(ok)
            entry.update(taker=c.seat, contract=c.describe(), made=ok, sweep=result.sweep)
        sheet.append(entry)
    return Tally((taken[0], taken[1], taken[2], taken[3]), (made[0], made[1], made[2], made[3]),
                 (sweeps[0], sweeps[1]), (belotes[0], belotes[1], belotes[2], belotes[3]), sheet)
