"""The fonts the images use: DejaVu Sans, shipped in rendering/fonts/ with its licence.

System fonts are never loaded, so an image looks the same on every machine. FreeType faces are
not safe to share between threads, so each thread keeps its own (a handful of sizes, loaded once).
"""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

_local = threading.local()


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels, cached per thread."""
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (size, bold)
    f = cache.get(key)
    if f is None:
        # BASIC layout: the same glyph placement whether or not libraqm is installed.
        f = ImageFont.truetype(str(BOLD if bold else REGULAR), size,
                               layout_engine=ImageFont.Layout.BASIC)
        cache[key] = f
    return f
