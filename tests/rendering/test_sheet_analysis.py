"""The analysis strip at the foot of an analysed match's deal sheet (issue 42): the sheet above
it is drawn as without it, to the pixel; the strip shows the par and, per player, their
accuracy and costliest card in the table's language, each in its own place (nothing cut,
nothing overlapping, in every variant's longest contract); what it shows changes its pixels."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops

from game.actions import CAPOT
from game.cards import parse_card
from game.contract import Contract
from game.match import Match
from game.rules import Trump, Variant
from i18n import languages, texts
from rendering import (
    CostlyCard,
    SeatAnalysis,
    SheetAnalysis,
    Style,
    draw_deal_sheet,
    render_deal_sheet,
)
from rendering.layout import Box
from rendering.sheet import STRIP_HEIGHT

from .positions import play_until

STRIP_WORDS = ("title", "note", "par", "par_pass", "worth", "accuracy", "played", "best", "cost",
               "percent", "exact", "no_choice")
LONG = "Maximilien-Alexandre de la Tour"


def finished(variant: str = "classic", seed: int = 5) -> Match:
    return play_until(variant, seed, lambda m: bool(m.results) and
                      m.results[-1].outcome.value != "passed")


HEARTS_BY_BO = Contract(1, Trump.HEARTS)


def analysis(par: Contract | None = HEARTS_BY_BO, score: int = 162) -> SheetAnalysis:
    return SheetAnalysis(par, score, (
        SeatAnalysis(86, CostlyCard(parse_card("8H"), parse_card("AH"), 20)),
        SeatAnalysis(100, None),
        SeatAnalysis(None, None),
        SeatAnalysis(57, CostlyCard(parse_card("TS"), parse_card("7C"), 145))))


def sheet(m: Match, a: SheetAnalysis | None, language: str = "en",
          players: tuple[str, ...] | None = None) -> tuple[Image.Image, set[str], dict[str, Box]]:
    names = players or tuple(m.players or ())
    img, lay = draw_deal_sheet(m.results[-1], m.variant, names, len(m.deals),
                               Style(language=language), a)
    return img, lay.names(), dict(lay.items)


def differs(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None


@pytest.mark.parametrize("language", languages())
def test_the_strip_is_added_under_the_sheet_as_it_was(language: str) -> None:
    m = finished()
    plain, plain_names, _ = sheet(m, None, language)
    img, names, boxes = sheet(m, analysis(), language)
    assert img.width == plain.width and img.height == plain.height + STRIP_HEIGHT
    assert not any(n.startswith("analysis") for n in plain_names)
    # Above the strip, the sheet is the sheet without it, to the pixel.
    top = boxes["analysis"][1]
    assert top >= plain.height - 24
    assert not differs(img.crop((0, 0, img.width, top)), plain.crop((0, 0, img.width, top)))
    strip = img.crop((0, top, img.width, img.height))
    assert strip.convert("RGB").getcolors(1 << 16) is not None and \
        len(strip.convert("RGB").getcolors(1 << 16) or []) > 10  # drawn on, not blank paper
    assert {"analysis:title", "analysis:note", "analysis:par:contract", "analysis:par:worth",
            "analysis:par:taker:1", "analysis:heading:accuracy", "analysis:heading:played",
            "analysis:heading:best", "analysis:heading:cost",
            "analysis:accuracy:0", "analysis:played:0", "analysis:best:0", "analysis:cost:0",
            "analysis:accuracy:1", "analysis:exact:1", "analysis:no_choice:2",
            "analysis:accuracy:3", "analysis:played:3", "analysis:best:3", "analysis:cost:3"
            } <= names
    assert "analysis:accuracy:2" not in names and "analysis:played:1" not in names
    assert not [n for n in names if n.startswith("cut:")]
    # Team by team, as the columns above: the first team's players, then the other's.
    rows = [boxes[f"analysis:seat:{seat}"][1] for seat in (0, 2, 1, 3)]
    assert rows == sorted(rows) and len(set(rows)) == 4
    assert all(boxes[n][3] <= img.height - 8 for n in names if n.startswith("analysis:"))


def test_what_the_strip_shows_changes_its_pixels_and_nothing_above() -> None:
    m = finished()
    base, _, boxes = sheet(m, analysis())
    top = boxes["analysis"][1]
    changed = [
        analysis(Contract(0, Trump.SPADES)),  # another par
        analysis(score=40),  # another worth
        SheetAnalysis(Contract(1, Trump.HEARTS), 162, (
            SeatAnalysis(86, CostlyCard(parse_card("9H"), parse_card("AH"), 20)),
            *analysis().seats[1:])),  # another card played
        SheetAnalysis(Contract(1, Trump.HEARTS), 162, (
            SeatAnalysis(71, CostlyCard(parse_card("8H"), parse_card("AH"), 20)),
            *analysis().seats[1:])),  # another accuracy
        SheetAnalysis(Contract(1, Trump.HEARTS), 162, (
            SeatAnalysis(86, CostlyCard(parse_card("8H"), parse_card("AH"), 30)),
            *analysis().seats[1:])),  # another cost
        analysis(None, 0),  # passing is par
    ]
    for other in changed:
        img, names, _ = sheet(m, other)
        assert img.size == base.size
        assert differs(img.crop((0, top, img.width, img.height)),
                       base.crop((0, top, img.width, img.height))), other
        assert not differs(img.crop((0, 0, img.width, top)), base.crop((0, 0, img.width, top)))
    _, names, _ = sheet(m, analysis(None, 0))
    assert "analysis:par:pass" in names and "analysis:par:worth" not in names


def test_the_strip_in_each_language_draws_its_own_words() -> None:
    m = finished()
    drawn = {language: sheet(m, analysis(), language)[0] for language in languages()}
    top = sheet(m, analysis())[2]["analysis"][1]
    for a, b in itertools.combinations(languages(), 2):
        assert differs(drawn[a].crop((0, top, 800, drawn[a].height)),
                       drawn[b].crop((0, top, 800, drawn[b].height))), (a, b)


def test_every_word_of_the_strip_is_in_each_catalogue_and_translated() -> None:
    english = texts("en")
    for language in languages():
        catalogue = texts(language)
        for word in STRIP_WORDS:
            assert f"image.sheet.analysis.{word}" in catalogue, (language, word)
        if language != "en":
            translated = [w for w in STRIP_WORDS if w not in ("par", "percent") and
                          catalogue[f"image.sheet.analysis.{w}"] ==
                          english[f"image.sheet.analysis.{w}"]]
            assert translated == [], (language, translated)


def _disjoint(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("variant,par", [
    ("coinche", Contract(3, Trump.SPADES, CAPOT, 4)),
    ("bulgarian", Contract(1, Trump.ALL_TRUMPS, None, 4)),
    ("classic", Contract(2, Trump.DIAMONDS)),
])
def test_nothing_of_the_strip_overlaps_and_a_long_name_is_cut_not_the_words(
        variant: str, par: Contract, language: str) -> None:
    m = finished(variant, 3)
    players = (LONG, LONG + " II", LONG + " III", LONG + " IV")
    a = SheetAnalysis(par, -1888, tuple(
        SeatAnalysis(100 if s == 1 else 33, None if s == 1 else
                     CostlyCard(parse_card("TS"), parse_card("TH"), 888))
        for s in range(4)))  # type: ignore[arg-type]
    img, names, boxes = sheet(m, a, language, players)
    cut = sorted(n for n in names if n.startswith("cut:analysis"))
    assert cut == ["cut:analysis:name:0", "cut:analysis:name:1", "cut:analysis:name:2",
                   "cut:analysis:name:3"] + (["cut:analysis:taker"] if variant != "classic"
                                             else [])  # classic's contract is short
    strip = [(n, b) for n, b in boxes.items() if n.startswith("analysis:") and
             not n.startswith("analysis:seat:")]
    for (n1, b1), (n2, b2) in itertools.combinations(strip, 2):
        assert _disjoint(b1, b2), (n1, b1, n2, b2)
    for n, b in strip:
        assert b[0] >= 24 and b[2] <= img.width - 24, (n, b)
    # The names (cut) keep clear of the accuracy column.
    for seat in range(4):
        assert boxes[f"cut:analysis:name:{seat}"][2] < boxes[f"analysis:accuracy:{seat}"][0]


def test_the_encoded_sheet_with_its_strip_is_a_taller_png() -> None:
    m = finished()
    assert m.players is not None
    plain, ext = render_deal_sheet(m.results[-1], Variant.CLASSIC, m.players, 1)
    data, _ = render_deal_sheet(m.results[-1], Variant.CLASSIC, m.players, 1,
                                analysis=analysis())
    assert ext == "png" and data != plain
    assert Image.open(io.BytesIO(data)).height == Image.open(io.BytesIO(plain)).height + \
        STRIP_HEIGHT
