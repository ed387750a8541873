"""Render and encode the table image: median milliseconds and bytes per format.

    python bench/bench_render.py [--runs 200]

Targets (issue 3): at most 15 ms median and 150 KB for the table image, crisp text. The last
lines draw the same views in each language (en, fr, bg): the words and rank letters come from
the catalogue and labels are fitted to their places, which must not cost noticeable time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from PIL import Image

from game.match import Match
from game.players import RandomPlayer
from game.view import TableView, table_view
from i18n import languages
from rendering import Style, draw_hand, draw_table
from rendering.encode import Format, Kind, encode, encode_for


def mid_deal_view(seed: int = 7) -> tuple[TableView, TableView]:
    """A public and a seat view in the middle of a classic deal: two cards of the second trick
    on the table, the first trick as the last trick, announcements shown."""
    m = Match("classic", players=["Ana", "Bo", "Cy", "Dee"])
    players = [RandomPlayer(seed * 4 + i) for i in range(4)]
    m.start_deal(m.new_deck(seed))
    deal = m.deal
    assert deal is not None
    while not (len(deal.tricks) == 1 and len(deal.trick) == 2):
        seat = deal.to_act
        assert seat is not None
        m.apply(players[seat].choose(table_view(m, seat)))
    seat = deal.to_act
    assert seat is not None
    return table_view(m, None), table_view(m, seat)


def _encode_drawn(draw: Callable[[TableView], tuple[Image.Image, object]], view: TableView,
                  fmt: Format) -> bytes:
    return encode(draw(view)[0], fmt)


def _shipped(draw: Callable[[TableView, Style], tuple[Image.Image, object]], view: TableView,
             style: Style, kind: Kind) -> bytes:
    """Drawn and encoded as the bot ships it (rendering.render_table / render_hand)."""
    return encode_for(draw(view, style)[0], kind)[0]


def median_ms(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm the caches: sprites and the felt layer are drawn once per process
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    public, seat = mid_deal_view()
    print(f"draw only, table (public):  {median_ms(lambda: draw_table(public), args.runs):6.2f} ms")
    for name, view, draw in (("table (public)", public, draw_table),
                             ("table (seat)", seat, draw_table),
                             ("hand", seat, draw_hand)):
        img, _ = draw(view)
        for fmt in Format:
            ms = median_ms(partial(_encode_drawn, draw, view, fmt), args.runs)
            size = len(encode(img, fmt))
            print(f"{name:15} {fmt.value:5}  {ms:6.2f} ms  {size / 1024:6.1f} KB")
    for language in languages():
        style = Style(language=language)
        for name, view, draw, kind in (("table (seat)", seat, draw_table, Kind.TABLE),
                                       ("hand", seat, draw_hand, Kind.HAND)):
            ms = median_ms(partial(_shipped, draw, view, style, kind), args.runs)
            size = len(_shipped(draw, view, style, kind))
            print(f"{name:15} {language}     {ms:6.2f} ms  {size / 1024:6.1f} KB  (as shipped)")


if __name__ == "__main__":
    main()
