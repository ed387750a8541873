"""The table image: what everybody at the table sees (or one seat, with its own hand).

800 x 600. The seat the image is for sits at the bottom (seat 0 in the public view); play goes
round counter-clockwise, so the next seat is on the right. The felt and the empty panels are one
cached layer; each call copies it and draws only what the view says.
"""

from __future__ import annotations

import threading
from typing import Final

from PIL import Image, ImageDraw

from game.view import Stage, TableView, shown_order
from i18n.values import announcement_title

from . import slots
from .chips import PAD, ChipText, line_height, place
from .fonts import font
from .layout import Box, Layout
from .paint import Run, draw_runs, draw_text, fit, is_cut, length, runs_width
from .sprites import SS, Mark, card_back, paste, styled_face
from .style import (
    ACCENT,
    DEFAULT_STYLE,
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    INK_DIM,
    PANEL,
    PANEL_LINE,
    PAPER,
    PAPER_LINE,
    PIPS,
    TEAM,
    TEAM_DARK,
    TEXT,
    TEXT_DIM,
    Style,
)
from .words import bid_runs, card_runs, contract_runs

W, H = 800, 600
CONTRACT_PANEL: Final[Box] = (8, 8, 252, 112)
SCORE_PANEL: Final[Box] = (548, 8, 792, 112)
LAST_PANEL: Final[Box] = (10, 452, 196, 590)

# Per position (0 bottom, 1 right, 2 top, 3 left): the name plate's centre and width, the
# centre of the row of cards, the trick card's corner, the bid bubble's centre, where tags go.
PLATE: Final = ((400, 572, 210), (692, 250, 190), (400, 30, 210), (108, 250, 190))
CARDS_ROW: Final = ((400, 522), (692, 304), (400, 84), (108, 304))
TRICK_AT: Final = ((360, 300), (438, 236), (360, 172), (282, 236))
BUBBLE_AT: Final = ((400, 432), (552, 292), (400, 152), (248, 292))
TRICK_CARD: Final = (80, 112)
BACK: Final = (36, 52)
MINE: Final = (60, 86)  # the viewer's own cards on the table
LAST_CARD: Final = (34, 48)
LAST_CENTRE: Final = (103, 528)
LAST_OFFSET: Final = ((-17, 2), (18, -24), (-17, -46), (-52, -24))

_base_lock = threading.Lock()
_base: Image.Image | None = None


def _base_layer() -> Image.Image:
    """The felt and the empty panels, drawn once (supersampled for smooth corners)."""
    global _base
    if _base is not None:
        return _base
    big = Image.new("RGB", (W * SS, H * SS), FELT_DARK)
    d = ImageDraw.Draw(big)

    def rr(box: Box, radius: int, fill: tuple[int, int, int],
           outline: tuple[int, int, int] | None = None, width: int = 2) -> None:
        d.rounded_rectangle(tuple(v * SS for v in box), radius * SS, fill=fill, outline=outline,
                            width=width * SS)

    rr((4, 4, W - 5, H - 5), 44, FELT, PANEL_LINE, 3)
    d.ellipse((230 * SS, 150 * SS, 570 * SS, 440 * SS), outline=(30, 110, 72), width=3 * SS)
    rr(CONTRACT_PANEL, 12, PAPER, PAPER_LINE)
    rr(SCORE_PANEL, 12, PANEL, PANEL_LINE)
    layer = big.resize((W, H), Image.Resampling.LANCZOS)
    with _base_lock:
        if _base is None:
            _base = layer
        return _base


def _position(view: TableView, seat: int) -> int:
    bottom = view.viewer if view.viewer is not None else 0
    return (seat - bottom) & 3


def draw_table(view: TableView, style: Style = DEFAULT_STYLE) -> tuple[Image.Image, Layout]:
    """The table as ``view`` shows it, and the layout of what was drawn."""
    img = _base_layer().copy()
    d = ImageDraw.Draw(img)
    lay = Layout((W, H))
    _contract_panel(d, view, style, lay)
    _score_panel(d, view, style, lay)
    for seat in range(4):
        _seat(img, d, view, seat, style, lay)
    _centre(img, d, view, style, lay)
    _last_trick(img, d, view, style, lay)
    return img, lay


