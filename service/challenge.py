"""The daily deal: a short solo match on the day's cards, one try a day.

You sit South with three hard computers (your partner among them) for four deals of a variant;
the day's seed gives the decks and the first dealer, so everybody on a board meets the same
cards and the same first bidder: a server's board, or the world's (``WORLD``), whose seed every
server shares. The try is claimed before its table opens (one a day per member, board and
variant) and scored when the table ends (the team's points). Computers sit at the table, so
the match never moves the ordinary ratings, and nothing is staked: the challenge's board is its
own (db/challenge.py).

After a try the cog posts the score against the board's best and median; ``analysers`` add
their lines (the par of each deal and the costliest cards, from the analysis of a finished
record: another part's solver, not this module's).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from db.challenge import WORLD, TryRow
from game.rules import MAX_TARGET, Options, Variant

from .refusals import Refusal
from .tables import LiveTable, NewTable, TableService

if TYPE_CHECKING:
    from db import Database

log = logging.getLogger(__name__)

DEALS = 4
LEVEL = "hard"
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def day_of(when: datetime) -> str:
    return when.astimezone(UTC).date().isoformat()


def next_day(when: datetime) -> datetime:
    """The start (UTC) of the day after ``when``'s: when the next deals come."""
    day = when.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day + timedelta(days=1)


def day_seed(scope: int, day: str, variant: str) -> tuple[int, int]:
    """The day's table seed (its decks, its computers) and first dealer, for a board."""
    digest = hashlib.sha256(f"belote-daily:{scope}:{day}:{variant}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2, digest[8] & 3


def challenge_options(variant: str) -> dict[str, object]:
    """Four deals: a target out of reach and a cap of four deals (a tie plays one more)."""
    v = Variant(variant)
    return Options.for_variant(v, {"target": MAX_TARGET, "deal_cap": DEALS}).to_json(v)


@dataclass(frozen=True, slots=True)
class Standing:
    """A finished try against its board's finished tries."""

    score: int
    best: int
    median: float
    players: int
    rank: int


# (the try, its table) -> lines to add after the score; the analysis issue's hook.
Analyser = Callable[[TryRow, LiveTable], Awaitable[list[str]]]
# (the try, its standing, its table, the analysers' lines) -> what the cog posts.
Finished = Callable[[TryRow, Standing, LiveTable, list[str]], Awaitable[None]]


class DailyDeal:
    def __init__(self, db: Database, service: TableService, clock: Clock | None = None) -> None:
        self.repo = db.challenge
        self.service = service
        self.clock: Clock = clock or (lambda: utc_now())  # tests replace utc_now or this
        self.analysers: list[Analyser] = []
        self.finished: Finished | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._scoring: dict[int, asyncio.Task[None]] = {}  # table id -> its try's scoring
        service.end_hooks.append(self._table_ended)

    def today(self) -> str:
        return day_of(self.clock())

    async def begin(self, *, guild_id: int, channel_id: int, user_id: int, name: str,
                    variant: str, world: bool, language: str, idle_minutes: int | None
                    ) -> tuple[TryRow, LiveTable]:
        """Claim today's try and open and start its table; Refusal("challenge.again") when
        the member has had theirs (nothing opened), or the table service's refusal."""
        scope = WORLD if world else guild_id
        day = self.today()
        now = self.clock()
        if not await self.repo.claim(scope, day, variant, user_id, guild_id, now.isoformat()):
            raise Refusal("challenge.again", when=f"<t:{int(next_day(now).timestamp())}:R>")
        seed, dealer = day_seed(scope, day, variant)
        try:
            live = await self.service.create(NewTable(
                guild_id=guild_id, channel_id=channel_id, host_id=user_id, host_name=name,
                variant=variant, options=challenge_options(variant), private=True, fill=True,
                computer_level=LEVEL, idle_minutes=idle_minutes, language=language,
                seed=seed, first_dealer=dealer))
        except BaseException:
            await self.repo.give_back(scope, day, variant, user_id)
            raise
        await self.repo.link(scope, day, variant, user_id, live.id)
        await self.service.start(live.id, user_id)
        row = await self.repo.get(scope, day, variant, user_id)
        assert row is not None
        return row, live

    def _table_ended(self, live: LiveTable) -> None:
        task = asyncio.get_running_loop().create_task(self._score(live))
        self._tasks.add(task)
        self._scoring[live.id] = task
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda _: self._scoring.pop(live.id, None))

    async def scored(self, table_id: int) -> None:
        """Wait until the try played at this table, if any, is scored and its score told:
        the table's thread is archived and locked after it (bot/delivery.py), so that the
        score is not refused by a locked thread."""
        task = self._scoring.get(table_id)
        if task is not None:
            await asyncio.wait([task])  # its failure is logged where it runs

    async def _score(self, live: LiveTable) -> None:
        try:
            row = await self.repo.of_table(live.id)
            if row is None or row.finished:
                return  # not a challenge table
            totals = live.match.totals if live.match is not None else (0, 0)
            if not await self.repo.score(live.id, totals[0], totals[1],
                                         self.clock().isoformat()):
                return
            row = await self.repo.of_table(live.id)
            assert row is not None
            standing = await self.standing(row)
            lines: list[str] = []
            for analyse in self.analysers:
                lines += await analyse(row, live)
            if self.finished is not None and standing is not None:
                await self.finished(row, standing, live, lines)
        except Exception:
            log.exception("daily deal: table %s not scored", live.id)

    async def standing(self, row: TryRow) -> Standing | None:
        if row.score is None:
            return None
        scores = [t.score for t in await self.repo.board(row.scope, row.day, row.variant)
                  if t.score is not None]
        return Standing(row.score, max(scores), statistics.median(scores), len(scores),
                        1 + sum(s > row.score for s in scores))
