"""The one place the bot turns views into image files: rendering/ runs in a worker thread.

Pillow releases the GIL while it encodes, and the event loop must keep answering clicks, so
every image is made with asyncio.to_thread. File names never say anything about the cards.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence

import discord

import rendering
from game.rules import Variant
from game.scoring import DealResult
from game.view import TableView


def _file(data: tuple[bytes, str], stem: str) -> discord.File:
    payload, ext = data
    return discord.File(io.BytesIO(payload), filename=f"{stem}.{ext.lstrip('.')}")


async def table_image(view: TableView) -> discord.File:
    assert view.viewer is None, "the table image is public: never a seat's view"
    return _file(await asyncio.to_thread(rendering.render_table, view), "table")


async def hand_image(view: TableView) -> discord.File:
    return _file(await asyncio.to_thread(rendering.render_hand, view), "hand")


async def deal_sheet_image(result: DealResult, variant: Variant, players: Sequence[str],
                           deal_number: int) -> discord.File:
    data = await asyncio.to_thread(rendering.render_deal_sheet, result, variant, players,
                                   deal_number)
    return _file(data, "deal")


async def match_image(result: rendering.MatchResult) -> discord.File:
    return _file(await asyncio.to_thread(rendering.render_match_result, result), "result")


async def leaderboard_image(rows: Sequence[rendering.LeaderboardRow], title: str) -> discord.File:
    return _file(await asyncio.to_thread(rendering.render_leaderboard, rows, title), "leaderboard")
