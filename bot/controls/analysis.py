"""The **Analysis** button of a replay (``/belote replay``): ``rk:an:<match>:<deal>``.

Beside a replay's deal pages (``rk:rp:``, cogs/stats.py), it turns the message into that deal's
Analysis page (service/analysis_page.py), with its own page buttons and one back to the deal
sheet. A match analysed already opens at once from storage; one that is not is asked for
(service/analysis.py), and the message shows how far it has got ("deal 3 of 9") through the
click's token, then the page. The message is written down while it follows the analysis, so
that after a restart (which resumes the analysis) it follows it again, as ordinary edits.
Anyone may press it; a match of another server, or one no longer stored, is refused
privately, as a replay's page button is.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Self

import discord

from db.analyses import DONE, FAILED, RUNNING
from i18n import Words, words
from service.analysis import Progress
from service.analysis_page import analysis_text, progress_text
from service.records import Replay

from .. import messages
from ..answers import SlowAnswer
from ..errors import tell
from ..host import Host
from ..languages import member_language
from ..tokens import TOKEN_LIFETIME
from ..undelivered import answering, sending
from .base import ID, TABLE, Control, bot_of, number, public_words, table_number

log = logging.getLogger(__name__)

PREFIX = "rk"  # a replay's: its pages are ``rk:rp:<match>:<deal>``


def analysis_id(table_id: int, deal: int) -> str:
    return f"{PREFIX}:an:{table_id}:{deal}"


def sheet_id(table_id: int, deal: int) -> str:
    """The replay's page of that deal (cogs/stats.py's ``rk:rp:``)."""
    return f"{PREFIX}:rp:{table_id}:{deal}"


class AnalysisButton(Control, discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=rf"{PREFIX}:an:{TABLE}:(?P<deal>{ID})"):
    """Show deal ``deal`` (from 1) of a finished match's analysis, asking for it if need be."""

    kind = "analysis"
    answers_by = "edit"

    def __init__(self, table_id: int, deal: int, label: str | None = None, *,
                 disabled: bool = False) -> None:
        self.table_id, self.deal = table_id, deal
        super().__init__(discord.ui.Button(custom_id=analysis_id(table_id, deal), label=label,
                                           disabled=disabled,
                                           style=discord.ButtonStyle.secondary))

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(table_number(match), number(match["deal"], "deal"))

    async def check_server(self, interaction: discord.Interaction[Any]) -> None:
        """The match is looked up in the server clicked in (``run``): another server's is
        not found there."""

    def where(self) -> str:
        return f"analysis button of match {self.table_id}"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        guild_id = interaction.guild_id
        rp = None if guild_id is None else await bot.records.replay(guild_id, self.table_id)
        if rp is None or guild_id is None:
            await tell(interaction, words(member_language(interaction))(
                "stats.replay.none", table=self.table_id))
            return
        w = await public_words(interaction, guild_id)
        progress = await bot.analyses.progress(self.table_id)
        if progress is None or progress.state != DONE:
            watch = Watch.of(interaction, rp, self.deal, w)
            watch.start()
            progress = await bot.analyses.ask(guild_id, self.table_id)
            if progress is None:  # cannot be: the replay was found (a race with a purge)
                watch.stop()
                await tell(interaction, w("stats.replay.gone"))
                return
            if progress.state != DONE:
                await watch.show_first(progress)
                await watch.keep()
                return
            watch.stop()
        await edit(interaction, *await page(bot, rp, self.deal, w))


async def page(bot: Host, rp: Replay, deal: int, w: Words) -> tuple[str, discord.ui.View]:
    """The Analysis page of ``deal`` with its buttons."""
    analysed, players = await bot.analyses.stored(rp.row.table_id)
    table = rp.row.table_id
    view = discord.ui.View(timeout=None)
    if not analysed:
        view.add_item(sheet_button(table, 1, w))
        return w("analysis.none"), view
    deals = len(analysed)
    deal = min(max(deal, 1), deals)
    content = analysis_text(table, rp.match.variant, rp.players, rp.record["deals"], analysed,
                            players, deal, w)
    view.add_item(AnalysisButton(table, deal - 1, w("stats.button.previous"),
                                 disabled=deal <= 1))
    view.add_item(AnalysisButton(table, deal + 1, w("stats.button.next"),
                                 disabled=deal >= deals))
    view.add_item(sheet_button(table, deal, w))
    return content, view


def sheet_button(table: int, deal: int, w: Words) -> discord.ui.Button[Any]:
    """Back to the replay's page of the deal (answered by cogs/stats.py's page buttons)."""
    return discord.ui.Button(custom_id=sheet_id(table, deal), label=w("stats.button.sheet"),
                             style=discord.ButtonStyle.secondary)


def progress_view(table: int, deal: int, w: Words) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AnalysisButton(table, deal, w("stats.button.analysis"),
                                 disabled=False))
    view.add_item(sheet_button(table, max(deal, 1), w))
    return view


async def edit(interaction: discord.Interaction[Any], content: str,
               view: discord.ui.View) -> None:
    """The page in the message clicked, through the click's armed answer (no attachment: the
    deal sheet and the record are the replay page's)."""
    await SlowAnswer.of(interaction, update=True).send(
        {"content": content, "attachments": [], "view": view,
         "allowed_mentions": messages.NO_MENTIONS})


# The watch of each message showing an analysis's progress: a second click on the same
# message replaces the first one's.
_WATCHES: dict[int, Watch] = {}


