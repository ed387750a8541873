"""The public functions: formats, threads, the four-colour deck, labels, ``belote render``."""

from __future__ import annotations

import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from belote_cli.cli import main
from game.record import to_record
from game.view import table_view
from rendering import (
    LeaderboardRow,
    MatchResult,
    Style,
    render_deal_sheet,
    render_hand,
    render_leaderboard,
    render_match_result,
    render_table,
)
from rendering.sprites import card_face
from rendering.style import FOUR_COLOUR, TWO_COLOUR

from .positions import find, in_trick, play_steps


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_every_render_returns_png_bytes_and_its_extension() -> None:
    m = play_steps("classic", 3, 60)
    assert m.players is not None and m.results
    seat_view = table_view(m, 0)
    outputs = [
        render_table(table_view(m, None)),
        render_table(seat_view, Style(four_colour=True)),
        render_deal_sheet(m.results[-1], m.variant, m.players, len(m.results)),
        render_match_result(MatchResult.from_results(m.variant, m.players, 501, m.results,
                                                     None)),
        render_leaderboard([LeaderboardRow(1, "Ana", 1500.0, 3, 2)], "Top"),
        render_leaderboard([], "Nobody yet"),
    ]
    if seat_view.hand:
        outputs.append(render_hand(seat_view))
    for data, ext in outputs:
        assert ext == "png" and data[:8] == b"\x89PNG\r\n\x1a\n"
        assert decode(data).width == 800


def test_hand_needs_a_seat_view() -> None:
    with pytest.raises(ValueError):
        render_hand(table_view(play_steps("classic", 3, 5), None))


def test_rendering_from_threads_gives_the_same_bytes() -> None:
    views = [table_view(find("coinche", s, in_trick(2)), v) for s in (1, 2) for v in (None, 1)]
    expected = [render_table(v) for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            assert list(pool.map(render_table, views)) == expected


def test_four_colour_deck_paints_diamonds_blue_and_clubs_green() -> None:
    for card, suit in ((8 + 7, 1), (0 + 7, 0)):  # ace of diamonds, ace of clubs
        two = card_face(card, 80, 112, TWO_COLOUR).convert("RGB")
        four = card_face(card, 80, 112, FOUR_COLOUR).convert("RGB")
        colours = {c for _, c in four.getcolors(1 << 16) or []}
        assert FOUR_COLOUR[suit] in colours and FOUR_COLOUR[suit] not in \
            {c for _, c in two.getcolors(1 << 16) or []}


def test_labels_fall_back_to_english() -> None:
    assert Style(language="en").labels("deal", n=3) == "Deal 3"
    assert Style(language="xx").labels("deal", n=3) == "Deal 3"
    with pytest.raises(KeyError):
        Style(language="en").labels("no such label")


def test_belote_render_writes_the_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    m = find("classic", 2, in_trick(2))
    record = tmp_path / "game.json"
    record.write_text(json.dumps(to_record(m)))
    out = tmp_path / "table.png"
    assert main(["render", str(record), "-o", str(out), "--seat", "2"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["output"] == str(out) and summary["seat"] == 2
    assert out.read_bytes() == render_table(table_view(m, 2))[0]
    assert main(["render", str(record), "-o", str(out)]) == 0
    assert out.read_bytes() == render_table(table_view(m, None))[0]


def test_belote_render_errors_are_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    assert main(["render", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.png")]) == 2
    err = json.loads(capsys.readouterr().out)["error"]
    assert "cannot read" in err["reason"]
    bad = tmp_path / "bad.json"
    m = play_steps("classic", 1, 3)
    record = to_record(m)
    record["deals"][-1]["actions"].append({"seat": 0, "action": "bid", "value": 80})
    bad.write_text(json.dumps(record))
    assert main(["render", str(bad), "-o", str(tmp_path / "x.png")]) in (1, 2)
    assert "error" in json.loads(capsys.readouterr().out)
    assert not (tmp_path / "x.png").exists()
    with pytest.raises(SystemExit) as exit_info:
        main(["render", str(bad), "-o", str(tmp_path / "x.png"), "--seat", "7"])
    assert exit_info.value.code == 2
