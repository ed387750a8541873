"""What an image shows, as a hashable key: two views with equal keys give the same image.

The bot keeps hand images by these keys so that it neither draws nor uploads again a picture a
player already has (during the bidding a hand goes back and forth between two pictures: your
turn, not your turn). A key lists exactly what hand.draw_hand reads; tests/rendering/
test_keys.py draws whole matches and checks that equal keys always mean equal bytes.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace

from game.view import TableView

from .style import DEFAULT_STYLE, Style


def hand_key(view: TableView, style: Style = DEFAULT_STYLE,
             language: str | None = None) -> Hashable:
    """The key of ``render_hand(view, style, language)``: the style (its colours and its
    language: a French and an English hand differ), the holder's name, the contract chip, the
    prompt (whose turn, bidding or play), the cards and which of them are playable."""
    if language is not None and language != style.language:
        style = replace(style, language=language)
    if view.viewer is None:
        raise ValueError("a hand image needs a seat's view, not the public one")
    prompt = view.stage if view.is_my_turn else None
    return (style, view.players[view.viewer], view.variant, view.contract, prompt, view.hand,
            view.legal_cards)
