"""The one place the bot turns views into image files: rendering/ runs in worker processes
(bot/render_pool.py); the seats' recent hand images are kept (bot/hand_images.py).

Hand images that answer a click or show the player to act their turn have a worker of their
own (the player waits for them); table images, sheets and the other hands do not, and a queue
of them never delays anybody's answer or turn. The background worker runs at a lower
priority, so on a saturated machine its queue can grow by seconds (bench/bench_bot.py).
File names never say anything about the cards.

Each function takes the ``language`` its image is drawn in (en, fr, bg; default English): the
table's language for what the table sees (the table image, the deal sheets, the result), the
reader's for what one member sees (their hand, /belote stats and leaderboard replies).
"""

from __future__ import annotations

import asyncio
import enum
import io
from collections import OrderedDict
from collections.abc import Hashable, Sequence

import discord

import rendering
from game.rules import Variant
from game.scoring import DealResult
from game.view import Stage, TableView
from i18n import DEFAULT_LANGUAGE
from rendering.keys import hand_key

from .hand_images import HandImages
from .render_pool import Pool

# Background images (tables, DM edits of hands not to act, sheets) run at a lower priority
# than the hands that answer clicks or start a turn: on a busy machine those come first. One
# background worker keeps up with 200 tables (about half a core, bench/bench_bot.py) and,
# busy all the time, keeps its caches warm: two used more processor time per image for no
# gain in latency.
HANDS = Pool("belote-hand", 1, timeout=5.0)
OTHERS = Pool("belote-render", 1, niceness=10)


HAND_IMAGES = HandImages()


class Need(enum.Enum):
    """Who waits for a hand image, which says which worker draws it and when."""

    ANSWER = "answer"  # the answer to a click: the hand worker, ahead of what it has queued
    TURN = "turn"  # the player to act, to play: the hand worker, in turn
    LATER = "later"  # nobody right now (a DM edit of a hand not to act): with the tables


# Hand images started before anybody asked for them (draw_hand_early), by key, until the
# answer that needs one takes it. One the answer never takes (its action could not be logged,
# or the hand changed again meanwhile) is dropped once EARLY_KEPT newer ones were started.
EARLY_KEPT = 64
_EARLY: OrderedDict[Hashable, asyncio.Task[tuple[bytes, str]]] = OrderedDict()


def warm() -> None:
    """Start the workers now (each builds the shared palette), not on the first click."""
    HANDS.start()
    OTHERS.start()


def shutdown() -> None:
    """End every render worker and its pipes (BeloteBot.close): no process outlives the bot."""
    HANDS.shutdown()
    OTHERS.shutdown()


def worker_pids() -> list[int]:
    return HANDS.pids() + OTHERS.pids()


class BufferFile(discord.File):
    """An attachment made from bytes in memory, freed as soon as it is sent.

    discord.py stubs out its buffer's ``close`` while a request may still read it, and its
    ``close`` puts the buffer's own method back as an attribute of the buffer: a reference
    cycle (the buffer, its ``__dict__``, its bound method), which only the garbage collector
    frees. Every image sent stayed in memory until a collection (4,468 of them at once at 200
    tables, bench/bench_bot.py), and the collection that freed them paused the event loop.
    Here the stub is taken away instead, which gives the buffer its own method back."""

    __slots__ = ()

    def __init__(self, data: bytes, filename: str) -> None:
        super().__init__(io.BytesIO(data), filename=filename)

    def close(self) -> None:
        vars(self.fp).pop("close", None)


def _file(data: tuple[bytes, str], stem: str) -> discord.File:
    payload, ext = data
    return BufferFile(payload, f"{stem}.{ext.lstrip('.')}")


def _style(language: str) -> rendering.Style:
    return rendering.Style(language=language)


async def table_image(view: TableView, language: str = DEFAULT_LANGUAGE) -> discord.File:
    assert view.viewer is None, "the table image is public: never a seat's view"
    return _file(await OTHERS.run(rendering.render_table, view, _style(language)), "table")


