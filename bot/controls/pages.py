"""The page buttons of the stats commands: a leaderboard's previous and next page, a replay's
previous and next deal, and a history's "open" (the match's replay, posted anew).

Their custom_ids are ``rk:lb:<variant>:<period>:<pairs>:<page>`` and
``rk:rp:<table>:<deal>`` (deal 0: a history's "open"): on messages posted on live servers, so
they never change. Anyone may press them; a page shows the same to everybody, in the server's
language. A page turn edits the message clicked; "open" posts the replay as a new message and
the history stays.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

from db.results import Period
from game.rules import Variant
from i18n import Words, words
from service.records import Replay

from ..answers import SlowAnswer
from ..errors import reply, tell
from ..languages import member_language
from ..messages import NO_MENTIONS
from ..pages import PAGE, Board, board_page, replay_page, with_web_link
from .analysis import AnalysisButton
from .base import ID, PLAIN, Answer, BadControl, Control, Look, bot_of, number, public_words

if TYPE_CHECKING:
    from ..host import Host

# What the page buttons' ids may hold: the template of old (one for both kinds) checked only
# the characters; the parts are read by each control, a wrong one answered as unknown.
_ARGS = r"(?P<args>[0-9a-z:]{1,80})"


class PageControl(Control, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"(?!)"):
    """A page button: secondary, labelled by the catalogue (``stats.button.*``)."""

    table_id = 0  # no live table: a page shows stored matches and ratings

    def __init__(self, custom_id: str, look: Look) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=look.label,
                                           style=look.style, disabled=look.disabled))

    async def check_server(self, interaction: discord.Interaction[Any]) -> None:
        """A page is of the server it is clicked in (the queries take its id): a click from
        a direct message has none, and is answered as an unknown control."""
        if interaction.guild_id is None:
            raise BadControl("a page button outside a server")


class BoardPageButton(PageControl, template=rf"rk:lb:{_ARGS}"):
    """``rk:lb:<variant>:<period>:<pairs>:<page>``: a leaderboard's page (``period``: all,
    month, week, or ``s<number>`` for a season)."""

    kind = "lb"
    answers_by = "edit"

    def __init__(self, board: Board, look: Look = PLAIN) -> None:
        self.board = board
        super().__init__(f"rk:lb:{board.variant}:{board.period}:{int(board.pairs)}:"
                         f"{board.page}", look)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        parts = match["args"].split(":")
        if len(parts) != 4:
            raise BadControl(f"a board page of {len(parts)} parts")
        variant, period, pairs, page = parts
        first = number(page, "page") * PAGE  # the query's offset, a 64-bit integer too
        at = number(str(first), "offset") // PAGE
        try:
            if period.startswith("s") and period[1:].isdigit():  # a season's board
                return cls(Board(Variant(variant).value, f"s{number(period[1:], 'season')}",
                                 pairs == "1", at))
            return cls(Board(Variant(variant).value, Period(period).value, pairs == "1", at))
        except ValueError as e:
            raise BadControl(str(e)) from None

    def where(self) -> str:
        b = self.board
        return f"board page {b.variant}:{b.period}:{int(b.pairs)}:{b.page}"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        bot = bot_of(interaction)
        content, files, view = await board_message(
            bot, interaction.guild_id, interaction.user.id, self.board,
            await public_words(interaction))
        await edit_clicked(interaction, content, files, view)


class ReplayPageButton(PageControl, template=rf"rk:rp:{_ARGS}"):
    """``rk:rp:<table>:<deal>``: a replay's deal (from 1), or (deal 0) a history's "open",
    which posts the match's replay as a new message."""

    kind = "rp"
    answers_by = "edit"

    def __init__(self, table: int, deal: int, look: Look = PLAIN) -> None:
        self.table, self.deal = table, deal
        super().__init__(f"rk:rp:{table}:{deal}", look)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        parts = match["args"].split(":")
        if len(parts) != 2 or not all(re.fullmatch(ID, p) for p in parts):
            raise BadControl("a replay page is a table and a deal")
        return cls(number(parts[0], "table"), number(parts[1], "deal"))

    def answer(self) -> Answer:
        return "post" if self.deal == 0 else "edit"

    def where(self) -> str:
        return f"replay page {self.table}:{self.deal}"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        bot = bot_of(interaction)
        rp = await bot.records.replay(interaction.guild_id, self.table)
        if rp is None:
            await tell(interaction, words(member_language(interaction))("stats.replay.gone"))
            return
        content, files, view = await replay_message(rp, max(self.deal, 1),
                                                    await public_words(interaction), bot)
        if self.deal == 0:  # a history's "open": a new message, the history stays
            await reply(interaction, content, ephemeral=False, files=files, view=view,
                        allowed_mentions=NO_MENTIONS)
        else:
            await edit_clicked(interaction, content, files, view)


PAGE_CONTROLS: tuple[type[PageControl], ...] = (BoardPageButton, ReplayPageButton)


def _turn(label: str, disabled: bool) -> Look:
    return Look(label=label, style=discord.ButtonStyle.secondary, disabled=disabled)


async def board_message(bot: Host, guild_id: int, user_id: int, board: Board, w: Words
                        ) -> tuple[str, list[discord.File], discord.ui.View | None]:
    """The content, image and page buttons of one page of a board, in ``w``'s language."""
    page, pages = await board_page(bot, guild_id, user_id, board, w)
    if not pages:
        return page.content, page.files, None
    view = None
    if pages > 1:
        view = discord.ui.View(timeout=None)
        view.add_item(BoardPageButton(Board(board.variant, board.period, board.pairs,
                                            board.page - 1),
                                      _turn(w("stats.button.previous"), board.page == 0)))
        view.add_item(BoardPageButton(Board(board.variant, board.period, board.pairs,
                                            board.page + 1),
                                      _turn(w("stats.button.next"), board.page + 1 >= pages)))
    return page.content, page.files, await with_web_link(bot, guild_id, page.web_path, w, view)


async def replay_message(rp: Replay, deal: int, w: Words, bot: Host | None = None
                         ) -> tuple[str, list[discord.File], discord.ui.View | None]:
    """Deal ``deal`` (from 1) of a replay, its sheet, the record and the page buttons (and,
    given the ``bot``, a link to the match's web page)."""
    page, shown = await replay_page(rp, deal, w, getattr(bot, "analyses", None))
    if not shown:
        return page.content, page.files, None
    deals = len(rp.match.results)
    table = rp.row.table_id
    view: discord.ui.View | None = discord.ui.View(timeout=None)
    assert view is not None
    view.add_item(ReplayPageButton(table, shown - 1, _turn(w("stats.button.previous"),
                                                           shown <= 1)))
    view.add_item(ReplayPageButton(table, shown + 1, _turn(w("stats.button.next"),
                                                           shown >= deals)))
    view.add_item(AnalysisButton(table, shown, w("stats.button.analysis")))
    if bot is not None:
        view = await with_web_link(bot, rp.row.guild_id, page.web_path, w, view)
    return page.content, page.files, view


def open_button(table: int, w: Words) -> ReplayPageButton:
    """A history's "open" of one match."""
    return ReplayPageButton(table, 0, Look(label=w("stats.button.open", table=table)))


async def edit_clicked(interaction: discord.Interaction[Any], content: str,
                       files: list[discord.File], view: discord.ui.View | None) -> None:
    """Show a page in the message whose button was clicked, through its armed answer."""
    await SlowAnswer.of(interaction, update=True).send(
        {"content": content, "attachments": files, "view": view,
         "allowed_mentions": NO_MENTIONS})
