"""Images to bytes, in the format that suits each kind of image.

bench/bench_render.py measures every format on the table image (800 x 600). A truecolour PNG
keeps text crisp but its per-row filter search costs about 10 ms; JPEG is fast but blurs small
text and is bigger here; WebP lossless sits in between. Our images are flat colours, a few
suit colours and anti-aliased edges, so a 256-colour palette (fast octree, deterministic) loses
nothing visible and makes PNG both the fastest and the smallest: that is the choice for every kind.

Choosing the palette is most of that cost (octree: ~4 ms on the table), so the images the bot
makes on every action, tables and hands, map onto one shared palette built once from everything
they are drawn with (palette.py: ~0.5 ms, error within a few levels of a per-image palette).
Sheets, results and leaderboards, made once per deal or less, keep their own palette.
"""

from __future__ import annotations

import io
from enum import Enum
from typing import Final

from PIL import Image

from .palette import palette


class Kind(Enum):
    TABLE = "table"
    HAND = "hand"
    SHEET = "sheet"
    RESULT = "result"
    BOARD = "board"


class Format(Enum):
    PNG8 = "png8"  # palette PNG: 256 colours chosen for the image
    PNG8_SHARED = "png8-shared"  # palette PNG on the shared palette of palette.py
    PNG = "png"  # truecolour PNG
    JPEG = "jpeg"
    WEBP = "webp"  # lossless

    @property
    def extension(self) -> str:
        return "jpg" if self is Format.JPEG else "webp" if self is Format.WEBP else "png"


FORMAT_FOR: Final[dict[Kind, Format]] = {
    kind: Format.PNG8_SHARED if kind in (Kind.TABLE, Kind.HAND) else Format.PNG8 for kind in Kind}


def encode(img: Image.Image, fmt: Format) -> bytes:
    """``img`` as ``fmt`` bytes, with settings chosen for speed and legible text."""
    out = io.BytesIO()
    if fmt is Format.PNG8:
        img.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, "PNG", compress_level=1)
    elif fmt is Format.PNG8_SHARED:
        img.quantize(palette=palette(), dither=Image.Dither.NONE).save(out, "PNG",
                                                                       compress_level=1)
    elif fmt is Format.PNG:
        img.save(out, "PNG", compress_level=1)
    elif fmt is Format.JPEG:
        img.save(out, "JPEG", quality=90, subsampling=0)  # 4:4:4 keeps coloured text sharp
    else:
        img.save(out, "WEBP", lossless=True, quality=0, method=0)
    return out.getvalue()


def encode_for(img: Image.Image, kind: Kind) -> tuple[bytes, str]:
    """``img`` in the format chosen for ``kind``: (bytes, filename extension without dot)."""
    fmt = FORMAT_FOR[kind]
    return encode(img, fmt), fmt.extension
