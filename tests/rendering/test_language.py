"""Every image in the reader's language: words and rank letters from the catalogue, a language
per render entry point and in the cache keys, ``belote render --language``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from belote_cli.cli import main
from game.cards import Card, Rank, Suit
from game.record import to_record
from game.view import table_view
from i18n import words
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
from rendering.keys import hand_key
from rendering.sprites import RANK_TEXT, card_face, styled_face
from rendering.style import TWO_COLOUR, rank_text
from rendering.words import card_runs

from .positions import find, in_trick, play_until
from .test_golden import GOLDEN, assert_close, half

LANGUAGES = ("en", "fr", "bg")
QUEEN_OF_HEARTS = Card(Suit.HEARTS * 8 + Rank.QUEEN)


def test_rank_letters_come_from_the_catalogue_of_each_language() -> None:
    assert RANK_TEXT == ("7", "8", "9", "10", "J", "Q", "K", "A")
    assert rank_text("fr") == ("7", "8", "9", "10", "V", "D", "R", "A")
    for language in LANGUAGES:
        # The letters the bot writes in its messages (cards.po), but for the ten: a card says 10
        w = words(language)
        text = tuple(w(f"cards.rank.{r.name.lower()}") for r in Rank)
        drawn = rank_text(language)
        assert drawn[Rank.TEN] == "10"
        assert drawn[:Rank.TEN] + drawn[Rank.TEN + 1:] == text[:Rank.TEN] + text[Rank.TEN + 1:]


def test_a_french_queen_is_drawn_with_a_d_and_kept_apart_from_the_english_one() -> None:
    french = styled_face(QUEEN_OF_HEARTS, 92, 130, Style(language="fr"))
    english = styled_face(QUEEN_OF_HEARTS, 92, 130, Style())
    assert english is card_face(QUEEN_OF_HEARTS, 92, 130, TWO_COLOUR)  # the cached sprite
    assert ImageChops.difference(french.convert("RGB"), english.convert("RGB")).getbbox()
    # In text runs too: the cards of an announcement as the French write them.
    cards = (Card(Suit.HEARTS * 8 + Rank.JACK), QUEEN_OF_HEARTS,
             Card(Suit.HEARTS * 8 + Rank.KING))
    assert "".join(t for t, _ in card_runs(cards, Style(language="fr"))) == "V♥ D♥ R♥"
    assert "".join(t for t, _ in card_runs(cards, Style())) == "J♥ Q♥ K♥"


def _distinct(images: dict[str, bytes]) -> None:
    assert len(set(images.values())) == len(images), "two languages drew the same bytes"


def test_every_render_entry_point_draws_in_the_language_it_is_given() -> None:
    m = play_until("bulgarian", 2, lambda m: m.is_over, max_deals=200)
    assert m.players is not None
    result = MatchResult.from_results(m.variant, m.players, m.options.target, m.results,
                                      m.winner)
    rows = [LeaderboardRow(1, "Ana", 1612.4, 40, 28)]
    mid = find("classic", 2, in_trick(2, 3))
    seat_view = table_view(mid, 0)
    assert seat_view.hand
    _distinct({lang: render_table(table_view(mid, None), language=lang)[0]
               for lang in LANGUAGES})
    _distinct({lang: render_hand(seat_view, language=lang)[0] for lang in LANGUAGES})
    _distinct({lang: render_deal_sheet(m.results[-1], m.variant, m.players, 1,
                                       language=lang)[0] for lang in LANGUAGES})
    _distinct({lang: render_match_result(result, language=lang)[0] for lang in LANGUAGES})
    _distinct({lang: render_leaderboard(rows, "Top", language=lang)[0] for lang in LANGUAGES})
    # The language given overrides the style's; the style's is used when none is given.
    assert render_hand(seat_view, Style(language="fr"))[0] == \
        render_hand(seat_view, language="fr")[0] == \
        render_hand(seat_view, Style(language="bg"), language="fr")[0]


def test_the_key_of_a_hand_image_includes_its_language() -> None:
    view = table_view(find("coinche", 4, in_trick(1, 2)), 0)
    keys = {lang: hand_key(view, language=lang) for lang in LANGUAGES}
    assert len(set(keys.values())) == 3
    assert keys["fr"] == hand_key(view, Style(language="fr")) and keys["en"] == hand_key(view)


def test_belote_render_draws_in_the_language_asked_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = find("classic", 2, in_trick(2, 3))
    record = tmp_path / "match.json"
    record.write_text(json.dumps(to_record(m)), encoding="utf-8")
    drawn: dict[str, bytes] = {}
    for lang in LANGUAGES:
        out = tmp_path / f"{lang}.png"
        assert main(["render", str(record), "-o", str(out), "--seat", "0",
                     "--language", lang]) == 0
        assert json.loads(capsys.readouterr().out)["language"] == lang
        drawn[lang] = out.read_bytes()
        assert drawn[lang] == render_table(table_view(m, 0), language=lang)[0]
        assert Image.open(io.BytesIO(drawn[lang])).size == (800, 600)
    _distinct(drawn)


def test_belote_render_refuses_a_language_it_does_not_have(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["render", "-", "-o", str(tmp_path / "x.png"), "--language", "de"])
    assert exc.value.code == 2
    assert "--language" in capsys.readouterr().err and not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("language", ["fr", "bg"])
def test_belote_render_in_a_language_draws_its_golden_image(
        language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``belote render --language`` of a golden position (tests/rendering/test_golden.py) is
    that position's golden image in the language, not the English one."""
    record = GOLDEN / "classic_play_seat.json"
    out = tmp_path / "table.png"
    assert main(["render", str(record), "-o", str(out), "--seat", "0",
                 "--language", language]) == 0
    capsys.readouterr()
    drawn = half(Image.open(out))
    assert_close(drawn, GOLDEN / f"classic_play_seat.{language}.png")
    with pytest.raises(AssertionError):
        assert_close(drawn, GOLDEN / "classic_play_seat.png")
