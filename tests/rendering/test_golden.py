"""Golden images: a few positions of each variant, compared with stored PNGs, tolerantly.

Each case is a game record (tests/rendering/golden/NAME.json) and the image drawn from it
(NAME.png, stored at half size to keep the repository small). After an intended change of the
drawing, look at the new images and regenerate them:

    BELOTE_REGEN_GOLDEN=1 pytest tests/rendering/test_golden.py

A missing record is created from its seed the same way (random legal play).

Each image also has its French and Bulgarian golden (NAME.fr.png, NAME.bg.png), drawn from the
same record: the words and rank letters of each language, laid out to fit.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from game.match import Match
from game.record import replay, to_record
from game.view import table_view
from rendering import (
    DEFAULT_STYLE,
    LeaderboardRow,
    MatchResult,
    Style,
    draw_deal_sheet,
    draw_hand,
    draw_leaderboard,
    draw_match_result,
    draw_table,
)

from .positions import bids_made, find, in_trick, play_until

GOLDEN = Path(__file__).with_name("golden")
REGEN = os.environ.get("BELOTE_REGEN_GOLDEN") == "1"


def deal_over(m: Match) -> bool:
    return bool(m.results) and m.results[-1].outcome.value != "passed"


def with_announcements(m: Match) -> bool:
    d = m.deal
    return d is not None and len(d.tricks) == 1 and len(d.trick) == 3 and \
        bool(d.announcements)


@dataclass(frozen=True)
class Case:
    name: str
    variant: str
    seed: int
    stop: Callable[[Match], bool]
    draw: Callable[[Match, Style], Image.Image]
    options: dict[str, object] | None = None
    style: Style = DEFAULT_STYLE
    record: str | None = None  # the record it shares with the English case (name otherwise)

    def in_language(self, language: str) -> Case:
        return replace(self, name=f"{self.name}.{language}", record=self.name,
                       style=replace(self.style, language=language))


def table(viewer: int | None) -> Callable[[Match, Style], Image.Image]:
    return lambda m, style: draw_table(table_view(m, viewer), style)[0]


def hand_of_actor(m: Match, style: Style) -> Image.Image:
    assert m.deal is not None and m.deal.to_act is not None
    return draw_hand(table_view(m, m.deal.to_act), style)[0]


def sheet(m: Match, style: Style) -> Image.Image:
    assert m.players is not None
    return draw_deal_sheet(m.results[-1], m.variant, m.players, len(m.deals), style)[0]


CASES = [
    Case("classic_bidding", "classic", 1, bids_made(3), table(None)),
    Case("classic_play_seat", "classic", 2, with_announcements, table(0)),
    Case("classic_sheet", "classic", 5, deal_over, sheet),
    Case("coinche_bidding", "coinche", 3, bids_made(4), table(None)),
    Case("coinche_play_four_colour", "coinche", 4, in_trick(2, 3), table(None),
         style=Style(four_colour=True)),
    Case("coinche_hand", "coinche", 4, in_trick(1, 2), hand_of_actor),
    Case("bulgarian_play_seat", "bulgarian", 6, in_trick(3, 2), table(1)),
    Case("bulgarian_sheet", "bulgarian", 2, deal_over, sheet),
]
TRANSLATED = ("classic_bidding", "classic_play_seat", "classic_sheet", "coinche_hand",
              "bulgarian_play_seat", "bulgarian_sheet")
LANGUAGE_CASES = [case.in_language(language) for language in ("fr", "bg")
                  for case in CASES if case.name in TRANSLATED]


def match_of(case: Case) -> Match:
    path = GOLDEN / f"{case.record or case.name}.json"
    if case.record is None and (REGEN or not path.exists()):
        m = find(case.variant, case.seed, case.stop, case.options)
        path.write_text(json.dumps(to_record(m), indent=1) + "\n", encoding="utf-8")
        return m
    return replay(json.loads(path.read_text(encoding="utf-8")))


def half(img: Image.Image) -> Image.Image:
    return img.convert("RGB").resize((img.width // 2, img.height // 2), Image.Resampling.BOX)


def assert_close(actual: Image.Image, golden: Path) -> None:
    expected = Image.open(golden).convert("RGB")
    assert actual.size == expected.size, f"{golden.name}: size {actual.size} != {expected.size}"
    diff = ImageChops.difference(actual, expected).convert("L")
    mean = ImageStat.Stat(diff).mean[0]
    far = sum(diff.point(lambda v: 255 if v > 48 else 0).histogram()[255:]) / \
        (diff.width * diff.height)
    # Tolerant: font rasterising or resampling may move a few edge pixels, nothing more.
    assert mean < 1.5 and far < 0.005, f"{golden.name}: mean diff {mean:.2f}, far {far:.4f}"


def check(name: str, img: Image.Image) -> None:
    small = half(img)
    path = GOLDEN / f"{name}.png"
    if REGEN or not path.exists():
        small.save(path, optimize=True)
    assert_close(small, path)


@pytest.mark.parametrize("case", CASES + LANGUAGE_CASES, ids=lambda c: c.name)
def test_golden_position(case: Case) -> None:
    check(case.name, case.draw(match_of(case), case.style))


def _suffix(language: str) -> str:
    return "" if language == "en" else f".{language}"


@pytest.mark.parametrize("language", ["en", "fr", "bg"])
def test_golden_match_result(language: str) -> None:
    m = play_until("bulgarian", 2, lambda m: m.is_over, max_deals=200)
    assert m.players is not None
    result = MatchResult.from_results(m.variant, m.players, m.options.target, m.results,
                                      m.winner)
    check(f"match_result{_suffix(language)}",
          draw_match_result(result, Style(language=language))[0])


BOARD_TITLES = {"en": "Leaderboard · Classic Belote", "fr": "Classement · Belote classique",
                "bg": "Класиране · Класически белот"}


@pytest.mark.parametrize("language", ["en", "fr", "bg"])
def test_golden_leaderboard(language: str) -> None:
    rows = [LeaderboardRow(1, "Ana", 1612.4, 40, 28), LeaderboardRow(2, "Bo", 1540, 31, 18),
            LeaderboardRow(3, "Cy", 1502, 12, 6), LeaderboardRow(4, "Élodie", 1480, 22, 9),
            LeaderboardRow(5, "Борис", 1391, 18, 5)]
    check(f"leaderboard{_suffix(language)}",
          draw_leaderboard(rows, BOARD_TITLES[language], Style(language=language))[0])


def test_each_language_has_its_own_golden_images() -> None:
    """The French and Bulgarian goldens are not the English picture again, nor each other."""
    for name in (*TRANSLATED, "match_result", "leaderboard"):
        pictures = [Image.open(GOLDEN / f"{name}{_suffix(lang)}.png").convert("RGB")
                    for lang in ("en", "fr", "bg")]
        for i, j in ((0, 1), (0, 2), (1, 2)):
            assert ImageChops.difference(pictures[i], pictures[j]).getbbox() is not None, \
                f"{name}: two languages have the same golden image"


def test_a_changed_image_fails_the_comparison(tmp_path: Path) -> None:
    m = match_of(CASES[0])
    img = half(table(None)(m, DEFAULT_STYLE))
    img.save(tmp_path / "golden.png")
    other = half(table(2)(m, DEFAULT_STYLE))
    with pytest.raises(AssertionError):
        assert_close(other, tmp_path / "golden.png")
    assert_close(img, tmp_path / "golden.png")
