"""What each message of a table shows (bot/screens.py): the table message through the lobby
and its close, the link to the live page, a hand in its player's language, and keys that
change exactly when what a message shows changes."""

from __future__ import annotations

from typing import Any

import discord

from bot import messages
from bot.images import Need
from bot.languages import Readers
from bot.screens import Screens, hand_key, table_key
from db import Database
from game.actions import Pass
from service.tables import NewTable, TableService
from service.web_links import WebLinks

GUILD, CHANNEL = 100, 200


def _custom_ids(view: discord.ui.View | None) -> list[str]:
    ids = [getattr(c, "custom_id", None) for c in (view.children if view is not None else [])]
    return [i for i in ids if isinstance(i, str)]


def _links(view: discord.ui.View | None) -> list[str]:
    urls = [getattr(c, "url", None) for c in (view.children if view is not None else [])]
    return [u for u in urls if isinstance(u, str)]


async def test_the_table_message_shows_the_lobby_then_why_the_table_closed(db: Database) -> None:
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {}))
    screens = Screens(Readers(), lambda: None)
    lobby: dict[str, Any] = await screens.table_payload(live)
    assert lobby["content"] == messages.lobby_text(live, "en") and "ana" in lobby["content"]
    assert lobby["attachments"] == []
    assert f"bt:sit:{live.id}:1" in _custom_ids(lobby["view"])
    closed = await screens.table_payload(live, closed="the host left")
    assert closed["view"] is None and closed["content"].endswith("Table closed: the host left.")


async def test_a_table_key_changes_exactly_when_the_message_would(db: Database) -> None:
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {}))
    before = table_key(live)
    assert table_key(live) == before  # nothing changed: no edit
    await service.sit(live.id, 2, "bo", 1)
    seated = table_key(live)
    assert seated != before
    assert table_key(live, closed="the host left") != seated


async def test_the_live_page_link_is_there_only_when_the_pages_are_on(db: Database) -> None:
    service = TableService(db)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {}))
    off = await Screens(Readers(), lambda: None).table_payload(live)
    assert _links(off["view"]) == []
    links = WebLinks(db, "https://belote.example")
    on = await Screens(Readers(), lambda: links).table_payload(live)
    [url] = _links(on["view"])
    assert url == f"https://belote.example/s/{await links.token(GUILD)}/table/{live.id}"
    assert _custom_ids(on["view"]) == _custom_ids(off["view"])  # the buttons are unchanged


async def test_a_hand_speaks_its_player_language_and_its_key_follows_the_game(
        db: Database) -> None:
    service = TableService(db, computer_delay=0)
    live = await service.create(NewTable(GUILD, CHANNEL, 1, "ana", "classic", {"target": 1}))
    for seat, (uid, name) in enumerate([(2, "bo"), (3, "cy"), (4, "dee")], start=1):
        await service.sit(live.id, uid, name, seat)
    await service.start(live.id, 1)
    readers = Readers()
    readers.note(2, discord.Locale.french)
    screens = Screens(readers, lambda: None)
    view = live.view(1)
    assert view is not None
    payload, image = await screens.hand_payload_of(live, 1, view, need=Need.LATER, keep=None)
    assert payload["content"] == messages.hand_text(live, view, "fr")
    assert payload["content"] != messages.hand_text(live, view, "en")
    assert image is not None and len(payload["attachments"]) == 1
    again, _ = await screens.hand_payload_of(live, 1, view, need=Need.LATER, keep=image)
    assert "attachments" not in again  # the image the message shows is kept, not sent again
    assert live.match is not None
    acting = live.match.to_act
    assert acting is not None
    shown = hand_key(live, live.view(acting) or view)
    user = live.seats[acting].user_id
    assert user is not None
    await service.act(live.id, user, live.seq, Pass())  # their turn ends: their hand changes
    assert hand_key(live, live.view(acting) or view) != shown
