"""Announcement chips stay inside the table image and clear of its panels, for every seat as
viewer, with the longest labels of each variant, during play and at the end of a match."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from game.announcements import Announcement, carre, sequence
from game.cards import Rank
from game.deal import BeloteCall
from game.match import Match
from game.rules import Variant
from game.view import ShownAnnouncement, Stage, TableView, table_view
from rendering.chips import ChipText, place
from rendering.layout import Box, Layout
from rendering.paint import runs_width
from rendering.style import DEFAULT_STYLE, INK
from rendering.table import CONTRACT_PANEL, LAST_PANEL, SCORE_PANEL, chip_texts, draw_table
from tests.rendering.positions import find, in_trick

W, H = 800, 600


def shown(a: Announcement, scored: bool | None = True) -> ShownAnnouncement:
    return ShownAnnouncement(a.seat, a.name(), a.carre_rank, a.length, a.points,
                             a.cards if scored else (), scored)


def widest(seat: int, candidates: list[Announcement]) -> list[ShownAnnouncement]:
    """The candidates for ``seat``, widest chip first."""
    view = table_view(Match("classic"), None)

    def width(a: ShownAnnouncement) -> int:
        (chip,) = chip_texts(dataclasses.replace(view, announcements=(a,)), a.seat,
                             DEFAULT_STYLE)
        return runs_width((*chip.words, ("  ", INK), *chip.cards), 15)

    return sorted((shown(c) for c in candidates), key=width, reverse=True)


def longest_sets(seat: int) -> list[list[ShownAnnouncement]]:
    """The longest announcements a seat can hold at once (8 cards: two carrés, or a carré and
    a quarte, or a run of 8), scored, not scored and not yet decided."""
    carres = widest(seat, [carre(seat, Rank(r)) for r in range(2, 8)])
    runs8 = widest(seat, [sequence(seat, s, 0, 8) for s in range(4)])
    quartes = widest(seat, [sequence(seat, s, low, 4) for s in range(4) for low in range(5)])
    return [carres[:2], runs8[:1], [carres[0], quartes[0]],
            [dataclasses.replace(carres[0], scored=False, cards=()), quartes[0]],
            [dataclasses.replace(runs8[0], scored=None, cards=())]]


def calls(seat: int) -> tuple[BeloteCall, ...]:
    return (BeloteCall(seat, 5, "belote"), BeloteCall(seat, 6, "rebelote"))


def obstacles(lay: Layout) -> list[tuple[str, Box]]:
    """What a chip must never cover: the panels, the name plates, the cards, the middle."""
    out = [("contract panel", CONTRACT_PANEL), ("score panel", SCORE_PANEL),
           ("last trick", LAST_PANEL)]
    keep = ("seat:", "backs:", "hand:", "trick", "banner:", "turned_card", "bid:", "dealer:")
    return out + [(n, b) for n, b in lay.items if n.startswith(keep)]


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def chips_of(lay: Layout) -> list[tuple[str, Box]]:
    return [(n, b) for n, b in lay.items
            if n.startswith(("announcement:", "belote:", "rebelote:"))]


def check(view: TableView) -> None:
    _, lay = draw_table(view)
    chips = chips_of(lay)
    assert len(chips) == sum(1 for _ in view.announcements) + len(view.belote_calls)
    for name, box in chips:
        assert box[0] >= 4 and box[2] <= W - 4 and box[1] >= 4 and box[3] <= H - 4, \
            (name, box, view.viewer)
        for what, other in obstacles(lay):
            assert not overlaps(box, other), (name, box, what, other, view.viewer)
    for (n1, b1), (n2, b2) in itertools.combinations(chips, 2):
        assert not overlaps(b1, b2), (n1, b1, n2, b2)


def views(variant: Variant) -> list[TableView]:
    """Mid-play views for the public table and each seat, and the end of the match."""
    m = find(variant.value, 3, in_trick(1))
    out = []
    for viewer in (None, 0, 1, 2, 3):
        v = table_view(m, viewer)
        out.append(v)
        out.append(dataclasses.replace(v, stage=Stage.OVER, winner=1, to_act=None))
    return out


@pytest.mark.parametrize("variant", list(Variant))
def test_the_longest_chips_stay_inside_the_image_and_clear_of_the_panels(
        variant: Variant) -> None:
    sets = [longest_sets(seat) for seat in range(4)]
    for base in views(variant):
        for k in range(len(sets[0])):
            announcements = tuple(a for seat in range(4) for a in sets[seat][k])
            belote = tuple(c for seat in range(4) for c in calls(seat))
            check(dataclasses.replace(base, announcements=announcements, belote_calls=belote))


def test_a_carre_of_tens_keeps_its_cards_and_its_text_size_where_there_is_room() -> None:
    """The bottom seat's 'Carré of tens 100 10♣ 10♦ 10♥ 10♠' used to be cut at the right edge:
    it fits whole, at the normal size."""
    a = widest(0, [carre(0, Rank.TEN)])[0]
    view = dataclasses.replace(table_view(Match("classic"), None), announcements=(a,))
    (chip,) = place(0, chip_texts(view, 0, DEFAULT_STYLE))
    assert chip.size == 15
    assert "".join(t for line in chip.lines for t, _ in line).count("10") == 5
    assert chip.box[2] <= W - 4


def test_chips_are_laid_out_without_drawing() -> None:
    words = (("Tierce 20", INK),)
    laid = place(3, [ChipText("a", words), ChipText("b", words)])
    assert [c.name for c in laid] == ["a", "b"] and laid[0].box[0] == 12
