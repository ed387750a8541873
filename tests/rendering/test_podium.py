"""The season podium image: three steps per variant, each place's name and record, an empty
season said so, in the image's language; a pair's partners one above the other."""

from __future__ import annotations

from rendering import PodiumPlace, PodiumVariant, Style, draw_podium, render_podium


def test_each_variant_has_its_places_and_a_missing_place_is_left_empty() -> None:
    variants = [PodiumVariant("Classic Belote", (PodiumPlace(1, "ana", 258.4, 4, 4),
                                                 PodiumPlace(2, "cy", 191, 3, 3),
                                                 PodiumPlace(3, "dee", -90, 0, 3))),
                PodiumVariant("Bulgarian Belot", (PodiumPlace(1, "bo", 40, 3, 5),))]
    img, lay = draw_podium(variants, "Season 3: the podium")
    assert img.size == (800, 80 + 2 * 300)
    assert {name for name in lay.names() if name.startswith("place:")} == {
        "place:0:1", "place:0:2", "place:0:3", "place:1:1"}
    # Each place says what its number is: rating points gained, on its own line.
    assert {name for name in lay.names() if name.startswith("gain:")} == {
        "gain:0:1", "gain:0:2", "gain:0:3", "gain:1:1"}
    assert Style().labels("podium.gain", gain="+258") == "+258 rating points"
    # The first place stands in the middle, the second on its left, the third on its right.
    x = {place: lay.boxes(f"place:0:{place}")[0][0] for place in (1, 2, 3)}
    assert x[2] < x[1] < x[3]


def test_an_empty_season_and_french_words() -> None:
    _, lay = draw_podium([], "Saison 1 : le podium", Style(language="fr"))
    assert lay.has("empty")
    data, ext = render_podium([], "Saison 1", language="bg")
    assert data and ext in ("png", "webp", "jpeg")


def test_a_pairs_partners_stand_one_above_the_other() -> None:
    # Side by side, two names cut each other short on a step: one line each, the first
    # partner's with the language's joining word.
    pairs = [PodiumVariant("Classic Belote: pairs", (
        PodiumPlace(1, "Bartholomew &", 284, 3, 3, partner="Desdemona"),
        PodiumPlace(2, "bo &", -107, 0, 3, partner="dee")))]
    _, lay = draw_podium(pairs, "Season 1: the podium")
    assert {n for n in lay.names() if n.startswith("partner:")} == {"partner:0:1",
                                                                     "partner:0:2"}
    first, partner = lay.boxes("place:0:1")[0], lay.boxes("partner:0:1")[0]
    assert first[3] <= partner[1]  # the first partner's line ends above the second's
    assert lay.boxes("partner:0:1")[0][3] <= lay.boxes("gain:0:1")[0][1]
