"""Card faces and backs drawn in code, cached as immutable RGBA sprites.

A sprite is drawn once at four times its size and scaled down (smooth edges, crisp ranks), then
kept for the life of the process. The cache is shared by threads: a sprite is never changed after
it is stored, and storing goes through a lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import StrEnum
from typing import Final

from PIL import Image, ImageDraw, ImageFilter

from game.cards import Card

from .fonts import font
from .style import GOLD, PAPER, PIPS, RGB, Style, rank_text

SS: Final = 4  # supersampling factor
PAD: Final = 6  # room around a card for its shadow or glow, on every side
# The English ranks; a card drawn for another language gets its own (Style.ranks).
RANK_TEXT: Final = rank_text()
BACK: Final[RGB] = (150, 30, 45)
BACK_LINE: Final[RGB] = (190, 70, 80)

_lock = threading.Lock()
_cache: dict[tuple[object, ...], Image.Image] = {}


def _cached(key: tuple[object, ...], make: Callable[[], Image.Image]) -> Image.Image:
    sprite = _cache.get(key)
    if sprite is None:
        sprite = make()  # drawn outside the lock: two threads may both draw it, one is kept
        with _lock:
            sprite = _cache.setdefault(key, sprite)
    return sprite


class Mark(StrEnum):
    PLAIN = "plain"  # with a soft shadow
    LEGAL = "legal"  # with a gold glow: a card the player may play
    DIM = "dim"  # greyed: a card the player may not play now
    WINNER = "winner"  # gold ring: the card that took the trick


def _glyph_centre(d: ImageDraw.ImageDraw, text: str, size: int, cx: float, cy: float,
                  fill: RGB, bold: bool = False) -> None:
    """Draw ``text`` with the centre of its ink (not of its line box) at (cx, cy)."""
    f = font(size, bold)
    x0, y0, x1, y1 = f.getbbox(text, anchor="ls")
    d.text((cx - (x0 + x1) / 2, cy - (y0 + y1) / 2), text, font=f, fill=fill, anchor="ls")


def _rounded_mask(w: int, h: int, radius: int) -> Image.Image:
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=255)
    return mask


def _frame(w: int, h: int, body: Image.Image, mark: Mark) -> Image.Image:
    """Put a card body (RGBA, w x h, supersampled) on its shadow or glow and scale it down."""
    W, H, P = w * SS, h * SS, PAD * SS
    out = Image.new("RGBA", (W + 2 * P, H + 2 * P), (0, 0, 0, 0))
    halo = Image.new("L", out.size, 0)
    hd = ImageDraw.Draw(halo)
    radius = max(2, w // 10) * SS
    if mark in (Mark.LEGAL, Mark.WINNER):
        grow = (4 if mark is Mark.LEGAL else 3) * SS
        hd.rounded_rectangle((P - grow, P - grow, P + W + grow, P + H + grow), radius + grow,
                             fill=255)
        glow = Image.new("RGBA", out.size, (*GOLD, 255))
        out.paste(glow, (0, 0), halo)
    else:
        hd.rounded_rectangle((P + SS, P + 2 * SS, P + W + SS, P + H + 2 * SS), radius, fill=110)
        halo = halo.filter(ImageFilter.GaussianBlur(2 * SS))
        out.paste(Image.new("RGBA", out.size, (0, 0, 0, 255)), (0, 0), halo)
    out.alpha_composite(body, (P, P))
    return out.resize((w + 2 * PAD, h + 2 * PAD), Image.Resampling.LANCZOS)


def _face_body(c: Card, w: int, h: int, colour: RGB, dim: bool,
               ranks: tuple[str, ...]) -> Image.Image:
    # Cards 50 px wide or more have their rank in the corner (they may overlap in a fan);
    # smaller ones (the last trick) show rank over pip, as big as they fit.
    W, H = w * SS, h * SS
    radius = max(2, w // 10) * SS
    body = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(body)
    paper = (206, 206, 200) if dim else PAPER
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=paper, outline=(120, 120, 120),
                        width=SS)
    ink: RGB = ((colour[0] + 380) // 3, (colour[1] + 380) // 3, (colour[2] + 380) // 3) \
        if dim else colour
    rank, pip = ranks[c & 7], PIPS[c >> 3]
    if w >= 50:
        rs = int(H * 0.27)
        f = font(rs, True)
        x = int(W * 0.08)
        d.text((x, int(H * 0.04)), rank, font=f, fill=ink, anchor="la")
        # the pip goes under the rank's first glyph when the rank is two ("10"): centred under
        # both it would stray toward the middle of the card
        rank_cx = x + f.getlength(rank) / 2 if len(rank) == 1 else x + f.getlength(rank[0])
        _glyph_centre(d, pip, int(H * 0.2), rank_cx, H * 0.44, ink)
        _glyph_centre(d, pip, int(H * 0.56), W * 0.63, H * 0.68, ink)
    else:
        _glyph_centre(d, rank, int(H * 0.44), W / 2, H * 0.29, ink, bold=True)
        _glyph_centre(d, pip, int(H * 0.42), W / 2, H * 0.72, ink)
    return body


def card_face(c: Card, w: int, h: int, colours: tuple[RGB, RGB, RGB, RGB],
              mark: Mark = Mark.PLAIN, ranks: tuple[str, ...] = RANK_TEXT) -> Image.Image:
    """The face of card ``c``, ``w`` x ``h`` pixels, with PAD pixels of shadow/glow around;
    ``ranks`` are the rank letters of the image's language (in the cache key: a French
    queen, D, is not the English one, Q)."""
    return _cached(("face", c, w, h, colours, mark, ranks),
                   lambda: _frame(w, h, _face_body(c, w, h, colours[c >> 3], mark is Mark.DIM,
                                                   ranks), mark))


def styled_face(c: Card, w: int, h: int, style: Style, mark: Mark = Mark.PLAIN) -> Image.Image:
    """``card_face`` in a style's colours and language."""
    return card_face(c, w, h, style.suit_colours, mark, style.ranks)


def _back_body(w: int, h: int) -> Image.Image:
    W, H = w * SS, h * SS
    radius = max(2, w // 10) * SS
    body = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(body)
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=PAPER, outline=(120, 120, 120),
                        width=SS)
    m = max(2, w // 12) * SS
    inner = Image.new("RGBA", (W - 2 * m, H - 2 * m), (*BACK, 255))
    idr = ImageDraw.Draw(inner)
    step = max(5, w // 6) * SS
    for k in range(-H, W + H, step):  # a diagonal lattice
        idr.line((k, 0, k + H, H), fill=BACK_LINE, width=SS)
        idr.line((k, H, k + H, 0), fill=BACK_LINE, width=SS)
    body.paste(inner, (m, m), _rounded_mask(W - 2 * m, H - 2 * m, max(SS, radius - m)))
    return body


def card_back(w: int, h: int) -> Image.Image:
    """A card back, ``w`` x ``h`` (pass h < w for a card lying sideways), PAD around."""
    return _cached(("back", w, h), lambda: _frame(w, h, _back_body(w, h), Mark.PLAIN))


def paste(canvas: Image.Image, sprite: Image.Image, x: int, y: int) -> tuple[int, int, int, int]:
    """Paste a card sprite so that the card itself (not its shadow) has its corner at (x, y);
    return the card's box."""
    canvas.paste(sprite, (x - PAD, y - PAD), sprite)
    return (x, y, x + sprite.width - 2 * PAD, y + sprite.height - 2 * PAD)
