"""`belote analyse FILE [--deal N]` (docs/game-record.md): the double-dummy analysis of a record,
checked on the shipped records against `belote replay`, and its errors."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest

from belote_cli.cli import main
from tests.cli.test_cli import RECORD, run

BULGARIAN = json.loads((Path(__file__).parents[1] / "game" / "records" /
                        "bulgarian_equal_scores.json").read_text(encoding="utf-8"))


@functools.cache
def _analysed(record_json: str, deal: int | None) -> tuple[int, Any]:
    """One run of the command per record (the solver's work is the suite's slowest part)."""
    import contextlib
    import io
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(record_json, encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main(["analyse", str(path)] + ([] if deal is None else
                                                    ["--deal", str(deal)]))
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, out.getvalue()
    return status, json.loads(lines[0])


def analysed(record: Any, deal: int | None = None) -> tuple[int, Any]:
    return _analysed(json.dumps(record), deal)


def _check_deal(out_deal: dict[str, Any], record: dict[str, Any],
                summary: dict[str, Any]) -> None:
    actions = record["deals"][out_deal["deal"]]["actions"]
    decisions = out_deal["decisions"]
    # One decision per action, each at its index, with the seat that took it.
    assert sorted(d["action"] for d in decisions) == list(range(len(actions)))
    for d in decisions:
        act = actions[d["action"]]
        assert d["seat"] == act["seat"]
        costs = [o["cost"] for o in d["options"]]
        assert min(costs) == 0  # the best option costs nothing
        if act["action"] == "play":
            assert d["played"] == act["card"]
            assert d["played"] in [o["card"] for o in d["options"]]
            best = max(o["score"] for o in d["options"])
            best_points = max(o["points"] for o in d["options"])
            for o in d["options"]:
                assert o["cost"] == best - o["score"]
                assert o["cost_points"] == best_points - o["points"]
        else:
            assert d["played"] == {k: v for k, v in act.items() if k not in ("seat", "by")}
    cards = [d for d in decisions if "card" in d["options"][0]]
    if cards:
        last = cards[-1]
        # The last card is forced, and its values are the deal's own end.
        [only] = last["options"]
        team = last["seat"] & 1
        assert only["points"] == summary["card_points"][team]
        assert only["score"] == summary["score"][team] - summary["score"][1 - team]
        # Par is a contract of the variant (or a pass), scored for its side.
    par = out_deal["par"]
    assert par["contract"] is None or par["contract"]["multiplier"] == 1


def test_analyse_a_classic_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out = analysed(RECORD)
    assert status == 0
    [deal] = out["deals"]
    assert deal["deal"] == 0
    _status, summary = run(capsys, tmp_path, "replay", RECORD)
    _check_deal(deal, RECORD, summary["deals"][0])
    first = next(d for d in deal["decisions"] if d["action"] == 1)
    assert first["played"] == "AC" and len(first["options"]) == 8  # the opening lead
    # The take is reviewed against par: its options are the call made and par's call.
    take = next(d for d in deal["decisions"] if d["action"] == 0)
    assert take["played"] == {"action": "take"}
    assert take["options"][0]["bid"] == {"action": "take"}
    # Par's call: a take naming par's suit, scored for the caller's side.
    par = deal["par"]
    assert take["options"][1]["bid"] == {"action": "take", "suit": par["contract"]["suit"]}
    assert take["options"][1]["score"] == (par["score"] if par["contract"]["team"] == 0
                                           else -par["score"])


def test_analyse_one_deal_of_a_bulgarian_record(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    status, out = analysed(BULGARIAN, 0)
    assert status == 0
    [deal] = out["deals"]
    assert deal["deal"] == 0
    _status, summary = run(capsys, tmp_path, "replay", BULGARIAN)
    _check_deal(deal, BULGARIAN, summary["deals"][0])


def test_analyse_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    assert main(["analyse", str(path), "--deal", "1"]) == 2
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line) == {"error": {"deal": None, "action": None,
                                          "reason": "no deal 1: the record has 1 deal"}}
    # A record the rules refuse: exit status 1, where and why.
    bad = copy.deepcopy(RECORD)
    bad["deals"][0]["actions"][3] = {"seat": 2, "action": "play", "card": "QS"}
    status, out = run(capsys, tmp_path, "analyse", bad)
    assert status == 1 and out["error"]["deal"] == 0 and out["error"]["action"] == 3
    # A file that is not a record: exit status 2.
    status, out = run(capsys, tmp_path, "analyse", None, raw="{not json")
    assert status == 2 and "not valid JSON" in out["error"]["reason"]
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["error"]["reason"]
    # A deal still in its play is not analysed: only finished deals are.
    live = copy.deepcopy(RECORD)
    live["deals"][0]["actions"] = live["deals"][0]["actions"][:5]
    status, out = run(capsys, tmp_path, "analyse", live)
    assert (status, out) == (0, {"deals": []})
    path.write_text(json.dumps(live), encoding="utf-8")
    assert main(["analyse", str(path), "--deal", "0"]) == 2
    assert "not over" in json.loads(capsys.readouterr().out)["error"]["reason"]
