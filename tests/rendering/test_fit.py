"""Every label fits its place in every language (measured with the shipped font), is never cut,
and every character the image labels use has a glyph in the shipped font."""

from __future__ import annotations

import string

import pytest
from PIL import Image, ImageDraw

from game.actions import CAPOT
from game.contract import Contract
from game.match import Match
from game.rules import Trump, Variant
from game.view import Stage, table_view
from i18n import Scoped, languages, texts, words
from rendering import Style, draw_deal_sheet, draw_hand, draw_leaderboard, draw_table
from rendering.fonts import font
from rendering.paint import runs_width
from rendering.slots import (
    LONGEST_DEAL,
    SLOTS,
    VARIANTS,
    Slot,
    panel_variant_text,
)
from rendering.style import PIPS
from rendering.table import CONTRACT_PANEL, SCORE_PANEL
from rendering.words import contract_runs

from .positions import find, in_trick, play_until

LANGUAGES = languages()


def labels(language: str) -> Scoped:
    return words(language).scope("image")


def test_the_three_languages_are_checked() -> None:
    assert set(LANGUAGES) == {"en", "fr", "bg"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slot", SLOTS, ids=lambda s: s.name)
def test_every_label_fits_its_slot(slot: Slot, language: str) -> None:
    shown = list(slot.texts(labels(language)))
    assert shown, f"{slot.name}: lists no text"
    for text in shown:
        fitted = slot.fit(text)
        assert fitted is not None, \
            f"{language} {slot.name}: {text!r} is wider than {slot.width} px at {slot.smallest} px"
        size, lines = fitted
        f = font(size, slot.bold)
        assert all(f.getlength(line) <= slot.width for line in lines)
        assert " ".join(lines) == text  # wrapped, not cut


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_variant_name_fits_the_contract_panel_after_the_longest_deal_number(
        language: str) -> None:
    lab = labels(language)
    for variant in VARIANTS:
        for deal in (lab("deal", n=LONGEST_DEAL), None):
            slot, text = panel_variant_text(lab, variant, deal)
            assert slot.fits(text), f"{language}: {text!r} does not fit after {deal!r}"
            assert lab(f"variant.{variant}") in text


def _inside(box: tuple[int, int, int, int], panel: tuple[int, int, int, int]) -> bool:
    return panel[0] < box[0] and box[2] < panel[2] and panel[1] < box[1] and box[3] < panel[3]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_image_draws_its_labels_whole_inside_their_panels(
        variant: str, language: str) -> None:
    """The Bulgarian name of the classic variant was cut in the contract panel: drawn now in
    every language, for every variant, a few deals into a match."""
    m = find(variant, 11, lambda m: len(m.deals) >= 3 and in_trick(1, 1)(m))
    for viewer in (None, 0):
        _, lay = draw_table(table_view(m, viewer), Style(language=language))
        assert not [n for n in lay.names() if n.startswith("cut:")]
        assert _inside(lay.box("variant"), CONTRACT_PANEL)
        assert _inside(lay.box("deal_number"), CONTRACT_PANEL)
        assert lay.box("deal_number")[2] < lay.box("variant")[0]
        assert _inside(lay.box("target"), SCORE_PANEL)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_other_images_draw_their_labels_whole(language: str) -> None:
    style = Style(language=language)
    m = play_until("coinche", 3, lambda m: bool(m.results) and
                   m.results[-1].outcome.value != "passed")
    assert m.players is not None
    _, lay = draw_deal_sheet(m.results[-1], m.variant, m.players, LONGEST_DEAL, style)
    assert not [n for n in lay.names() if n.startswith("cut:")]
    title, badge = lay.box("title"), next(b for n, b in lay.items if n.startswith("outcome:"))
    assert title[2] < badge[0]
    m2 = find("classic", 5, in_trick(0, 2))
    seat = table_view(m2, None).to_act
    assert seat is not None
    view = table_view(m2, seat)
    assert view.stage is Stage.PLAY
    _, lay = draw_hand(view, style)
    assert lay.box("turn_prompt")[2] <= 800 - 16
    _, lay = draw_leaderboard([], "Top", style)
    assert lay.box("empty")[0] >= 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_long_name_is_cut_but_not_the_word_you_after_it(language: str) -> None:
    m = Match("classic", players=["Maximilien-Alexandre de la Tour", "Bo", "Cy", "Dee"])
    m.start_deal(m.new_deck(1))
    _, lay = draw_table(table_view(m, 0), Style(language=language))
    assert lay.has("cut:name:0")
    you, plate = lay.box("you:0"), lay.box("seat:0")
    f = font(19, True)
    # drawn whole: as wide as the word alone, and inside the name plate
    assert you[2] - you[0] == f.getbbox(f" ({labels(language)('you')})", anchor="lm")[2] - \
        f.getbbox(f" ({labels(language)('you')})", anchor="lm")[0]
    assert plate[0] < you[0] and you[2] < plate[2]


def _literal(text: str) -> str:
    return "".join(lit for lit, _, _, _ in string.Formatter().parse(text))


def _glyph(ch: str, bold: bool) -> bytes:
    img = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(img).text((8, 8), ch, font=font(24, bold), fill=255)
    return img.tobytes()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_character_of_the_image_labels_has_a_glyph_in_the_shipped_font(
        language: str) -> None:
    """A character the font lacks is drawn as its 'missing' box (the glyph of U+E000, a
    private-use point DejaVu leaves empty): no label character may be drawn so."""
    used = set(PIPS) | {"·", "→", "×", "✓", "…", "–", "№"}
    for key, value in texts(language).items():
        if key.startswith(("image.", "cards.rank.", "cards.face.")):
            for text in (value,) if isinstance(value, str) else value:
                used |= set(_literal(text))
    if language == "bg":
        assert set("РазданеКлсичбот") <= used  # Cyrillic is among them
    for bold in (False, True):
        missing = _glyph("\ue000", bold)
        lacking = sorted(ch for ch in used if not ch.isspace() and _glyph(ch, bold) == missing)
        assert not lacking, f"{language}: no glyph for {lacking} in the shipped font"
    assert _glyph("\ue000", False) != _glyph("Ж", False)  # the check can fail


def _contracts() -> list[tuple[Contract, Variant]]:
    """The widest contracts of each variant: every trump, the longest values, multiplied."""
    out: list[tuple[Contract, Variant]] = []
    for trump in Trump:
        for mult in (1, 2, 4):
            out.append((Contract(0, trump, None, mult), Variant.CLASSIC))
            out.append((Contract(0, trump, None, mult), Variant.BULGARIAN))
            if trump.is_suit:
                for value in (160, CAPOT):
                    out.append((Contract(0, trump, value, mult), Variant.COINCHE))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_longest_contract_fits_the_contract_panel_and_the_hand(language: str) -> None:
    """The table's panel draws a contract from 26 px down to 14 px in 220 px; the hand puts
    'Contract: ...' beside the holder's heading, which keeps at least half the width."""
    style = Style(language=language)
    for contract, variant in _contracts():
        runs = contract_runs(contract, variant, style, (0, 0, 0), (0, 0, 0))
        assert runs_width(runs, 14, True) <= 220, (language, runs)
        chip = [(labels(language)("contract_colon") + " ", (0, 0, 0)), *runs]
        assert runs_width(chip, 18, True) + 20 <= 400, (language, chip)
