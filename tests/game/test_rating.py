"""game.rating: OpenSkill (Weng-Lin Plackett-Luce) per team, pure; the database stores what it
computes. Who moves: four people played out; never with a computer; only the leaver."""

from __future__ import annotations

import pytest

from game.rating import NEW, Seat, Skill, changes, pair_changes, rate


def four(*users: int | None) -> list[Seat]:
    return [Seat(seat, u) for seat, u in enumerate(users)]


def test_a_newcomer_shows_1000_and_equal_teams_move_by_the_same_amount() -> None:
    assert NEW.shown == 1000.0 and NEW.conservative == 0.0
    after = rate([[NEW, NEW], [NEW, NEW]], winner=0)
    up, down = after[0][0].mu - NEW.mu, NEW.mu - after[1][0].mu
    assert up > 0 and up == pytest.approx(down)
    assert all(s.sigma < NEW.sigma for team in after for s in team)  # surer of everyone


def test_an_upset_moves_more_than_an_expected_win() -> None:
    strong, weak = Skill(30.0, 2.0), Skill(20.0, 2.0)
    expected_win = rate([[strong, strong], [weak, weak]], winner=0)
    upset = rate([[strong, strong], [weak, weak]], winner=1)
    assert 0 < expected_win[0][0].mu - 30.0 < upset[1][0].mu - 20.0


def test_winners_go_up_losers_down_newcomers_start_new() -> None:
    out = changes(four(1, 2, 3, 4), {2: Skill(28.0, 3.0)}, winner=1)
    assert set(out) == {1, 2, 3, 4}
    assert out[1][0] == NEW and out[2][0] == Skill(28.0, 3.0)
    assert out[2][1].mu > 28.0 and out[4][1].mu > NEW.mu
    assert out[1][1].mu < NEW.mu and out[3][1].mu < NEW.mu


def test_computers_move_nobody_and_an_unfinished_match_moves_nobody() -> None:
    assert changes(four(1, 2, 3, None), {}, winner=0) == {}
    assert changes(four(1, 2, 3, 4), {}, winner=None) == {}
    assert pair_changes(four(1, 2, 3, None), {}, winner=0) == {}


def test_a_leaver_alone_loses_even_when_their_team_wins() -> None:
    out = changes(four(1, 2, 3, 4), {}, winner=0, left={1})
    assert list(out) == [1] and out[1][1].mu < NEW.mu
    assert pair_changes(four(1, 2, 3, 4), {}, winner=0, left={1}) == {}


def test_pairs_are_rated_as_one_player() -> None:
    out = pair_changes(four(3, 2, 1, 4), {}, winner=0)
    assert set(out) == {(1, 3), (2, 4)}
    assert out[(1, 3)][1].mu > NEW.mu > out[(2, 4)][1].mu
