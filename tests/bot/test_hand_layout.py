"""A hand's controls fit a phone: card and bid buttons in rows of four, the cards in the order
the hand image and the hand's text show them (trumps first), the bidding's controls within
Discord's five rows of five, over whole random matches of every variant and language."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import layout, messages
from bot.controls import ActButton, AheadButton, BidSelect
from db import Database
from game.cards import card_str
from game.view import Stage, TableView, shown_order
from i18n import card_label
from rendering import draw_hand
from service.tables import LiveTable, NewTable, TableService

LANGUAGES = ("en", "fr", "bg")


@pytest.fixture
async def db(tmp_path: Path):  # type: ignore[no-untyped-def]
    database = await Database.open(tmp_path / "layout.sqlite3")
    yield database
    await database.close()


def rows_of(view: discord.ui.View) -> list[list[dict[str, Any]]]:
    """The message's action rows as Discord receives them."""
    return [row["components"] for row in view.to_components()]


def card_of(item: Any) -> str:
    return str(item.custom_id.rsplit(".", 1)[-1] if isinstance(item, ActButton)
               else item.custom_id.rsplit(":", 1)[-1])


def check_layout(live: LiveTable, view: TableView, language: str) -> None:
    controls = layout.hand_controls(live, view, language)
    if controls is None:
        return
    rows = rows_of(controls)
    assert len(rows) <= 5
    for row in rows:
        if any(c["type"] == 3 for c in row):  # a select fills its row
            assert len(row) == 1
        assert sum(c["type"] == 2 for c in row) <= layout.ROW
    if view.stage is Stage.PLAY and view.hand:
        cards = [card_of(item) for item in controls.children
                 if isinstance(item, ActButton | AheadButton)]
        shown = [card_str(c) for c in shown_order(view)]
        assert cards == shown
        # The hand's text names them in the same order.
        line = messages.hand_text(live, view, language).split("\n")[1]
        assert line == " ".join(card_label(c, language) for c in shown_order(view))
    if view.stage is Stage.BIDDING and view.is_my_turn:
        offered = sum(isinstance(item, ActButton) for item in controls.children) + sum(
            len(item.item.options) for item in controls.children if isinstance(item, BidSelect))
        assert offered == len(view.legal_actions)  # every call laid out, none lost to a row


def image_order(view: TableView) -> list[int]:
    """The cards left to right as the hand image draws them."""
    _image, layout = draw_hand(view)
    boxes = [(box[0], int(name.split(":")[1])) for name, box in layout.items
             if name.startswith("card:")]
    return [c for _x, c in sorted(boxes)]


@pytest.mark.parametrize("variant", ["classic", "coinche", "bulgarian"])
async def test_every_hand_fits_a_phone_and_shows_its_cards_in_one_order(
        db: Database, variant: str) -> None:
    service = TableService(db, computer_delay=3600, rng=random.Random(46))
    rng = random.Random(f"layout {variant}")
    live = await service.create(NewTable(100, 200, 1, "ana", variant, {"target": 1000},
                                         autoplay=False))
    for seat, user in ((1, 2), (2, 3), (3, 4)):
        await service.sit(live.id, user, f"p{user}", seat)
    await service.start(live.id, 1)
    users = {s.seat: s.user_id for s in live.seats.values() if s.user_id is not None}
    seen: set[Stage] = set()
    images = 0
    try:
        for _ in range(200):
            for seat in range(4):
                mine = live.view(seat)
                assert mine is not None
                for language in LANGUAGES:
                    check_layout(live, mine, language)
            public = live.view(None)
            assert public is not None
            if public.to_act is None:
                break
            seen.add(public.stage)
            view = live.view(public.to_act)
            assert view is not None
            if view.stage is Stage.PLAY and len(view.hand) in (8, 5) and images < 6:
                images += 1
                assert image_order(view) == list(shown_order(view))
            await service.act(live.id, users[public.to_act], live.seq,
                              rng.choice(view.legal_actions))
        assert seen >= {Stage.BIDDING, Stage.PLAY} and images
    finally:
        await service.close()
