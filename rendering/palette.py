"""One 256-colour palette for the table and hand images, built once per process.

Choosing a palette per image (octree quantization) costs about 4 ms on the 800 x 600 table,
more than drawing it. Every table and hand image is made of the same things: the felt and its
panels, the card sprites of both decks, and text in the style's colours on the style's
backgrounds. A reference sheet of all of them, quantized once, gives a palette that fits every
such image; mapping an image onto a fixed palette costs about 0.5 ms. The style's flat colours
are put in the palette exactly, so fills never shift; anti-aliased edges map to their nearest
neighbour (tests/rendering/test_palette.py checks the error against a per-image palette).
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from . import style as s
from .paint import draw_text
from .sprites import Mark, card_back, card_face

_lock = threading.Lock()
_palette: Image.Image | None = None

FLAT = (s.FELT, s.FELT_DARK, s.FELT_RIM, s.PANEL, s.PANEL_LINE, s.TEXT, s.TEXT_DIM, s.INK,
        s.INK_DIM, s.GOLD, s.ACCENT, s.PAPER, s.PAPER_LINE, *s.TEAM, *s.TEAM_DARK, s.GOOD,
        s.BAD, s.NEUTRAL, *s.TWO_COLOUR, *s.FOUR_COLOUR, (0, 0, 0), (255, 255, 255))
BACKGROUNDS = (s.FELT, s.FELT_DARK, s.PANEL, s.PAPER, *s.TEAM_DARK)
# Card sizes drawn on tables and hands (hand, trick, the viewer's own, last trick).
CARD_SIZES = ((92, 130), (80, 112), (60, 86), (34, 48))
SAMPLE = tuple(suit * 8 + rank for suit in range(4) for rank in (3, 7))  # a 10, an ace


def reference_sheet() -> Image.Image:
    """Everything table and hand images are made of, on one image."""
    from .table import _base_layer  # the felt and empty panels, cached by the table module

    sprites = [card_back(36, 52), card_back(52, 36)]
    # Faces differ by colour, not by rank: a 10 and an ace of each suit stand for all.
    for (w, h), marks in zip(CARD_SIZES, ((Mark.PLAIN, Mark.LEGAL, Mark.DIM),
                                          (Mark.PLAIN, Mark.WINNER), (Mark.PLAIN,),
                                          (Mark.PLAIN,)), strict=True):
        sprites += [card_face(c, w, h, s.TWO_COLOUR, mark) for mark in marks for c in SAMPLE]
    sprites += [card_face(c, 92, 130, s.FOUR_COLOUR, mark)
                for mark in (Mark.PLAIN, Mark.LEGAL) for c in SAMPLE]
    width, cell_w, cell_h = 2400, 104, 142
    per_row = width // cell_w
    rows = -(-len(sprites) // per_row)
    sheet = Image.new("RGB", (width, 600 + rows * cell_h + 160), s.FELT)
    sheet.paste(_base_layer(), (0, 0))
    for i, sprite in enumerate(sprites):
        sheet.paste(sprite, ((i % per_row) * cell_w, 600 + (i // per_row) * cell_h), sprite)
    d = ImageDraw.Draw(sheet)
    ty = sheet.height - 155
    for i, bg in enumerate(BACKGROUNDS):
        d.rectangle((800 + i * 260, ty, 800 + i * 260 + 259, ty + 150), fill=bg)
        for j, fg in enumerate(FLAT):
            draw_text(d, (800 + i * 260 + 4 + (j % 3) * 85, ty + 4 + (j // 3) * 14),
                      "Ag8\u2665\u2660", 13 + (j % 2) * 6, fg, bold=j % 2 == 0)
    return sheet


def palette() -> Image.Image:
    """The shared palette (a "P" image whose palette quantize() can map onto)."""
    global _palette
    if _palette is not None:
        return _palette
    with _lock:
        if _palette is None:
            learned = reference_sheet().quantize(256 - len(FLAT),
                                                 method=Image.Quantize.FASTOCTREE)
            colours = [tuple(learned.getpalette()[i:i + 3])  # type: ignore[index]
                       for i in range(0, 3 * (256 - len(FLAT)), 3)]
            flat = list(dict.fromkeys(FLAT))
            entries = flat + [c for c in colours if c not in flat]
            entries += [(0, 0, 0)] * (256 - len(entries))
            pal = Image.new("P", (1, 1))
            pal.putpalette([v for c in entries[:256] for v in c])
            _palette = pal
        return _palette