# ---- panels ------------------------------------------------------------------------------------
def _contract_panel(d: ImageDraw.ImageDraw, view: TableView, style: Style, lay: Layout) -> None:
    lab = style.labels
    x0, y0, x1, _ = CONTRACT_PANEL
    width = x1 - x0 - 24
    deal = lab("deal", n=view.deal_number) if view.deal_number else None
    if deal is not None:
        lay.add("deal_number", slots.PANEL_DEAL.draw(d, (x0 + 12, y0 + 10), deal, INK))
        x = lay.box("deal_number")[2] + slots.PANEL_GAP
    else:
        x = x0 + 12
    # The variant's name takes what the deal number leaves: smaller, or on two lines, in a
    # language whose words are long ("Класически белот"), never cut.
    slot, title = slots.panel_variant_text(lab, view.variant.value, deal, x1 - 12 - x)
    fitted = slot.fit(title)
    if fitted is None or len(fitted[1]) == 1:
        box = slot.draw(d, (x, y0 + 11), title, INK_DIM)
    else:  # two lines, centred on the deal number's line
        box = slot.draw(d, (x, y0 + 19), title, INK_DIM, anchor="lm")
    lay.add("variant", box)
    contract = view.contract if view.contract is not None else view.high_bid
    if contract is None:
        if view.stage is Stage.BIDDING:
            lay.add("bidding", slots.PANEL_BIDDING.draw(d, (x0 + 12, y0 + 40), lab("bidding"),
                                                        INK))
        return
    key = "contract" if view.contract is not None else "high_bid"
    slots.PANEL_LABEL.draw(d, (x0 + 12, y0 + 30), lab(key), INK_DIM)
    runs = contract_runs(contract, view.variant, style, INK, ACCENT)
    size = 26
    while size > 14 and runs_width(runs, size, True) > width:
        size -= 2  # '140 ♥ Surcontre' must fit in the panel
    box = draw_runs(d, (x0 + 12, y0 + 64), runs, size, bold=True)
    lay.add("contract" if view.contract is not None else "high_bid", box)
    if contract.multiplier > 1:
        lay.add(f"multiplier:{contract.multiplier}", box)
    team = contract.seat & 1
    by = lab("by", name=view.players[contract.seat])
    holder = draw_text(d, (x0 + 12, y0 + 84), by, 16, TEAM_DARK[team], bold=True, width=width)
    lay.add(f"holder:{contract.seat}", holder)
    if is_cut(by, 16, width, bold=True):
        lay.add("cut:holder", holder)


def _score_panel(d: ImageDraw.ImageDraw, view: TableView, style: Style, lay: Layout) -> None:
    lab = style.labels
    x0, y0, x1, _ = SCORE_PANEL
    for team in (0, 1):
        cy = y0 + 24 + team * 34
        d.rounded_rectangle((x0 + 10, cy - 12, x0 + 16, cy + 12), 3, fill=TEAM[team])
        score = style.number(view.totals[team])
        sbox = draw_text(d, (x1 - 12, cy), score, 26, TEXT, bold=True, anchor="rm")
        names = lab("team", a=view.players[team], b=view.players[team + 2])
        room = sbox[0] - x0 - 34
        nbox = draw_text(d, (x0 + 24, cy), names, 16, TEXT, anchor="lm", width=room)
        lay.add(f"score:{team}", sbox)
        if is_cut(names, 16, room):
            lay.add(f"cut:team:{team}", nbox)
    foot = slots.TARGET.draw(d, (x0 + 24, y0 + 92), lab("target", n=view.target), TEXT_DIM,
                             anchor="lm")
    lay.add("target", foot)
    if view.hanging:
        held = slots.HELD.draw(d, (x1 - 12, y0 + 92), lab("held", n=view.hanging), GOLD,
                               anchor="rm")
        lay.add("hanging", held)


