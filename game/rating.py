"""Player ratings: Elo per team, pure maths (the database stores what this computes).

The interface is small on purpose (``rate``: the teams' current ratings and the winner in, the
new ratings out) so that another rating system can replace it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

START_RATING = 1500.0
K_FACTOR = 32.0
# Computers are not rated; they count as a fixed strength so beating them is worth something.
COMPUTER_RATING = {"random": 1200.0, "easy": 1400.0, "hard": 1600.0}


def expected(rating: float, opponent: float) -> float:
    """The chance Elo gives ``rating`` to beat ``opponent``."""
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / 400.0)))


def rate(teams: Sequence[Sequence[float]], winner: int) -> list[list[float]]:
    """The new ratings of two teams' players after ``winner`` (0 or 1) won: each player moves
    by K times their team's surprise, the team's strength being its players' mean."""
    strength = [sum(team) / len(team) for team in teams]
    out = []
    for t, team in enumerate(teams):
        won = int(t == winner)
        change = K_FACTOR * (won - expected(strength[t], strength[1 - t]))
        out.append([r + change for r in team])
    return out


class SeatHolder(Protocol):
    """Who sat where: a person (``user_id``) or a computer (``computer``, its level)."""

    @property
    def seat(self) -> int: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def computer(self) -> str | None: ...


def strength(holder: SeatHolder, stored: Mapping[int, float]) -> float:
    """A seat's current rating: the person's (a newcomer starts at START_RATING), or the fixed
    strength of the computer's level."""
    if holder.user_id is not None:
        return stored.get(holder.user_id, START_RATING)
    return COMPUTER_RATING.get(holder.computer or "", START_RATING)


def match_ratings(players: Sequence[SeatHolder], stored: Mapping[int, float],
                  winner: int) -> dict[int, tuple[float, float]]:
    """{seat: (rating before, rating after)} for every seat a person played, after the team
    ``winner`` won; ``stored``: the ratings people have (partners sit at seats of one parity)."""
    teams = [[p for p in players if p.seat & 1 == t] for t in (0, 1)]
    after = rate([[strength(p, stored) for p in team] for team in teams], winner)
    return {p.seat: (strength(p, stored), new)
            for team, news in zip(teams, after, strict=True)
            for p, new in zip(team, news, strict=True) if p.user_id is not None}
