"""The one place the bot turns views into image files: rendering/ runs in a worker thread.

Pillow releases the GIL while it encodes, and the event loop must keep answering clicks, so
every image is made in a worker thread. File names never say anything about the cards.
"""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord

import rendering
from game.rules import Variant
from game.scoring import DealResult
from game.view import TableView

# Hand images answer a click (the player waits for them); table images and sheets do not.
# Separate workers keep a queue of table images from delaying anybody's answer.
_HANDS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="belote-hand")
_OTHERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="belote-render")


def warm() -> None:
    """Build the shared image palette in the background now, not on the first click (it takes
    a few hundred milliseconds, once per process)."""
    threading.Thread(target=rendering.palette, name="belote-palette", daemon=True).start()


async def _run(pool: ThreadPoolExecutor, fn: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)


def _file(data: tuple[bytes, str], stem: str) -> discord.File:
    payload, ext = data
    return discord.File(io.BytesIO(payload), filename=f"{stem}.{ext.lstrip('.')}")


async def table_image(view: TableView) -> discord.File:
    assert view.viewer is None, "the table image is public: never a seat's view"
    return _file(await _run(_OTHERS, rendering.render_table, view), "table")


async def hand_image(view: TableView, *, background: bool = False) -> discord.File:
    """``background`` for a DM edit nobody waits on: it queues with the table images, so the
    hand workers stay free for the hands that answer a click."""
    return _file(await _run(_OTHERS if background else _HANDS, rendering.render_hand, view),
                 "hand")


async def deal_sheet_image(result: DealResult, variant: Variant, players: Sequence[str],
                           deal_number: int) -> discord.File:
    data = await _run(_OTHERS, rendering.render_deal_sheet, result, variant, players,
                      deal_number)
    return _file(data, "deal")


async def match_image(result: rendering.MatchResult) -> discord.File:
    return _file(await _run(_OTHERS, rendering.render_match_result, result), "result")


async def leaderboard_image(rows: Sequence[rendering.LeaderboardRow], title: str) -> discord.File:
    return _file(await _run(_OTHERS, rendering.render_leaderboard, rows, title), "leaderboard")