# ---- seats -------------------------------------------------------------------------------------
def _seat(img: Image.Image, d: ImageDraw.ImageDraw, view: TableView, seat: int, style: Style,
          lay: Layout) -> None:
    pos = _position(view, seat)
    cx, cy, width = PLATE[pos]
    box = (cx - width // 2, cy - 20, cx + width // 2, cy + 20)
    acting = view.to_act == seat
    team = seat & 1
    if acting:  # a gold plate with a pointer toward the table: whose turn, at a glance
        d.rounded_rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), 13, fill=GOLD)
        _pointer(d, pos, box)
        lay.add(f"turn:{seat}", box)
    d.rounded_rectangle(box, 10, fill=GOLD if acting else PANEL,
                        outline=None if acting else PANEL_LINE, width=2)
    d.rounded_rectangle((box[0] + 6, box[1] + 8, box[0] + 12, box[3] - 8), 3,
                        fill=TEAM_DARK[team] if acting else TEAM[team])
    right = box[2] - 10
    if view.dealer == seat:
        r = 13
        dx = box[2] - 8 - r
        d.ellipse((dx - r, cy - r, dx + r, cy + r), fill=PAPER, outline=INK, width=2)
        slots.DEALER.draw(d, (dx, cy + 1), style.labels("dealer"), INK, anchor="mm")
        lay.add(f"dealer:{seat}", (dx - r, cy - r, dx + r, cy + r))
        right = dx - r - 6
    name = view.players[seat]
    # "(you)" after the viewer's own name is a label: a long name is cut to leave it room.
    you = f" ({style.labels('you')})" if view.viewer == seat else ""
    f = font(19, True)
    room = right - box[0] - 20 - (int(f.getbbox(you)[2]) if you else 0)
    ink = INK if acting else TEXT
    nbox = draw_text(d, (box[0] + 20, cy), name, 19, ink, bold=True, anchor="lm", width=room)
    if you:
        after = box[0] + 20 + length(fit(name, f, room), f)
        ybox = slots.YOU.draw(d, (after, cy), you, ink, anchor="lm")
        lay.add(f"you:{seat}", ybox)
        nbox = (nbox[0], min(nbox[1], ybox[1]), ybox[2], max(nbox[3], ybox[3]))
    lay.add(f"seat:{seat}", box)
    lay.add(f"name:{seat}", nbox)
    if is_cut(name, 19, room, bold=True):
        lay.add(f"cut:name:{seat}", nbox)
    _cards(img, view, seat, pos, style, lay)
    _tags(img, d, view, seat, pos, style, lay)
    if view.stage is Stage.BIDDING:
        said = [bid for s, bid in view.bids if s == seat]
        if said:
            _bubble(d, BUBBLE_AT[pos], bid_runs(said[-1], style, INK), lay, f"bid:{seat}")


