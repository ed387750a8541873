"""`belote simulate`: what it writes is read back by every other subcommand, and its mistakes
are told in one line, in the user's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from belote_cli.cli import main


def _one_line(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return captured.out, captured.err


@pytest.mark.parametrize("where", ["missing-dir", "a-directory"])
def test_record_to_an_unwritable_place_is_one_line_and_fails(
        where: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "x.json" if where == "missing-dir" else tmp_path
    status = main(["simulate", "--variant", "classic", "--deals", "2", "--record", str(target)])
    out, _ = _one_line(capsys)
    assert status == 2
    [line] = out.splitlines()
    error = json.loads(line)["error"]
    assert str(target) in error["reason"] and "cannot write" in error["reason"]


def test_several_matches_write_one_record_each_and_every_reader_takes_them(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rec = tmp_path / "sim.json"
    assert main(["simulate", "--variant", "bulgarian", "--deals", "40", "--target", "60",
                 "--seed", "5", "--record", str(rec)]) == 0
    summary = json.loads(_one_line(capsys)[0])
    files = summary["records"]
    assert len(files) >= 2 and files[0] == str(rec)
    assert files[1] == str(tmp_path / "sim-2.json")
    deals = 0
    decks = set()
    for i, name in enumerate(files):
        record = json.loads(Path(name).read_text(encoding="utf-8"))
        assert isinstance(record, dict) and record["format"] == "belote-record/1"
        decks.add(tuple(record["deals"][0]["deck"]))
        assert main(["replay", name]) == 0
        replayed = json.loads(_one_line(capsys)[0])
        deals += len(replayed["deals"])
        # Every match but the last is won; the last one may stop at the deal count.
        if i < len(files) - 1:
            assert replayed["winner"] in (0, 1)
        assert main(["legal", name]) == 0
        _one_line(capsys)
        assert main(["render", name, "-o", str(tmp_path / f"{i}.png")]) == 0
        _one_line(capsys)
    assert deals == summary["deals"] == 40
    assert len(decks) == len(files)  # each match is dealt its own cards


@pytest.mark.parametrize(("argv", "says"), [
    (["--deals", "x"], "--deals: a whole number of at least 1, not 'x'"),
    (["--deals", "0"], "--deals: a whole number of at least 1, not '0'"),
    (["--seed", "x"], "--seed: a whole number, not 'x'"),
    (["--target", "0"], "--target: a whole number from 1 to 100000, not '0'"),
    (["--players", "random", "--level", "hard"],
     "--level is the level of computer players: it goes with --players ai"),
])
def test_option_mistakes_are_said_in_the_users_words(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--variant", "classic", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "_positive" not in err and "invalid" not in err


def test_level_alone_means_computer_players_of_that_level(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "classic", "--deals", "1", "--level", "easy"]) == 0
    assert json.loads(_one_line(capsys)[0])["players"] == ["easy"] * 4
