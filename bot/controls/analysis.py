"""The **Analysis** button of a replay (``/belote replay``): ``rk:an:<match>:<deal>``.

Beside a replay's deal pages (``rk:rp:``, cogs/stats.py), it turns the message into that deal's
Analysis page (service/analysis_page.py), with its own page buttons and one back to the deal
sheet. A match analysed already opens at once from storage; one that is not is asked for
(service/analysis.py), and the message shows how far it has got ("deal 3 of 9") through the
click's token, then the page. Anyone may press it; a match of another server, or one no
longer stored, is refused privately, as a replay's page button is.
"""

from __future__ import annotations

import asyncio
import logging
import re
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
from ..languages import member_language
from ..tokens import TOKEN_LIFETIME
from ..undelivered import answering
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
            watch = Watch(interaction, rp, self.deal, w)
            watch.start()
            progress = await bot.analyses.ask(guild_id, self.table_id)
            if progress is None:  # cannot be: the replay was found (a race with a purge)
                watch.stop()
                await tell(interaction, w("stats.replay.gone"))
                return
            if progress.state != DONE:
                await watch.show_first(progress)
                return
            watch.stop()
        await edit(interaction, *await page(interaction, rp, self.deal, w))


async def page(interaction: discord.Interaction[Any], rp: Replay, deal: int, w: Words
               ) -> tuple[str, discord.ui.View]:
    """The Analysis page of ``deal`` with its buttons."""
    analysed, players = await bot_of(interaction).analyses.stored(rp.row.table_id)
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


class Watch:
    """A message that shows an analysis's progress: each step told by the runner edits it
    through the click's token, in order, never going back; the last one shows the page."""

    def __init__(self, interaction: discord.Interaction[Any], rp: Replay, deal: int,
                 w: Words) -> None:
        self.interaction, self.rp, self.deal, self.w = interaction, rp, deal, w
        self.table = rp.row.table_id
        self.message = interaction.message.id if interaction.message is not None else 0
        self.shown = asyncio.Event()  # the click's answer went: edits may follow
        self.lock = asyncio.Lock()
        self.last: tuple[int, int] = (-1, -1)
        self._stop: Any = None

    def start(self) -> None:
        old = _WATCHES.pop(self.message, None)
        if old is not None:
            old.stop()
        _WATCHES[self.message] = self
        self._stop = bot_of(self.interaction).analyses.listen(self.table, self.heard)

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
            if progress.state in (DONE, FAILED):
                self.stop()
            age = (datetime.now(UTC) - self.interaction.created_at).total_seconds()
            if age > TOKEN_LIFETIME:  # its token ran out: the Analysis button still shows it
                self.stop()
                return
            if progress.state == DONE:
                content, view = await page(self.interaction, self.rp, self.deal, self.w)
            else:
                content = progress_text(self.table, progress, self.w)
                view = progress_view(self.table, self.deal, self.w)
            with answering(self.interaction, "the analysis's progress", "analysis button"):
                await self.interaction.edit_original_response(
                    content=content, attachments=[], view=view,
                    allowed_mentions=messages.NO_MENTIONS)


ANALYSIS_CONTROLS = (AnalysisButton,)