async def hand_image(view: TableView, *, need: Need = Need.ANSWER,
                     slot: tuple[int, int] | None = None,
                     language: str = DEFAULT_LANGUAGE) -> discord.File:
    """``need``: who waits for it (Need). A DM edit nobody waits on queues with the table
    images, so the hand worker stays free for the hands that answer a click or start a
    turn, and a click's answer goes ahead of a turn's hand. ``slot`` (table, seat) keeps the
    seat's recent images, and a picture it already has is not drawn again (its key,
    rendering.keys.hand_key, includes ``language``: a member who changes language gets a new
    picture)."""
    style = _style(language)
    key = hand_key(view, style)
    kept = slot is not None and view.stage is Stage.BIDDING
    data = HAND_IMAGES.get(slot, key) if slot is not None and kept else None
    if data is None:
        data = await _early(key)
    if data is None:
        data = await (OTHERS if need is Need.LATER else HANDS).run(
            rendering.render_hand, view, style, first=need is Need.ANSWER)
    if slot is not None:
        if kept:
            HAND_IMAGES.put(slot, key, data)
        else:
            HAND_IMAGES.drop(slot)
    return _file(data, "hand")


def draw_hand_early(view: TableView, *, slot: tuple[int, int],
                    language: str = DEFAULT_LANGUAGE) -> None:
    """Start drawing the hand image an answer is about to ask ``hand_image`` for (while the
    action it shows is being logged), unless the seat's kept images have it."""
    style = _style(language)
    key = hand_key(view, style)
    if not view.hand or key in _EARLY or HAND_IMAGES.holds(slot, key):
        return
    task = asyncio.get_running_loop().create_task(
        HANDS.run(rendering.render_hand, view, style, first=True), name="belote-hand-early")
    task.add_done_callback(_seen)
    _EARLY[key] = task
    while len(_EARLY) > EARLY_KEPT:
        _EARLY.popitem(last=False)[1].cancel()


def _seen(task: asyncio.Task[tuple[bytes, str]]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved: a failed early image is drawn again when asked for


async def _early(key: Hashable) -> tuple[bytes, str] | None:
    """The image started early under ``key``, if any (taken: each is used once); None if
    none was, or it failed (then the caller draws it)."""
    task = _EARLY.pop(key, None)
    if task is None or task.get_loop() is not asyncio.get_running_loop():
        return None
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        if task.cancelled():  # dropped, or the bot is closing: not this caller's cancellation
            return None
        raise
    except Exception:
        return None


async def deal_sheet_image(result: DealResult, variant: Variant, players: Sequence[str],
                           deal_number: int, language: str = DEFAULT_LANGUAGE,
                           analysis: rendering.SheetAnalysis | None = None) -> discord.File:
    """A deal's sheet; with its ``analysis`` strip once its match is analysed (replays)."""
    data = await OTHERS.run(rendering.render_deal_sheet, result, variant, players, deal_number,
                            _style(language), None, analysis)
    return _file(data, "deal")


async def match_image(result: rendering.MatchResult,
                      language: str = DEFAULT_LANGUAGE) -> discord.File:
    return _file(await OTHERS.run(rendering.render_match_result, result, _style(language)),
                 "result")


async def leaderboard_image(rows: Sequence[rendering.LeaderboardRow], title: str,
                            language: str = DEFAULT_LANGUAGE) -> discord.File:
    return _file(await OTHERS.run(rendering.render_leaderboard, rows, title, _style(language)),
                 "leaderboard")


async def podium_image(variants: Sequence[rendering.PodiumVariant], title: str,
                       language: str = DEFAULT_LANGUAGE) -> discord.File:
    return _file(await OTHERS.run(rendering.render_podium, variants, title, _style(language)),
                 "podium")


async def rating_chart_image(values: Sequence[float], title: str,
                             language: str = DEFAULT_LANGUAGE) -> discord.File:
    return _file(await OTHERS.run(rendering.render_rating_chart, values, title, language),
                 "rating")


async def bracket_image(rounds: Sequence[rendering.BracketRound], title: str,
                        tables_per_round: Sequence[int],
                        language: str = DEFAULT_LANGUAGE) -> discord.File:
    return _file(await OTHERS.run(rendering.render_bracket, rounds, title, tables_per_round,
                                  _style(language)), "bracket")
