"""Ratings: OpenSkill's Weng-Lin Plackett-Luce model for team games, pure maths (the database
stores what this computes, and the rebuild runs it again over the stored matches).

Each player (and each pair that played together) has a skill ``mu`` and an uncertainty
``sigma``. Boards rank by the conservative value ``mu - 3 sigma`` (a newcomer with one lucky
win does not top the board), shown on a familiar scale: ``1000 + 40 (mu - 3 sigma)``
(a newcomer shows 1000; one beta = 25/6 of skill, about a 76% chance to win, is 167 points).

Who moves (``changes``): only matches played out by four people; a match with a computer
moves nobody; a match someone left moves only the leavers, each as a loss.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
SHOWN_BASE = 1000.0
SHOWN_SCALE = 40.0


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return self.mu - 3.0 * self.sigma

    @property
    def shown(self) -> float:
        """The rating people see."""
        return SHOWN_BASE + SHOWN_SCALE * self.conservative


NEW = Skill(_MODEL.mu, _MODEL.sigma)


def rate(teams: Sequence[Sequence[Skill]], winner: int) -> list[list[Skill]]:
    """The teams' skills after ``winner`` (their index) won."""
    ratings = [[_MODEL.create_rating([s.mu, s.sigma]) for s in team] for team in teams]
    ranks = [0.0 if t == winner else 1.0 for t in range(len(teams))]
    out = _MODEL.rate(ratings, ranks=ranks)
    return [[Skill(float(r.mu), float(r.sigma)) for r in team] for team in out]


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a finished match: a person (``user_id``) or a computer (``user_id`` None)."""

    seat: int
    user_id: int | None

    @property
    def team(self) -> int:
        return self.seat & 1


def rated(seats: Sequence[Seat], winner: int | None, left: Collection[int]) -> bool:
    """Whether the match moves any rating: four people, and a winner or someone who left."""
    people = all(s.user_id is not None for s in seats) and len(seats) == 4
    return people and (winner is not None or bool(left))


def changes(seats: Sequence[Seat], skills: Mapping[int, Skill], winner: int | None,
            left: Collection[int] = ()) -> dict[int, tuple[Skill, Skill]]:
    """{user_id: (skill before, after)} of the players the match moves. ``skills``: the stored
    skills (newcomers have none); ``left``: the user ids of the players who left."""
    if not rated(seats, winner, left):
        return {}
    teams = [[s for s in seats if s.team == t] for t in (0, 1)]
    before = {s.user_id: skills.get(s.user_id, NEW) for s in seats if s.user_id is not None}
    out: dict[int, tuple[Skill, Skill]] = {}
    if left:
        # Only the leaver moves, rated as a loss of their team against the other team.
        for s in seats:
            if s.user_id is None or s.user_id not in left:
                continue
            after = rate([[before[p.user_id] for p in team if p.user_id is not None]
                          for team in teams], 1 - s.team)
            mine = [p for p in teams[s.team]].index(s)
            out[s.user_id] = (before[s.user_id], after[s.team][mine])
        return out
    assert winner is not None
    after = rate([[before[p.user_id] for p in team if p.user_id is not None]
                  for team in teams], winner)
    for team, news in zip(teams, after, strict=True):
        for p, new in zip(team, news, strict=True):
            assert p.user_id is not None
            out[p.user_id] = (before[p.user_id], new)
    return out


Pair = tuple[int, int]


def pair_of(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def pairs(seats: Sequence[Seat]) -> list[Pair] | None:
    """The two pairs (team 0's, team 1's) of four people, or None."""
    if len(seats) != 4 or any(s.user_id is None for s in seats):
        return None
    out = []
    for t in (0, 1):
        a, b = (s.user_id for s in seats if s.team == t)
        assert a is not None and b is not None
        if a == b:
            return None
        out.append(pair_of(a, b))
    return out


def pair_changes(seats: Sequence[Seat], skills: Mapping[Pair, Skill], winner: int | None,
                 left: Collection[int] = ()) -> dict[Pair, tuple[Skill, Skill]]:
    """The pairs' skills before and after: only matches played out by four people, nobody
    having left, move pair ratings (each pair rated as one player)."""
    both = pairs(seats)
    if both is None or winner is None or left:
        return {}
    before = [skills.get(p, NEW) for p in both]
    after = rate([[before[0]], [before[1]]], winner)
    return {p: (before[i], after[i][0]) for i, p in enumerate(both)}
