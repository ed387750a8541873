"""After a daily-deal try: the par of each deal and the try's costliest cards (issue 45).

The try's match, once over, is asked of the analysis runner (service/analysis.py: each deal a
job of a worker process, never the bot's own, whose GIL would stall every click), as any
finished match is; when its deals are stored, the review is made from them and told (the cog
posts it in the try's thread, which waits for it before it is archived, for a while:
``REVIEW_WAIT``). The score is told at once, saying the review follows.

What the review says, from each deal's analysis (docs/game-record.md, "analyse"):

- each deal's par, the contract both sides seeing every card would play, for whom, and its
  score as the player's side sees it;
- the player's costliest cards: of the cards they chose themselves (not a forced one, a
  timer's or a claim's), the ones that cost most against the best card then, at most
  ``COSTLIEST``, each with its deal and trick and the card that was best.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from db.analyses import DONE, FAILED
from db.challenge import TryRow
from game.actions import CAPOT
from game.contract import Contract, contract_of
from game.rules import parse_trump
from i18n import words

from .analysis import AnalysisRunner, Progress, counted

if TYPE_CHECKING:
    from .challenge import DailyDeal
    from .tables import LiveTable

log = logging.getLogger(__name__)

COSTLIEST = 3  # cards shown at most
# Seconds a try's thread waits, after its score, for the review before it is archived: the
# analysis runs one match at a time at the lowest priority, four deals take seconds to
# minutes; past this the thread closes and the review is posted nowhere (the stored analysis
# stays).
REVIEW_WAIT = 600.0


@dataclass(frozen=True, slots=True)
class CostlyCard:
    deal: int  # 0-based
    trick: int  # 1-based
    card: str  # as records write it ("JH")
    best: str  # the best card then
    cost: int  # score given away against the best card


@dataclass(frozen=True, slots=True)
class DealPar:
    deal: int  # 0-based
    contract: Contract | None  # None: par is to pass
    score: int  # as the player's side sees it


@dataclass(frozen=True, slots=True)
class Review:
    pars: tuple[DealPar, ...]
    costly: tuple[CostlyCard, ...]  # costliest first


def contract_from_json(data: dict[str, Any] | None) -> Contract | None:
    """A contract as ``Contract.to_json`` wrote it."""
    if data is None:
        return None
    value = data.get("value")
    return contract_of(int(data["seat"]), parse_trump(str(data["suit"])),
                       CAPOT if value == "capot" else None if value is None else int(value),
                       int(data.get("multiplier", 1)))


def review_of(deals: dict[int, dict[str, Any]], seat: int, user_id: int,
              choosers: list[list[tuple[int | None, str | None]]]) -> Review:
    """The review of one player's try from its deals' analyses: ``seat`` is theirs, and
    ``choosers[deal][action]`` who took each action and how (its "by")."""
    team = seat & 1
    pars: list[DealPar] = []
    costly: list[CostlyCard] = []
    for index in sorted(deals):
        deal = deals[index]
        contract = contract_from_json(deal["par"]["contract"])
        score = 0 if contract is None else \
            deal["par"]["score"] * (1 if contract.team == team else -1)
        pars.append(DealPar(index, contract, score))
        actions = choosers[index] if index < len(choosers) else []
        cards = [d for d in deal["decisions"] if "card" in d["options"][0]]
        for played, d in enumerate(cards):
            who, by = actions[d["action"]] if d["action"] < len(actions) else (None, None)
            if d["seat"] != seat or who != user_id or by == "computer" or \
                    not counted(d["options"], by):
                continue
            chosen = next(o for o in d["options"] if o["card"] == d["played"])
            if chosen["cost"] <= 0:
                continue
            best = min(d["options"], key=lambda o: (o["cost"], o["card"]))
            costly.append(CostlyCard(index, played // 4 + 1, d["played"], best["card"],
                                     chosen["cost"]))
    costly.sort(key=lambda c: (-c.cost, c.deal, c.trick))
    return Review(tuple(pars), tuple(costly[:COSTLIEST]))


# (the try, its table, the player's seat, the review) -> the review posted (cogs/challenge.py).
Told = Callable[[TryRow, "LiveTable", int, Review], Awaitable[None]]


class TryReview:
    """The daily deal's analyser (``DailyDeal.analysers``): asks for the try's analysis, says
    the review follows, and tells it (``told``) once the deals are analysed."""

    def __init__(self, daily: DailyDeal, runner: AnalysisRunner) -> None:
        self.runner = runner
        self.told: Told | None = None
        self._waits: dict[int, asyncio.Future[None]] = {}  # table id -> its review told
        daily.analysers.append(self.ask)

    async def ask(self, row: TryRow, live: LiveTable) -> list[str]:
        """The score's line about the review, and the review asked for (nothing when the
        match cannot be analysed: no line; a failure is logged, and the score goes)."""
        try:
            return await self._ask(row, live)
        except Exception:
            log.exception("daily deal table %s: its review could not be asked for", live.id)
            self._done(live.id)
            return []

    async def _ask(self, row: TryRow, live: LiveTable) -> list[str]:
        seat = next((s.seat for s in live.seats.values() if s.user_id == row.user_id), None)
        if seat is None:
            return []
        done = asyncio.get_running_loop().create_future()
        self._waits[live.id] = done

        async def heard(progress: Progress) -> None:
            if progress.state not in (DONE, FAILED):
                return
            try:
                if progress.state == DONE:
                    await self._tell(row, live, seat)
                else:
                    log.warning("daily deal table %s: its analysis failed; no review",
                                live.id)
            finally:
                self._done(live.id)

        stop = self.runner.listen(live.id, heard)
        try:
            progress = await self.runner.ask(row.guild_id, live.id)
        except Exception:
            stop()
            raise
        if progress is None:  # no match recorded (nothing was played)
            stop()
            self._done(live.id)
            return []
        if progress.state == DONE:  # analysed already (asked by someone before)
            stop()
            try:
                await self._tell(row, live, seat)
            finally:
                self._done(live.id)
        return [words(live.language)("challenge.review.coming")]

    async def _tell(self, row: TryRow, live: LiveTable, seat: int) -> None:
        deals = await self.runner.repo.stored_deals(live.id)
        choosers = await self.runner.choosers(live.id)
        if self.told is not None:
            await self.told(row, live, seat, review_of(deals, seat, row.user_id, choosers))

    def _done(self, table_id: int) -> None:
        done = self._waits.pop(table_id, None)
        if done is not None and not done.done():
            done.set_result(None)

    def close(self) -> None:
        """The bot stops (the analysis runner stopped first): no review comes any more."""
        for table_id in list(self._waits):
            self._done(table_id)

    async def reviewed(self, table_id: int) -> None:
        """Wait until the review of the try played at this table, if any, is told: the try's
        thread is archived after it (bot/delivery.py waits ``REVIEW_WAIT`` at most)."""
        done = self._waits.get(table_id)
        if done is not None:
            await asyncio.shield(done)
