"""game.rating: Elo per team, pure; the database stores what it computes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from game.rating import COMPUTER_RATING, K_FACTOR, START_RATING, match_ratings, rate


@dataclass(frozen=True)
class Sat:
    seat: int
    user_id: int | None
    computer: str | None = None


def test_equal_teams_move_by_half_k() -> None:
    after = rate([[1500.0, 1500.0], [1500.0, 1500.0]], winner=0)
    assert after == [[1500.0 + K_FACTOR / 2] * 2, [1500.0 - K_FACTOR / 2] * 2]


def test_an_upset_moves_more_than_an_expected_win() -> None:
    expected_win = rate([[1700.0, 1700.0], [1300.0, 1300.0]], winner=0)
    upset = rate([[1700.0, 1700.0], [1300.0, 1300.0]], winner=1)
    assert 0 < expected_win[0][0] - 1700.0 < upset[1][0] - 1300.0
    # What one team gains the other loses.
    assert sum(upset[0]) + sum(upset[1]) == pytest.approx(2 * 1700.0 + 2 * 1300.0)


def test_match_ratings_start_newcomers_and_count_computers_at_their_level() -> None:
    players = [Sat(0, 1), Sat(1, 2), Sat(2, 3), Sat(3, None, "easy")]
    out = match_ratings(players, {2: 1600.0}, winner=0)
    assert set(out) == {0, 1, 2}  # the computer is not rated
    assert out[0][0] == START_RATING and out[1][0] == 1600.0
    # The computer counts at its level's strength in its team.
    new = rate([[START_RATING, START_RATING], [1600.0, COMPUTER_RATING["easy"]]], 0)
    assert out[0] == (START_RATING, new[0][0]) and out[1] == (1600.0, new[1][0])
    assert out[0][1] > START_RATING and out[1][1] < 1600.0
