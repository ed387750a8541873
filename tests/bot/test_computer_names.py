"""Computers at a table have short distinct names, fixed per seat: the lobby and the rules card
give their level, the table image and the deal sheet show them whole, and rows written by older
versions ("⚙ Computer (easy)") show the new names after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot import layout, messages
from db import Database
from db.tables import SeatRow
from game.match import Match
from game.players import RandomPlayer
from game.view import table_view
from rendering.sheet import draw_deal_sheet
from rendering.table import draw_table
from service.tables import NewTable, TableService
from tests.bot.helpers import match_of

GUILD, CHANNEL = 100, 200
NAMES = ["ana", "⚙ Remy", "⚙ Nora", "⚙ Lou"]


def button_label(child: discord.ui.Item[Any]) -> str | None:
    """The label of a button on a view (a dynamic button's inner button)."""
    item = getattr(child, "item", child)
    assert isinstance(item, discord.ui.Button), item
    return item.label


@pytest.fixture
async def db(tmp_path: Path):  # type: ignore[no-untyped-def]
    database = await Database.open(tmp_path / "names.sqlite3")
    yield database
    await database.close()


async def full_table(service: TableService) -> int:
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {}))
    await service.add_computer(live.id, 1, 1, "hard")
    await service.add_computer(live.id, 1, 2)
    await service.add_computer(live.id, 1, 3)
    return live.id


def cut(names: set[str]) -> set[str]:
    return {n for n in names if n.startswith("cut:")}


async def test_three_computers_have_distinct_names_everywhere(db: Database) -> None:
    service = TableService(db, computer_delay=3600)
    table_id = await full_table(service)
    live = service.live[table_id]
    lobby = messages.lobby_text(live)
    for line in ("East: ⚙ Remy (hard)", "North: ⚙ Nora (easy)", "West: ⚙ Lou (easy)"):
        assert line in lobby, lobby
    labels = [button_label(b) for b in layout.lobby_view(live).children]
    assert "East: ⚙ Remy (hard)" in labels
    assert "• At this table: ⚙ Remy (hard), ⚙ Nora (easy), ⚙ Lou (easy)" in \
        messages.rules_card(live).split("\n")
    await service.start(table_id, 1)
    try:
        seated = match_of(live).players
        assert live.names() == NAMES and seated is not None and list(seated) == NAMES
        # The table image: each name whole on its plate, for the table and for each seat.
        for viewer in (None, 0, 1, 2, 3):
            view = live.view(viewer)
            assert view is not None
            _, lay = draw_table(view)
            assert {f"name:{s}" for s in range(4)} <= lay.names()
            assert not cut(lay.names()), (viewer, cut(lay.names()))
        # The deal sheet: team names and the taker whole, the taker named apart.
        m = Match("classic", players=NAMES)
        players = [RandomPlayer(seat) for seat in range(4)]
        while not m.results or m.results[-1].contract is None or \
                m.results[-1].contract.seat == 0:
            m.start_deal(m.new_deck(len(m.results)))
            while m.deal is not None and not m.deal.is_over:
                seat = m.deal.to_act
                assert seat is not None
                m.apply(players[seat].choose(table_view(m, seat)))
        result = m.results[-1]
        assert result.contract is not None
        _, lay = draw_deal_sheet(result, m.variant, NAMES, len(m.results))
        assert not cut(lay.names()), cut(lay.names())
        text = messages.deal_sheet_text(live, len(m.results) - 1, result)
        assert f"by {NAMES[result.contract.seat]} —" in text
    finally:
        await service.close()


async def test_old_rows_show_the_new_names_after_a_restart(db: Database) -> None:
    service = TableService(db, computer_delay=3600)
    table_id = await full_table(service)
    await service.start(table_id, 1)
    live = service.live[table_id]
    assert live.match is not None
    before = table_view(live.match, None)
    await service.close()
    # What an older version wrote for its computers.
    for seat, level in ((1, "hard"), (2, "easy"), (3, "easy")):
        await db.tables.put_seat(SeatRow(table_id, seat, None, f"⚙ Computer ({level})",
                                         computer=level))
    restarted = TableService(db, computer_delay=3600)
    try:
        (again,) = await restarted.restore()
        assert again.names() == NAMES
        assert again.match is not None and again.match.players is not None
        assert list(again.match.players) == NAMES
        after = table_view(again.match, None)
        assert after.hand_counts == before.hand_counts and after.bids == before.bids
        assert "East: ⚙ Remy (hard)" in messages.lobby_text(again)
        view = again.view()
        assert view is not None
        assert "East: ⚙ Remy" in messages.table_text(again, view)
        assert "Computer" not in messages.table_text(again, view)
    finally:
        await restarted.close()
