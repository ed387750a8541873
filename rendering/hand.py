"""One player's hand: big cards sorted by suit and strength, the playable ones lifted and lit.

This image goes to its holder only (a DM or an ephemeral reply), never to the table channel.
"""

from __future__ import annotations

from typing import Final

from PIL import Image, ImageDraw

from game.view import Stage, TableView, shown_order

from . import slots
from .layout import Layout
from .paint import Run, draw_runs, draw_text, runs_width
from .sprites import Mark, paste, styled_face
from .style import ACCENT, DEFAULT_STYLE, FELT_DARK, GOLD, INK, INK_DIM, PAPER, TEXT, Style
from .words import contract_runs

W: Final = 800
CARD: Final = (92, 130)
STEP: Final = 98
TOP: Final = 80  # two header lines, then the cards
LIFT: Final = 14
H: Final = TOP + LIFT + CARD[1] + 14


def draw_hand(view: TableView, style: Style = DEFAULT_STYLE) -> tuple[Image.Image, Layout]:
    """The viewer's hand. ``view`` must be a seat's view (``view.viewer`` not None)."""
    if view.viewer is None:
        raise ValueError("a hand image needs a seat's view, not the public one")
    lab = style.labels
    img = Image.new("RGB", (W, H), FELT_DARK)
    d = ImageDraw.Draw(img)
    lay = Layout((W, H))
    contract_left = W - 16
    contract = view.contract
    if contract is not None:
        runs: list[Run] = [(lab("contract_colon") + " ", INK_DIM)]
        runs += contract_runs(contract, view.variant, style, INK, ACCENT)
        # Black pips do not show on the dark felt: the contract goes on a paper chip.
        w = runs_width(runs, 18, True) + 20
        box = (W - 16 - w, 10, W - 16, 44)
        d.rounded_rectangle(box, 10, fill=PAPER)
        draw_runs(d, (box[0] + 10, 27), runs, 18, bold=True)
        lay.add("contract", box)
        contract_left = box[0]
    draw_text(d, (16, 27), lab("your_hand", name=view.players[view.viewer]), 22, TEXT,
              bold=True, anchor="lm", width=contract_left - 30)
    if view.is_my_turn:
        prompt = lab("your_bid") if view.stage is Stage.BIDDING else lab("your_turn")
        lay.add("turn_prompt", slots.HAND_PROMPT.draw(d, (16, 62), prompt, GOLD, anchor="lm"))
    cards = shown_order(view)
    w, h = CARD
    x = (W - (w + STEP * (len(cards) - 1))) // 2 if cards else 0
    legal = set(view.legal_cards)
    for c in cards:
        mark, lift = Mark.PLAIN, LIFT // 2
        if view.legal_cards:
            mark, lift = (Mark.LEGAL, LIFT) if c in legal else (Mark.DIM, 0)
        box = paste(img, styled_face(c, w, h, style, mark), x, TOP + LIFT - lift)
        lay.add(f"card:{c}", box)
        if view.legal_cards:
            lay.add(f"{'legal' if c in legal else 'dim'}:{c}", box)
        x += STEP
    return img, lay

