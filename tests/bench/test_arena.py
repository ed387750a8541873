"""bench/arena.py's paired comparison of two builds of a level on the same decks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.arena import main, report_paired


def deal(seed: int, a_team: int, a_minus_b: int, taker: str | None = "hard") -> dict[str, Any]:
    return {"variant": "bulgarian", "a": "hard", "b": "hard_v1", "seed": seed, "a_team": a_team,
            "a_minus_b": a_minus_b, "taker": taker, "contract": "suit", "doubled": 1,
            "made": True, "times": {}}


OLD = [deal(s, t, 10 * s + t) for s in range(3) for t in (0, 1)]
# The new build plays deck 1 differently (2 points better per seating), deck 2 too (4 and 0
# better), deck 0 the same; a deck with one seating only is not a pair.
NEW = [deal(0, 0, 0), deal(0, 1, 1), deal(1, 0, 12), deal(1, 1, 13), deal(2, 0, 24),
       deal(2, 1, 21), deal(3, 0, 5)]


def test_the_difference_is_taken_deck_by_deck() -> None:
    out = report_paired(NEW, OLD)
    assert out["pairs"] == 3 and out["played_differently"] == 2
    assert out["new_minus_old_per_deal"] == pytest.approx((0 + 2 + 2) / 3, abs=0.01)
    lo, hi = out["ci95"]
    assert lo < out["new_minus_old_per_deal"] < hi
    assert out["new"]["pairs"] == out["old"]["pairs"] == 3


def test_files_with_no_deck_in_common_compare_nothing() -> None:
    assert report_paired(NEW[-1:], OLD) == {"pairs": 0}


def test_the_command_reads_two_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for name, rows in (("new", NEW), ("old", OLD)):
        f = tmp_path / f"{name}.jsonl"
        f.write_text("".join(json.dumps(r) + "\n" for r in rows))
        files.append(str(f))
    assert main(["--paired", *files]) == 0
    assert json.loads(capsys.readouterr().out)["played_differently"] == 2