def _pointer(d: ImageDraw.ImageDraw, pos: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
    s = 12
    tri = {
        0: [(mx - s, y0 - 4), (mx + s, y0 - 4), (mx, y0 - 4 - s)],
        2: [(mx - s, y1 + 4), (mx + s, y1 + 4), (mx, y1 + 4 + s)],
        1: [(x0 - 4, my - s), (x0 - 4, my + s), (x0 - 4 - s, my)],
        3: [(x1 + 4, my - s), (x1 + 4, my + s), (x1 + 4 + s, my)],
    }[pos]
    d.polygon(tri, fill=GOLD)


def _cards(img: Image.Image, view: TableView, seat: int, pos: int, style: Style,
           lay: Layout) -> None:
    cx, cy = CARDS_ROW[pos]
    if view.viewer == seat and view.hand:
        _own_hand(img, view, style, lay)
        return
    n = view.hand_counts[seat]
    if n == 0:
        return
    w, h = BACK
    step = 15
    total = w + (n - 1) * step
    x = cx - total // 2
    y = cy - h // 2
    sprite = card_back(w, h)
    for i in range(n):
        paste(img, sprite, x + i * step, y)
    lay.add(f"backs:{seat}", (x, y, x + total, y + h))
    lay.add(f"backs:{seat}:{n}", (x, y, x + total, y + h))


def _own_hand(img: Image.Image, view: TableView, style: Style, lay: Layout) -> None:
    w, h = MINE
    cards = shown_order(view)
    step = 42
    total = w + (len(cards) - 1) * step
    x = 400 - total // 2
    y = 462
    legal = set(view.legal_cards)
    for i, c in enumerate(cards):
        mark = Mark.PLAIN
        lift = 0
        if view.legal_cards:
            mark = Mark.LEGAL if c in legal else Mark.DIM
            lift = 10 if c in legal else 0
        box = paste(img, styled_face(c, w, h, style, mark), x + i * step, y - lift)
        lay.add(f"hand:{c}", box)
    lay.add(f"hand:{view.viewer}", (x, y - 10, x + total, y + h))


def _tags(img: Image.Image, d: ImageDraw.ImageDraw, view: TableView, seat: int, pos: int,
          style: Style, lay: Layout) -> None:
    """Announcements and belote calls next to the seat that made them (rendering/chips.py
    says where: inside the image, clear of the panels, whatever the labels)."""
    lay_out = place(pos, chip_texts(view, seat, style),
                    own_hand=view.viewer is not None and bool(view.hand))
    for chip in lay_out:
        box = chip.box
        outline = GOLD if chip.scored else PAPER_LINE
        d.rounded_rectangle(box, 8, fill=PAPER if chip.scored is not False else (200, 200, 196),
                            outline=outline, width=2)
        lh = line_height(chip.size)
        top = box[1] + (box[3] - box[1] - lh * len(chip.lines)) / 2
        for k, runs in enumerate(chip.lines):
            y = round(top + lh * (k + 0.5))
            if chip.scored is False:
                runs = tuple((t, INK_DIM) for t, _ in runs)
            end = draw_runs(d, (box[0] + PAD, y), runs, chip.size)[2]
            if chip.scored is False:  # an announcement that lost the comparison: struck through
                d.line((box[0] + PAD - 2, y, end + 2, y), fill=INK_DIM, width=2)
        lay.add(chip.name, box)


def chip_texts(view: TableView, seat: int, style: Style) -> list[ChipText]:
    """What the seat's chips say: its announcements (with their cards once shown), then its
    belote and rebelote."""
    lab = style.labels
    chips: list[ChipText] = []
    for i, a in enumerate(view.announcements):
        if a.seat == seat:
            chips.append(ChipText(
                f"announcement:{seat}:{i}",
                ((f"{announcement_title(a.carre_rank, a.length, style.language)} "
                  f"{style.number(a.points)}", INK),),
                tuple(card_runs(a.cards, style)), a.scored))
    for call in view.belote_calls:
        if call.seat == seat:
            chips.append(ChipText(f"{call.word}:{seat}", (
                (lab(call.word) + " ", INK),
                (PIPS[call.card >> 3], style.suit_colour(call.card >> 3)))))
    return chips


def _bubble(d: ImageDraw.ImageDraw, centre: tuple[int, int], runs: list[Run], lay: Layout,
            name: str) -> None:
    size = 20
    w = runs_width(runs, size, True) + 28
    cx, cy = centre
    box = (cx - w // 2, cy - 18, cx + w // 2, cy + 18)
    d.rounded_rectangle(box, 18, fill=PAPER, outline=PAPER_LINE, width=2)
    draw_runs(d, (cx, cy), runs, size, bold=True, anchor="mm")
    lay.add(name, box)


# ---- the middle of the table -------------------------------------------------------------------
def _centre(img: Image.Image, d: ImageDraw.ImageDraw, view: TableView, style: Style,
            lay: Layout) -> None:
    w, h = TRICK_CARD
    if view.turned_card is not None:
        box = paste(img, styled_face(view.turned_card, w, h, style), 360, 236)
        lay.add("turned_card", box)
        lay.add(f"turned_card:{view.turned_card}", box)
    if view.trick is not None:
        for i, c in enumerate(view.trick.cards):
            seat = view.trick.seat_of(i)
            x, y = TRICK_AT[_position(view, seat)]
            box = paste(img, styled_face(c, w, h, style), x, y)
            lay.add(f"trick:{seat}:{c}", box)
        lay.add("trick", (282, 172, 518, 412))
    lab = style.labels
    if view.stage is Stage.OVER and view.winner is not None:
        t = view.winner
        _banner(d, lab("match.over"), lab("match.wins", team=lab(
            "team", a=view.players[t], b=view.players[t + 2])), TEAM_DARK[t], lay, "banner:over")
    elif view.stage is Stage.WAITING:
        r = view.last_result
        if r is None:
            _banner(d, lab("banner.first"), None, INK, lay, "banner:first")
        else:
            line = f"{style.number(r.score[0])}  –  {style.number(r.score[1])}"
            _banner(d, lab("banner.deal_over", n=view.deal_number,
                           result=lab(f"result.{r.outcome.value}")), line, INK, lay,
                    "banner:deal_over")


def _banner(d: ImageDraw.ImageDraw, title: str, line: str | None, colour: tuple[int, int, int],
            lay: Layout, name: str) -> None:
    box = (230, 240, 570, 240 + (104 if line else 64))
    d.rounded_rectangle(box, 14, fill=PAPER, outline=GOLD, width=3)
    slots.BANNER_TITLE.draw(d, (400, box[1] + 32), title, INK, anchor="mm")
    if line:
        draw_text(d, (400, box[1] + 72), line, 22, colour, bold=True, anchor="mm", width=320)
    lay.add(name, box)


def _last_trick(img: Image.Image, d: ImageDraw.ImageDraw, view: TableView, style: Style,
                lay: Layout) -> None:
    t = view.last_trick
    if t is None:
        return
    x0, y0, _, _ = LAST_PANEL
    d.rounded_rectangle(LAST_PANEL, 12, fill=PANEL, outline=PANEL_LINE, width=2)
    slots.LAST_TRICK.draw(d, (x0 + 12, y0 + 8), style.labels("last_trick"), TEXT_DIM)
    w, h = LAST_CARD
    cx, cy = LAST_CENTRE
    for i, c in enumerate(t.cards):
        seat = t.seat_of(i)
        ox, oy = LAST_OFFSET[_position(view, seat)]
        mark = Mark.WINNER if seat == t.winner else Mark.PLAIN
        paste(img, styled_face(c, w, h, style, mark), cx + ox, cy + oy)
    lay.add("last_trick", LAST_PANEL)
    if t.winner is not None:
        lay.add(f"last_trick_winner:{t.winner}", LAST_PANEL)

