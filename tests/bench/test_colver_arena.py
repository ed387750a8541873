"""bench/colver_arena.py: the mapping between our Contrée and colver's, and one twin deal.

colver is the benchmark's optional dependency (`pip install '.[arena]'`, which the test command
installs): without it these tests are skipped, saying so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

colver = pytest.importorskip(
    "colver", reason="colver is not installed: pip install -e '.[test,arena]' runs the arena tests")

from bench.colver_arena import (  # noqa: E402
    OPTIONS,
    ColverTable,
    RuleMismatch,
    from_colver_action,
    from_colver_card,
    main,
    same_card_points,
    to_colver_action,
    to_colver_card,
)
from game.actions import CAPOT, CoincheBid, Contre, Pass, Play, Surcontre  # noqa: E402
from game.cards import RANK_LETTERS, SUIT_SYMBOLS, Suit, cards_of  # noqa: E402
from game.match import Match  # noqa: E402
from game.players import RandomPlayer  # noqa: E402
from game.rules import Variant  # noqa: E402
from game.view import Stage, table_view  # noqa: E402


def test_every_card_maps_to_the_same_card_in_colver() -> None:
    for card in range(32):
        rank = RANK_LETTERS[card & 7].replace("T", "10")
        assert colver.Env.card_name(to_colver_card(card)) == rank + SUIT_SYMBOLS[card >> 3]
        assert from_colver_card(to_colver_card(card)) == card
    assert sorted(to_colver_card(c) for c in range(32)) == list(range(32))


def test_every_bid_maps_to_the_same_bid_in_colver() -> None:
    name = colver.Env.action_name
    assert name(to_colver_action(CoincheBid(80, Suit.SPADES)), 0) == "80♠"
    assert name(to_colver_action(CoincheBid(120, Suit.HEARTS)), 0) == "120♥"
    assert name(to_colver_action(CoincheBid(160, Suit.CLUBS)), 0) == "160♣"
    assert name(to_colver_action(CoincheBid(CAPOT, Suit.DIAMONDS)), 0) == "Capot♦"
    assert name(to_colver_action(Pass()), 0) == "Pass"
    assert name(to_colver_action(Contre()), 0) == "Coinche"
    assert name(to_colver_action(Surcontre()), 0) == "Surcoinche"
    for action in range(43):
        assert to_colver_action(from_colver_action(action, bidding=True)) == action
    assert from_colver_action(to_colver_card(5), bidding=False) == Play(5)


def test_both_referees_allow_the_same_actions_with_the_options_used() -> None:
    """Random deals (random bids: contres and surcontres too) replayed into colver: it accepts
    every action of ours, and gives the same legal cards at every turn."""
    turns = 0
    for seed in range(12):
        match = Match(Variant.COINCHE, OPTIONS, first_dealer=seed & 3)
        deal = match.start_deal(match.new_deck(seed))
        table = ColverTable(deal, (), seed)
        rng = RandomPlayer(seed)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = table_view(match, seat)
            bidding = view.stage is Stage.BIDDING
            if not bidding:
                table.apply_forced_passes()
                assert sorted(table.env.legal_actions()) == sorted(
                    to_colver_card(c) for c in cards_of(deal.legal_cards()))
                turns += 1
            action = rng.choose(view)
            table.apply(seat, action, bidding)
            match.apply(action, seat)
        if deal.contract is not None:
            assert same_card_points(match.results[-1].card_points, table.card_points())
    assert turns > 100


def test_a_capot_counts_252_in_colver_and_162_here() -> None:
    assert same_card_points([162, 0], [252, 0]) and same_card_points([0, 162], [0, 252])
    assert same_card_points([100, 62], [100, 62]) and same_card_points(None, None)
    assert not same_card_points([100, 62], [90, 72])
    assert not same_card_points([152, 10], [252, 0])


def test_an_action_colver_refuses_stops_the_run() -> None:
    match = Match(Variant.COINCHE, OPTIONS, first_dealer=3)  # seat 0 speaks first
    table = ColverTable(match.start_deal(match.new_deck(1)), (), 1)
    with pytest.raises(RuleMismatch, match="colver expects seat 0"):
        table.apply(1, Pass(), bidding=True)
    table.apply(0, CoincheBid(90, Suit.SPADES), bidding=True)
    with pytest.raises(RuleMismatch, match="colver refuses 80♥"):
        table.apply(1, CoincheBid(80, Suit.HEARTS), bidding=True)


def test_a_twin_deal_runs_and_both_referees_count_the_same_points(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "colver.jsonl"
    assert main(["--twins", "1", "--jobs", "1", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["a_team"] for r in rows) == [0, 1]  # the same deck, seats swapped
    assert {r["seed"] for r in rows} == {0}
    for r in rows:
        assert same_card_points(r["card_points"], r["colver_card_points"])
        assert r["colver_determinizations_min"] in (None, 20)
    capsys.readouterr()
    assert main(["--report", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["twins"] == 1 and summary["deals"] == 2
    assert summary["card_points_disagree"] == 0
    assert summary["a_points_per_twin_over_b"] == sum(r["a_minus_b"] for r in rows)
