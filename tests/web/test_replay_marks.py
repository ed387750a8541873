"""The replay's marks of what nobody clicked (web/replay.py; the browser sees them in
tests/e2e/test_web_replay_marks.py): a timeout's and a computer's move for a person are marked,
a computer's own seat is not, move by move; a newer bot's word reads "not clicked"."""

from __future__ import annotations

import re

from db.results import MatchPlayer, MatchRow
from game.record import to_record
from game.rules import Variant
from game.steps import computer_seats, step_counts, steps
from i18n import words
from tests.game.test_properties import play_random
from web import replay


def test_timeouts_and_computers_standing_in_are_marked_a_computers_seat_is_not() -> None:
    match = play_random(Variant.CLASSIC, {"target": 1}, 0, 3, max_deals=10, check=False)
    record = to_record(match)
    deal = len(record["deals"]) - 1
    for d in record["deals"]:
        for raw in d["actions"]:
            if raw["seat"] == 3:
                raw["by"] = "computer"  # a computer's seat from start to end
    actions = record["deals"][deal]["actions"]
    mine = [i for i, raw in enumerate(actions) if raw["seat"] == 1 and raw["action"] == "play"]
    actions[mine[0]]["by"] = "timeout"
    actions[mine[1]]["by"] = "computer"  # standing in for the person who left
    actions[mine[2]]["by"] = "from-a-newer-bot"
    counts = step_counts(record)
    row = MatchRow(1, 1, 1, "classic", "{}", "played", 0, (0, 0), len(counts), 1, False,
                   "2026-12-02", None, tuple(MatchPlayer(s, s + 1, None) for s in range(4)), ())
    html = replay.section(steps(record, deal), counts, sum(counts[:deal]), ["a", "b", "c", "d"],
                          row, "/m", words("en"), computer_seats(record))
    badges = re.findall(r'<span class="by by-(\w+)">([^<]*)</span>', html)
    assert badges == [("timeout", "time ran out: the computer played"),
                      ("computer", "played by the computer"), ("other", "not clicked")]
    # Each marked card has a dashed border in the trick while the trick lies there (its step
    # and the rest of its trick's steps).
    assert html.count("auto by-timeout") >= 1 and html.count("auto by-computer") >= 1
    plain = replay.section(steps(record, deal), counts, sum(counts[:deal]),
                           ["a", "b", "c", "d"], row, "/m", words("en"))
    assert plain.count('class="by by-computer"') > 1  # without the seats: every move marked
