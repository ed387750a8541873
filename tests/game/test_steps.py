"""A finished match step by step (game/steps.py), as the web replay shows it: one step for each
deal's start and each action; every card leaves its player's hand for the trick; a trick's last
card shows the whole trick and who took it; the card points and totals follow the deal sheets;
the last step shows the match's final totals."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from game.actions import Play
from game.record import parse_record, replay, replay_summary, to_record
from game.rules import Variant
from game.scoring import Outcome
from game.steps import computer_seats, decided, is_card, step_counts, steps

from .test_properties import play_random


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("seed", [1, 7])
def test_the_steps_of_a_match_follow_its_record(variant: Variant, seed: int) -> None:
    options: dict[str, Any] = {"target": 301} if variant is not Variant.BULGARIAN else {}
    match = play_random(variant, options, 2, seed, max_deals=40, check=False)
    assert match.is_over
    record = to_record(match)
    out = steps(record)
    assert len(out) == sum(1 + len(d["actions"]) for d in record["deals"])
    replayed = replay(record)
    assert out[-1].totals == tuple(replayed.totals) == tuple(match.totals)
    assert out[-1].result == replayed.results[-1]
    counts = step_counts(record)
    assert sum(counts) == len(out)
    start = 0
    for deal, count in enumerate(counts):  # one deal's steps are the same on their own
        assert steps(record, deal) == out[start:start + count]
        start += count

    for before, step in pairwise(out):
        if step.seat is None:  # a deal's start: its first cards dealt, nothing played
            assert step.deal == before.deal + 1 and step.trick == () and step.result is None
            assert step.totals == before.totals and step.card_points == (0, 0)
            assert before.result is not None  # the previous deal ended on the step before
            continue
        assert step.deal == before.deal
        assert step.action is not None
        if isinstance(step.action, Play):
            card = step.action.card
            assert card in before.hands[step.seat] and card not in step.hands[step.seat]
            assert (step.seat, card) == step.trick[-1]
            assert sum(map(len, step.hands)) == sum(map(len, before.hands)) - 1
            if step.trick_winner is not None:
                assert len(step.trick) == 4
                assert sum(step.tricks_won) == sum(before.tricks_won) + 1
                assert step.trick_winner & 1 == next(
                    t for t in (0, 1) if step.tricks_won[t] > before.tricks_won[t])
            else:
                assert step.card_points == before.card_points
                fresh = before.trick_winner is not None or not before.trick
                assert len(step.trick) == (1 if fresh else len(before.trick) + 1)
        else:
            assert step.trick == () and step.card_points == (0, 0)
        if step.result is not None:
            assert step.result.totals == step.totals
            assert step.totals == replayed.results[step.deal].totals
        else:
            assert step.totals == before.totals


RECORDS = Path(__file__).parent / "records"


# Seeds of random matches of eight deals (a cut deck for the odd ones) with what changes the
# state a deal starts from: classic's litige (3) and a passed deal (188), bulgarian's hanging
# points (9) and a passed deal (154); coinche's random bids are only ever failed.
SEEDS = {Variant.CLASSIC: (3, 188), Variant.COINCHE: (1, 2), Variant.BULGARIAN: (9, 154)}


def _records() -> list[tuple[str, dict[str, Any]]]:
    """The shipped game records, random matches of every variant (see SEEDS), and a match
    stopped before its end (a finished row need not be a won match: abandoned)."""
    out = [(p.name, json.loads(p.read_text())) for p in sorted(RECORDS.glob("*.json"))]
    for variant, seeds in SEEDS.items():
        for seed in seeds:
            options: dict[str, Any] = {"shuffle": "cut" if seed & 1 else "random",
                                       "announcements": True, "target": 100_000,
                                       "deal_cap": 8}
            match = play_random(variant, options, seed & 3, seed, max_deals=40, check=False)
            assert match.is_over
            out.append((f"{variant.value}-{seed}", to_record(match)))
        stopped = play_random(variant, {"target": 100_000}, 2, 9, max_deals=3, check=False)
        assert not stopped.is_over and stopped.needs_deal
        out.append((f"{variant.value}-stopped", to_record(stopped)))
    return out


RECORDS_TESTED = _records()


def test_the_records_start_deals_from_every_kind_of_state() -> None:
    outcomes = {r.outcome for _, record in RECORDS_TESTED for r in replay(record).results}
    assert {Outcome.LITIGE, Outcome.HANGING, Outcome.PASSED} <= outcomes
    assert {Variant(record["variant"]) for _, record in RECORDS_TESTED} == set(Variant)


@pytest.mark.parametrize(("name", "record"), RECORDS_TESTED,
                         ids=[name for name, _ in RECORDS_TESTED])
def test_a_deal_played_from_the_match_before_it_steps_as_from_the_first_deal(
        name: str, record: dict[str, Any]) -> None:
    """What the match page does (web/site.py): each deal played from the replayed match as it
    stood before it (Match.at_deal) gives the very steps replaying from the first deal gives,
    and leaves the replayed match as it was."""
    rec = parse_record(record)
    replayed = replay(rec)
    before = replay_summary(replayed)
    owners = [(d._owner, d._on_over) for d in replayed.deals]
    assert len(rec.deals) == len(replayed.deals) > 1
    assert any(r.totals != (0, 0) for r in replayed.results[:-1])  # later deals start scored
    for deal in range(len(rec.deals)):
        start = replayed.at_deal(deal)
        assert len(start.deals) == deal and start.winner is None and start.needs_deal
        assert steps(rec, deal, start=start) == steps(rec, deal), (name, deal)
        assert start.results == replayed.results[:deal + 1]
        assert tuple(start.totals) == replayed.results[deal].totals
        assert start.hanging == replayed.results[deal].hanging
        assert start.winner == (replayed.winner if deal == len(rec.deals) - 1 else None)
    assert replay_summary(replayed) == before
    assert [(d._owner, d._on_over) for d in replayed.deals] == owners


def test_a_start_state_is_the_match_just_before_its_deal() -> None:
    record = RECORDS_TESTED[0][1]
    replayed = replay(record)
    with pytest.raises(ValueError):  # the state before deal 1 is not deal 2's
        steps(record, 2, start=replayed.at_deal(1))
    with pytest.raises(ValueError):  # a state is one deal's start
        steps(record, start=replayed.at_deal(0))
    with pytest.raises(IndexError):
        replayed.at_deal(len(replayed.deals))


def test_a_deal_shows_its_first_cards_then_the_rest_once_the_contract_is_known() -> None:
    match = play_random(Variant.CLASSIC, {"target": 1}, 0, 3, max_deals=10, check=False)
    out = steps(to_record(match))
    start = out[0]
    assert [len(h) for h in start.hands] == [5, 5, 5, 5] and start.turned is not None
    first_card = next(i for i, s in enumerate(out) if is_card(s) and s.deal == start.deal)
    contracted = out[first_card - 1]
    assert contracted.contract is not None and contracted.turned is None
    assert sorted(map(len, contracted.hands)) == [8, 8, 8, 8]
    dealt = {c for h in contracted.hands for c in h}
    assert len(dealt) == 32 and dealt == set(parse_record(to_record(match)).deals[0].deck)


def test_each_step_says_who_decided_it_and_a_deal_counts_them() -> None:
    """The log's "by" (docs/game-record.md) reaches each step; a seat a computer played from
    start to end is told apart from a computer standing in for a person; a deal's tally says
    how many of each, and who claimed."""
    match = play_random(Variant.CLASSIC, {"target": 1}, 0, 3, max_deals=10, check=False)
    record = to_record(match)
    deal = len(record["deals"]) - 1
    actions = record["deals"][deal]["actions"]
    for d in record["deals"]:
        for raw in d["actions"]:
            if raw["seat"] == 3:
                raw["by"] = "computer"  # the computer's seat throughout
    cards = [i for i, raw in enumerate(actions) if raw["action"] == "play" and raw["seat"] != 3]
    marks = {cards[0]: "forced", cards[1]: "ahead", cards[2]: "timeout", cards[3]: "computer",
             cards[4]: "a-newer-word"}
    claim = [i for i in range(len(actions)) if i > cards[4] and actions[i]["action"] == "play"
             and i >= len(actions) - 8]
    for i in claim:
        actions[i]["by"] = "claim"
    for i, by in marks.items():
        actions[i]["by"] = by
    assert computer_seats(record) == {3}
    out = steps(record, deal)[1:]
    assert [s.by for s in out] == [raw.get("by") for raw in actions]
    tally = decided(record, deal)
    assert tally.counts == {"forced": 1, "ahead": 1, "timeout": 1, "computer": 1,
                            "a-newer-word": 1}
    assert tally.claimant == actions[claim[0]]["seat"] and tally.claimed == len(claim)
    plain = steps(to_record(match), deal)  # a record without "by": nothing is marked
    assert all(s.by is None for s in plain) and decided(to_record(match), deal).counts == {}


def test_hands_show_trumps_first_in_alternating_colours() -> None:
    """As the bot's hand shows them (game/cards.shown_order): the web replay and the hand
    image agree. Spades, hearts, clubs, diamonds, turned so that the trump suit leads."""
    shown = 0
    for step in (s for variant in Variant for seed in (1, 2) for s in steps(to_record(
            play_random(variant, {"target": 301} if variant is not Variant.BULGARIAN else {},
                        0, seed, max_deals=40, check=False)))):
        trump = step.contract.trump if step.contract is not None else None
        cycle = [3, 2, 0, 1]
        if trump is not None and trump.is_suit:
            k = cycle.index(int(trump))
            cycle = cycle[k:] + cycle[:k]
        for hand in step.hands:
            suits = [c >> 3 for c in hand]
            assert suits == sorted(suits, key=cycle.index)
            shown += trump is not None and trump.is_suit and len(set(suits)) > 1
    assert shown