@dataclass(frozen=True, slots=True)
class Spot:
    """The message a watch edits, as written down for the next start (db.analyses.keep_watch):
    the match, the replay's server, channel and message, the deal asked for, the words'
    language."""

    table: int
    guild: int
    channel: int
    message: int
    deal: int
    language: str

    def json(self) -> dict[str, Any]:
        return {"table": self.table, "guild": self.guild, "channel": self.channel,
                "message": self.message, "deal": self.deal, "language": self.language}

    @staticmethod
    def read(stored: dict[str, Any]) -> Spot:
        return Spot(int(stored["table"]), int(stored["guild"]), int(stored["channel"]),
                    int(stored["message"]), int(stored["deal"]), str(stored["language"]))


class Watch:
    """A message that shows an analysis's progress: each step told by the runner edits it, in
    order, never going back; the last one shows the page. The click's token edits it while it
    lasts (outside the global limit); after that, and after a restart (which forgets every
    token: the watch is written down and taken up again by :func:`resume_watches`), an
    ordinary edit of the message does."""

    def __init__(self, bot: Host, spot: Spot, rp: Replay, w: Words,
                 interaction: discord.Interaction[Any] | None = None) -> None:
        self.bot, self.spot, self.rp, self.w = bot, spot, rp, w
        self.interaction = interaction
        self.table, self.deal, self.message = spot.table, spot.deal, spot.message
        self.shown = asyncio.Event()  # the click's answer went: edits may follow
        if interaction is None:
            self.shown.set()  # taken up after a restart: nothing to wait for
        self.lock = asyncio.Lock()
        self.last: tuple[int, int] = (-1, -1)
        self._stop: Any = None

    @staticmethod
    def of(interaction: discord.Interaction[Any], rp: Replay, deal: int, w: Words) -> Watch:
        assert interaction.guild_id is not None  # a replay is a server's
        spot = Spot(rp.row.table_id, interaction.guild_id, interaction.channel_id or 0,
                    interaction.message.id if interaction.message is not None else 0,
                    deal, w.language)
        return Watch(bot_of(interaction), spot, rp, w, interaction)

    def start(self) -> None:
        old = _WATCHES.pop(self.message, None)
        if old is not None:
            old.stop()
        _WATCHES[self.message] = self
        self._stop = self.bot.analyses.listen(self.table, self.heard)

    async def keep(self) -> None:
        """Written down, so that the next start takes this message's edits up again."""
        if self.message and self.spot.channel:
            await self.bot.analyses.repo.keep_watch(self.message, self.spot.json())

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()
            self._stop = None
        if _WATCHES.get(self.message) is self:
            del _WATCHES[self.message]

    @staticmethod
    def order(p: Progress) -> tuple[int, int]:
        return (2 if p.state in (DONE, FAILED) else 1 if p.state == RUNNING else 0, p.done)

    async def show_first(self, progress: Progress) -> None:
        """The click's answer: where the analysis stands now."""
        assert self.interaction is not None
        async with self.lock:
            self.last = self.order(progress)
            try:
                await edit(self.interaction, progress_text(self.table, progress, self.w),
                           progress_view(self.table, self.deal, self.w))
            finally:
                self.shown.set()

    async def heard(self, progress: Progress) -> None:
        await self.shown.wait()
        async with self.lock:
            if self.order(progress) <= self.last:
                return
            self.last = self.order(progress)
            over = progress.state in (DONE, FAILED)
            ours = _WATCHES.get(self.message) is self  # not replaced by a newer click
            if over:
                self.stop()
            if progress.state == DONE:
                content, view = await page(self.bot, self.rp, self.deal, self.w)
            else:
                content = progress_text(self.table, progress, self.w)
                view = progress_view(self.table, self.deal, self.w)
            await self.show(content, view)
            if over and ours:
                await self.bot.analyses.repo.drop_watch(self.message)

    async def show(self, content: str, view: discord.ui.View) -> None:
        """One edit of the message: through the click's token while it lasts, else as an
        ordinary edit of the message (against the global limit: a few edits a match)."""
        interaction = self.interaction
        if interaction is not None and \
                (datetime.now(UTC) - interaction.created_at).total_seconds() < TOKEN_LIFETIME:
            with answering(interaction, "the analysis's progress", "analysis button"):
                await interaction.edit_original_response(
                    content=content, attachments=[], view=view,
                    allowed_mentions=messages.NO_MENTIONS)
            return
        message = self.bot.get_partial_messageable(
            self.spot.channel, guild_id=self.spot.guild).get_partial_message(self.message)
        with sending(self.bot, f"match {self.table}'s analysis progress"):
            await message.edit(content=content, attachments=[], view=view,
                               allowed_mentions=messages.NO_MENTIONS)


async def resume_watches(bot: Host) -> None:
    """At a start, before the analyses resume: each message that showed an analysis's
    progress when the bot stopped follows it again (edited as a message: the click's token is
    gone), and one whose analysis ended before its last edit went gets that edit now."""
    repo = bot.analyses.repo
    for stored in await repo.watches():
        try:
            spot = Spot.read(stored)
        except (KeyError, TypeError, ValueError):
            log.warning("an analysis watch written down does not read: %r", stored)
            continue
        progress = await bot.analyses.progress(spot.table)
        rp = None if progress is None else await bot.records.replay(spot.guild, spot.table)
        if progress is None or rp is None or not bot.sharding.owns(spot.guild):
            if progress is None or rp is None:
                await repo.drop_watch(spot.message)
            continue
        watch = Watch(bot, spot, rp, words(spot.language))
        if progress.state in (DONE, FAILED):
            await watch.heard(progress)  # its end was not shown before the stop
        else:
            watch.start()


ANALYSIS_CONTROLS = (AnalysisButton,)
