"""Text is stamped from kept masks (rendering/paint.py: put_text, text_box): the pixels and boxes
must be exactly those of Pillow's own ImageDraw.text and textbbox, whatever the position
(fractions of a pixel included), the anchor, the size or the script."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from rendering.fonts import font
from rendering.paint import put_text, text_box

TEXTS = ("Ana", "Bo (you)", "10 ♠", "Контра", "Capot ×2", "1 234")
PLACES = ((40, 30), (40.5, 30.25), (171.75, 62.9), (12.0, 80.5))


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm", "ls", "ma"])
@pytest.mark.parametrize("bold", [False, True])
def test_a_stamped_text_is_pixel_for_pixel_pillows(anchor: str, bold: bool) -> None:
    for size in (13, 19, 26):
        f = font(size, bold)
        for text in TEXTS:
            for xy in PLACES:
                for _ in range(2):  # the second time from the kept mask
                    ours = Image.new("RGB", (240, 120), (20, 90, 60))
                    theirs = ours.copy()
                    put_text(ImageDraw.Draw(ours), xy, text, f, (250, 240, 200), anchor)
                    ImageDraw.Draw(theirs).text(xy, text, font=f, fill=(250, 240, 200),
                                                anchor=anchor)
                    assert ImageChops.difference(ours, theirs).getbbox() is None, \
                        (text, xy, size, anchor)
                    d = ImageDraw.Draw(theirs)
                    assert text_box(xy, text, f, anchor) == tuple(
                        int(v) for v in d.textbbox(xy, text, font=f, anchor=anchor))
