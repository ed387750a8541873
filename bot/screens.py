"""What each message of a table shows: the table message (the lobby, the game, a closed table)
and each player's hand, as the payload Discord is sent and as a key that two states share only
when they look the same (equal keys need no edit).

Pure of scheduling and of Discord's answers: the delivery (bot/delivery.py) decides when a
message is sent and through which token (bot/tokens.py); this module says what it shows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from typing import Any

import discord

from db import TableStatus
from game.view import TableView
from i18n import words
from rendering.keys import hand_key as hand_image_key
from service.tables import LiveTable
from service.web_links import WebLinks

from . import images, layout, messages
from .languages import Readers, seat_language

log = logging.getLogger(__name__)


def table_key(live: LiveTable, closed: str | None = None) -> Hashable:
    """What the table message shows (``closed``: the reason it closed, if it did)."""
    return (live.row.status, live.seq, live.row.host_id, closed, live.deadline,
            tuple((s.seat, s.user_id, s.name, s.computer, s.dm_closed)
                  for s in live.seats.values()))


def hand_key(live: LiveTable, view: TableView) -> Hashable:
    """What a hand message shows."""
    seat = live.seats[view.viewer] if view.viewer is not None else None
    return (live.row.status, view.deal_number, view.stage, view.hand,
            view.legal_actions, (live.seq, live.deadline) if view.is_my_turn else None,
            seat.computer if seat is not None else None,
            live.ahead(view.viewer) if view.viewer is not None else None)


def shown_turn(live: LiveTable) -> tuple[int, float] | None:
    """The turn deadline the table message shows now, with the step of the game it is for."""
    return None if live.deadline is None else (live.seq, live.deadline)


def edits_in(live: LiveTable) -> Hashable:
    """The rate limit a table message's edits count against: its channel's message edits."""
    return ("edits", live.row.home_id)


def waiting_for(live: LiveTable, seat: int) -> images.Need:
    """Who waits for a hand edit that answers no click: the player to act, to play (its
    picture is drawn by the hand worker, after the answers to clicks), or nobody right now
    (drawn with the table images)."""
    acting = live.match is not None and live.match.to_act == seat
    return images.Need.TURN if acting else images.Need.LATER


class Screens:
    """The payloads of a table's messages, in their readers' languages: the table message in
    the table's, a hand in its player's (``readers``), with a link to the table's live page
    when the web pages are on (``links``)."""

    def __init__(self, readers: Readers, links: Callable[[], WebLinks | None]) -> None:
        self.readers = readers
        self.links = links

    # The keys, for the controls' answers (which import no module that lays controls out).
    table_key = staticmethod(table_key)
    hand_key = staticmethod(hand_key)

    async def table_payload(self, live: LiveTable, closed: str | None = None
                            ) -> dict[str, Any]:
        """Content, attachments and controls of the table message as it should be now."""
        language = live.language  # the table message is public: in the table's language
        if closed is not None:
            return {"content": messages.header(live, language) + "\n" +
                    words(language)("delivery.table_closed", reason=closed),
                    "view": None}
        view = live.view()
        if view is None:
            return {"content": messages.lobby_text(live, language),
                    "view": await self.linked(live, layout.lobby_view(live, language)),
                    "attachments": []}
        return {"content": messages.table_text(live, view, language),
                "view": await self.linked(live, layout.table_view_controls(live, language)),
                "attachments": [await images.table_image(view, language)]}

    async def linked(self, live: LiveTable,
                     view: discord.ui.View | None) -> discord.ui.View | None:
        """``view`` with a link to the table's live page (docs/web.md) when ``WEB_BASE_URL``
        is set. A link button has no custom_id: the other buttons are as they were, and a
        table posted before the link existed gets it at its next edit."""
        links = self.links()
        if view is None or links is None or not live.row.is_open:
            return view
        try:
            url = await links.url(live.row.guild_id, f"/table/{live.id}")
        except Exception:  # the link is a nicety: the table is shown without it
            log.exception("table %s: no link to its page", live.id)
            return view
        if url is not None:
            view.add_item(discord.ui.Button(
                label=words(live.language)("web.button.open"), url=url,
                row=1 if live.row.status == TableStatus.LOBBY else None))
        return view

    def hand_language(self, live: LiveTable, seat: int) -> str:
        return seat_language(self.readers, live, seat)

    async def hand_payload(self, live: LiveTable, seat: int, *,
                           need: images.Need = images.Need.ANSWER,
                           keep: Hashable | None = None) -> dict[str, Any]:
        """The hand message now; ``need``: who waits for it (``waiting_for`` for edits that
        answer no click). ``keep``: the image the edited message shows
        (rendering.keys.hand_key), left alone if unchanged."""
        view = live.view(seat)
        assert view is not None
        return (await self.hand_payload_of(live, seat, view, need, keep))[0]

    async def hand_payload_of(self, live: LiveTable, seat: int, view: TableView,
                              need: images.Need, keep: Hashable | None
                              ) -> tuple[dict[str, Any], Hashable | None]:
        """The payload of ``view``'s hand message and the key of the image it leaves on the
        message (None: no image)."""
        language = self.hand_language(live, seat)
        payload: dict[str, Any] = {"content": messages.hand_text(live, view, language),
                                   "view": layout.hand_controls(live, view, language)}
        if not view.hand:
            payload["attachments"] = []
            return payload, None
        key = hand_image_key(view, language=language)
        if key != keep:  # otherwise no "attachments": Discord keeps the image it has
            payload["attachments"] = [await images.hand_image(view, need=need,
                                                              slot=(live.id, seat),
                                                              language=language)]
        return payload, key
