"""The shared palette of table and hand images: as faithful as a palette chosen per image."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from bench.bench_render import mid_deal_view
from rendering import Style, draw_hand, draw_table, render_hand, render_table
from rendering.palette import FLAT, palette


def _error(img: Image.Image, mapped: Image.Image) -> tuple[float, int]:
    diff = ImageChops.difference(img, mapped.convert("RGB"))
    rms = sum(ImageStat.Stat(diff).rms) / 3
    bands = diff.getextrema()  # one (low, high) pair per band of an RGB image
    return rms, max(int(band[1]) for band in bands if isinstance(band, tuple))


@pytest.mark.parametrize("seed", [1, 7])
@pytest.mark.parametrize("four_colour", [False, True])
def test_shared_palette_is_close_to_a_palette_of_its_own(seed: int, four_colour: bool) -> None:
    public, seat = mid_deal_view(seed)
    style = Style(four_colour=four_colour)
    for img in (draw_table(public, style)[0], draw_table(seat, style)[0],
                draw_hand(seat, style)[0]):
        own, _ = _error(img, img.quantize(256, method=Image.Quantize.FASTOCTREE))
        rms, worst = _error(img, img.quantize(palette=palette(), dither=Image.Dither.NONE))
        assert rms <= max(2 * own, 3.0)
        assert worst <= 48  # an anti-aliased edge a few levels off, never another colour


def test_flat_colours_are_kept_exactly() -> None:
    entries = palette().getpalette()
    assert entries is not None
    colours = {tuple(entries[i:i + 3]) for i in range(0, 768, 3)}
    assert set(FLAT) <= colours


def test_table_and_hand_images_are_palette_pngs() -> None:
    public, seat = mid_deal_view()
    for data, ext in (render_table(public), render_hand(seat)):
        assert ext == "png"
        img = Image.open(io.BytesIO(data))
        assert img.mode == "P"
        assert len(data) <= 150 * 1024
