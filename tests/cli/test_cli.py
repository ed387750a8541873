"""The `belote` command: replay, legal, simulate, and its errors (docs/game-record.md)."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belote_cli.cli import main
from game.record import to_record
from tests.game.helpers import FOLLOW, FOLLOW_PLAY, SPLIT, SPLIT_PLAY, Game, rotate

LITIGE = Game("classic", dealer=3).new_deal(SPLIT, turned="QH", taker=0).do(
    "take", *SPLIT_PLAY)
RECORD: dict[str, Any] = to_record(LITIGE.match)


def run(capsys: pytest.CaptureFixture[str], tmp_path: Path, cmd: str, record: Any,
        raw: str | None = None) -> tuple[int, Any]:
    path = tmp_path / "game.json"
    path.write_text(raw if raw is not None else json.dumps(record), encoding="utf-8")
    status = main([cmd, str(path)])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 1, out  # one JSON object, nothing else (never a traceback)
    return status, json.loads(lines[0])


def with_actions(record: dict[str, Any], actions: list[dict[str, Any]],
                 deal: int = -1) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["deals"][deal]["actions"] = actions
    return out


# ---- replay and legal ------------------------------------------------------------------------
def test_replay_prints_every_deal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out = run(capsys, tmp_path, "replay", RECORD)
    assert status == 0 and out["winner"] is None
    [deal] = out["deals"]
    assert deal["contract"] == {"seat": 0, "team": 0, "suit": "H", "value": None,
                                "multiplier": 1}
    assert deal["tricks"][0] == {"leader": 0, "cards": ["AC", "TC", "JC", "7C"], "winner": 0}
    assert [t["winner"] for t in deal["tricks"]] == [0, 1, 1, 3, 1, 3, 2, 1]
    assert deal["card_points"] == [71, 91] and deal["last_trick"] == 1
    assert deal["announcements"] == [] and deal["belote"] == [20, 0]
    assert deal["result"] == "litige" and deal["score"] == [20, 91]
    assert deal["hanging"] == 71 and deal["totals"] == [20, 91]


def test_replay_a_deal_in_progress_and_a_passed_deal(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    g = Game("classic", dealer=3).new_deal(SPLIT, turned="QH", taker=0).do(*["pass"] * 8)
    g.new_deal(rotate(SPLIT, 1), turned="QH", taker=1).do("take", "AC", "TC")
    status, out = run(capsys, tmp_path, "replay", to_record(g.match))
    assert status == 0
    passed, live = out["deals"]
    assert passed == {"contract": None, "tricks": [], "card_points": [0, 0], "last_trick": None,
                      "announcements": [], "belote": [0, 0], "result": "passed",
                      "score": [0, 0], "hanging": 0, "totals": [0, 0]}
    assert live["tricks"] == [{"leader": 1, "cards": ["AC", "TC"], "winner": None}]
    assert live["result"] is None and live["score"] is None and live["contract"]["seat"] == 1


def test_replay_shows_coinche_values_and_announcements(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    g = Game("coinche", {"announcements": True}, dealer=3).new_deal(FOLLOW)
    g.do("bid capot H", "contre", "pass", "pass", *FOLLOW_PLAY)
    status, out = run(capsys, tmp_path, "replay", to_record(g.match))
    deal = out["deals"][0]
    assert status == 0
    assert deal["contract"]["value"] == "capot" and deal["contract"]["multiplier"] == 2
    assert deal["card_points"] == [162, 0] and deal["result"] == "made"
    assert deal["announcements"] == [{"seat": 1, "cards": ["TC", "TD", "TH", "TS"],
                                      "points": 100, "scored": True}]
    # Contré capot: 160 + 2 x 250, plus the belote; the carré goes to the side that scores.
    assert deal["score"] == [160 + 500 + 100 + 20, 0]


def test_legal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mid = with_actions(RECORD, RECORD["deals"][0]["actions"][:3])  # take, AC, TC
    status, out = run(capsys, tmp_path, "legal", mid)
    assert status == 0 and out == {"seat": 2, "actions": [{"action": "play", "card": "9C"},
                                                          {"action": "play", "card": "JC"}]}
    status, out = run(capsys, tmp_path, "legal", RECORD)  # the next deal's first bidder
    assert out == {"seat": 1, "actions": [{"action": "pass"}, {"action": "take"}]}
    bidding = with_actions(RECORD, [])
    assert run(capsys, tmp_path, "legal", bidding)[1]["seat"] == 0
    over = to_record(Game("coinche", {"target": 100}, dealer=3).new_deal(SPLIT).do(
        "bid 80 H", "pass", "pass", "pass", *SPLIT_PLAY).match)
    assert run(capsys, tmp_path, "legal", over) == (0, {"seat": None, "actions": []})
    assert run(capsys, tmp_path, "replay", over)[1]["winner"] == 0


def test_legal_bulgarian_lists_bids_in_record_shapes(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    rec = to_record(Game("bulgarian", dealer=3).new_deal(SPLIT).do("bid NT").match)
    status, out = run(capsys, tmp_path, "legal", rec)
    assert status == 0 and out == {"seat": 1, "actions": [
        {"action": "pass"}, {"action": "bid", "contract": "AT"}, {"action": "double"}]}


def test_standard_input(monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(RECORD)))
    assert main(["replay", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"][0]["result"] == "litige"


# ---- errors ----------------------------------------------------------------------------------
ACTIONS = RECORD["deals"][0]["actions"]
STATUS_1 = {
    "illegal card": ([*ACTIONS[:3], {"seat": 2, "action": "play", "card": "QS"}], 3,
                     "you must follow suit: play 9C or JC"),
    "out of turn": ([*ACTIONS[:3], {"seat": 3, "action": "play", "card": "7C"}], 3,
                    "it is seat 2's turn, not seat 3's"),
    "after the deal": ([*ACTIONS, {"seat": 1, "action": "pass"}], 33, "this deal is over"),
    "unknown action": ([{"seat": 0, "action": "bid", "value": 80, "suit": "H"}], 0,
                       "unknown action 'bid' in classic"),
    "unknown card": ([ACTIONS[0], {"seat": 0, "action": "play", "card": "1H"}], 1,
                     "unknown card '1H'"),
    "missing key": ([ACTIONS[0], {"seat": 0, "action": "play"}], 1, "missing key 'card'"),
    "missing seat": ([{"action": "take"}], 0, "missing key 'seat'"),
    "bad seat": ([{"seat": 4, "action": "take"}], 0, "seat must be 0 to 3"),
    "bad suit": ([*["pass"] * 0, {"seat": 0, "action": "take", "suit": "X"}], 0,
                 "unknown suit 'X'"),
    "not an object": ([["take"]], 0, "an action must be an object"),
    "bad belote": ([ACTIONS[0], {"seat": 0, "action": "play", "card": "AC", "belote": 1}], 1,
                   "belote must be true or false"),
    "bad declare": ([ACTIONS[0], {"seat": 0, "action": "play", "card": "AC", "declare": "x"}],
                    1, "declare must be a list"),
}


@pytest.mark.parametrize("case", list(STATUS_1))
def test_status_1(case: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    actions, index, reason = STATUS_1[case]
    for cmd in ("replay", "legal"):
        status, out = run(capsys, tmp_path, cmd, with_actions(RECORD, actions))
        assert status == 1
        err = out["error"]
        assert (err["deal"], err["action"]) == (0, index) and err["reason"].startswith(reason)


def test_status_1_after_the_match_is_over(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    over = to_record(Game("coinche", {"target": 100}, dealer=3).new_deal(SPLIT).do(
        "bid 80 H", "pass", "pass", "pass", *SPLIT_PLAY).match)
    extra = copy.deepcopy(over)
    extra["deals"].append({"dealer": 0, "deck": over["deals"][0]["deck"],
                           "actions": [{"seat": 1, "action": "pass"}]})
    status, out = run(capsys, tmp_path, "replay", extra)
    assert status == 1 and out["error"]["deal"] == 1 and "match is over" in out["error"]["reason"]
    late = with_actions(over, [*over["deals"][0]["actions"], {"seat": 1, "action": "pass"}])
    status, out = run(capsys, tmp_path, "replay", late)
    assert status == 1 and out["error"]["reason"] == "the match is over"


def _deal2(record: dict[str, Any], dealer: int, actions: list[Any]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["deals"].append({"dealer": dealer, "deck": record["deals"][0]["deck"],
                         "actions": actions})
    return out


STATUS_2: dict[str, tuple[Any, str]] = {
    "not an object": ([1, 2], "a record is a JSON object"),
    "unknown variant": ({**RECORD, "variant": "skat"}, "unknown variant 'skat'"),
    "unknown option": ({**RECORD, "options": {"must_undertrump": True, "x": 1}},
                       "the Classic (French) variant has no option x"),
    "option of another variant": ({**RECORD, "variant": "bulgarian",
                                   "options": {"must_undertrump": False}},
                                  "variant has no option must_undertrump"),
    "bad target": ({**RECORD, "options": {"target": 0}}, "target must be a positive"),
    "bad shuffle": ({**RECORD, "options": {"shuffle": "riffle"}}, "shuffle must be"),
    "bad flag": ({**RECORD, "options": {"announcements": "yes"}}, "must be true or false"),
    "options not an object": ({**RECORD, "options": "fast"}, "options must be an object"),
    "options an empty list": ({**RECORD, "options": []}, "options must be an object"),
    "options false": ({**RECORD, "options": False}, "options must be an object"),
    "format": ({**RECORD, "format": "pgn"}, "unknown format 'pgn'"),
    "players": ({**RECORD, "players": ["a", "b"]}, "players must be a list of four names"),
    "deals not a list": ({**RECORD, "deals": {}}, "deals must be a list"),
    "short deck": ({**RECORD, "deals": [{**RECORD["deals"][0],
                                         "deck": RECORD["deals"][0]["deck"][:31]}]},
                   "a deck must be the 32 cards, each once"),
    "repeated card": ({**RECORD, "deals": [{**RECORD["deals"][0],
                                            "deck": [RECORD["deals"][0]["deck"][1],
                                                     *RECORD["deals"][0]["deck"][1:]]}]},
                      "a deck must be the 32 cards, each once"),
    "bad card in deck": ({**RECORD, "deals": [{**RECORD["deals"][0],
                                               "deck": ["ZZ", *RECORD["deals"][0]["deck"][1:]]}]},
                         "unknown card 'ZZ'"),
    "bad dealer": ({**RECORD, "deals": [{**RECORD["deals"][0], "dealer": 7}]},
                   "dealer must be a seat 0 to 3"),
    "dealer out of order": (_deal2(RECORD, 2, []), "dealer out of order"),
    "a deal that stops early": (_deal2(with_actions(RECORD, ACTIONS[:5]), 0, []),
                                "deal 0 stops before its end"),
    "actions not a list": ({**RECORD, "deals": [{**RECORD["deals"][0], "actions": 3}]},
                           "actions must be a list"),
}


@pytest.mark.parametrize("case", list(STATUS_2))
def test_status_2(case: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record, reason = STATUS_2[case]
    for cmd in ("replay", "legal"):
        status, out = run(capsys, tmp_path, cmd, record)
        assert status == 2, out
        assert set(out) == {"error"} and reason in out["error"]["reason"]
        assert out["error"]["action"] is None


@pytest.mark.parametrize(("raw", "reason"), [
    ("{", "not valid JSON"), ("", "not valid JSON"), ("[" * 100000, "not valid JSON"),
])
def test_bad_json(raw: str, reason: str, capsys: pytest.CaptureFixture[str],
                  tmp_path: Path) -> None:
    status, out = run(capsys, tmp_path, "replay", None, raw=raw)
    assert status == 2 and reason in out["error"]["reason"]


def test_missing_file_and_binary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["error"]["reason"]
    (tmp_path / "bin").write_bytes(b"\xff\xfe\x00")
    assert main(["legal", str(tmp_path / "bin")]) == 2
    assert "not UTF-8" in json.loads(capsys.readouterr().out)["error"]["reason"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.floats(allow_nan=False)
    | st.sampled_from(["pass", "take", "play", "bid", "AC", "JH", "H", "NT", "capot", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["seat", "action", "card", "suit", "value", "contract", "belote",
                         "declare", "dealer", "deck", "actions", "variant", "options"]),
        inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 40), junk=JSON, cmd=st.sampled_from(["replay", "legal"]))
def test_malformed_input_never_raises(index: int, junk: Any, cmd: str,
                                      capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    """Junk anywhere (an action, a deal, the options, the whole file) gives status 1 or 2."""
    rec = copy.deepcopy(RECORD)
    actions = rec["deals"][0]["actions"]
    spot = index % 6
    if spot == 0:
        actions.insert(min(index, len(actions)), junk)
    elif spot == 1 and actions:
        target = actions[index % len(actions)]
        target[["seat", "action", "card", "suit", "belote", "declare"][index % 6]] = junk
    elif spot == 2:
        rec["deals"][0][["dealer", "deck", "actions"][index % 3]] = junk
    elif spot == 3:
        rec[["variant", "options", "players", "deals", "format"][index % 5]] = junk
    elif spot == 4:
        rec["deals"].append(junk)
    else:
        rec = junk
    status, out = run(capsys, tmp_path, cmd, rec)
    assert status in (0, 1, 2)
    if status:
        assert set(out) == {"error"} and isinstance(out["error"]["reason"], str)


# ---- simulate and the installed script ------------------------------------------------------
@pytest.mark.parametrize("variant", ["classic", "coinche", "bulgarian"])
def test_simulate_and_its_record(variant: str, capsys: pytest.CaptureFixture[str],
                                 tmp_path: Path) -> None:
    rec = tmp_path / "sim.json"
    assert main(["simulate", "--variant", variant, "--deals", "5", "--seed", "3",
                 "--record", str(rec)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == variant and out["deals"] == 5 and out["seed"] == 3
    assert sum(out["outcomes"].values()) == 5 and out["players"] == ["random"] * 4
    assert main(["replay", str(rec)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert len(replayed["deals"]) == 5
    assert replayed["deals"][-1]["totals"] == out["totals"]
    # The same seed plays the same games.
    assert main(["simulate", "--variant", variant, "--deals", "5", "--seed", "3"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["totals"] == out["totals"] and again["outcomes"] == out["outcomes"]


def test_bad_arguments_exit_2_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["simulate", "--variant", "skat"], ["simulate", "--variant", "classic",
                                                     "--deals", "0"], ["frobnicate"], []):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert "usage: belote" in capsys.readouterr().err


def test_installed_console_script(tmp_path: Path) -> None:
    exe = shutil.which("belote")
    assert exe is not None, "the belote console script is installed with the project"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(with_actions(RECORD, [*ACTIONS[:3], {"seat": 2, "action": "play",
                                                                    "card": "QS"}])))
    proc = subprocess.run([exe, "replay", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1 and proc.stderr == ""
    assert json.loads(proc.stdout) == {"error": {"deal": 0, "action": 3, "reason":
                                                 "you must follow suit: play 9C or JC"}}
    proc = subprocess.run([exe, "legal", "-"], input=json.dumps(RECORD), capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["seat"] == 1


def test_python_m_belote_cli() -> None:
    """The command line outside the rules core runs as a module too."""
    proc = subprocess.run([sys.executable, "-m", "belote_cli", "legal", "-"],
                          input=json.dumps(RECORD), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["seat"] == 1


# ---- limits (issue 48) -----------------------------------------------------------------------
@pytest.mark.parametrize("cmd", ["replay", "legal"])
def test_a_number_of_more_than_4300_digits_is_a_clear_error(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, cmd: str) -> None:
    raw = json.dumps(RECORD).replace('"dealer": 3', '"dealer": ' + "9" * 5000, 1)
    assert "9" * 5000 in raw
    status, out = run(capsys, tmp_path, cmd, None, raw)
    assert status == 2 and "4,300 digits" in out["error"]["reason"]


def test_a_record_file_over_the_size_limit_is_refused_before_it_is_read(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from belote_cli import cli

    raw = json.dumps(RECORD)
    monkeypatch.setattr(cli, "MAX_RECORD_BYTES", len(raw.encode()) - 1)
    status, out = run(capsys, tmp_path, "replay", None, raw)
    assert status == 2 and "larger than" in out["error"]["reason"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(raw))
    assert main(["replay", "-"]) == 2
    assert "larger than" in json.loads(capsys.readouterr().out)["error"]["reason"]
    monkeypatch.setattr(cli, "MAX_RECORD_BYTES", len(raw.encode()))
    assert run(capsys, tmp_path, "replay", None, raw)[0] == 0
