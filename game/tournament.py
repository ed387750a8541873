"""A tournament's format, pure: sign-up, random draws of tables each round, winners going on.

Quick: 8 players, 2 rounds. Classic: 16 players, 3 rounds (docs/rules.md, "Tournaments").
Each round the players still in are drawn at random (seeded) into new teams of two, two teams
a table; the winning pair of each table goes on, split up again for the next draw. The last
pair standing wins; the losing finalists are second. A player who leaves cannot come back: at
sign-up they lose their place, once the tournament runs a computer plays their seat (and goes on
in their name if their team wins, so every round has full tables).

A round's game is a match with the variant's usual target (151 in bulgarian) and a deal cap of
7: it ends when a team reaches the target within 7 deals, else after deal 7 the higher total
wins, equal totals playing one more deal (``Options.deal_cap``, decided in ``game.match``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .errors import BeloteError
from .rules import Options, Variant

DEAL_CAP = 7
TURN_SECONDS = 30
# A tournament waits for nobody: one turn run out and a computer plays the seat (until its
# player takes it back), so every table of a round finishes.
AWAY_TURNS = 1
SEATS = 4


class TournamentError(BeloteError):
    """A tournament action that the format does not allow; ``code`` says which."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class Format(StrEnum):
    QUICK = "quick"
    CLASSIC = "classic"

    @property
    def rounds(self) -> int:
        return ROUNDS[self]

    @property
    def players(self) -> int:
        """Entrants it takes: four a table, half of them going on each round."""
        return SEATS << (self.rounds - 1)


ROUNDS = {Format.QUICK: 2, Format.CLASSIC: 3}


def table_options(variant: Variant | str) -> Options:
    """The options of a tournament table: the variant's usual target and the 7-deal cap."""
    return Options.for_variant(Variant(variant), {"deal_cap": DEAL_CAP})


class Stage(StrEnum):
    SIGN_UP = "sign_up"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Draw:
    """One table of a round: the entrants in seats 0-3 (seats 0+2 against 1+3)."""

    seats: tuple[int, int, int, int]

    def team(self, team: int) -> tuple[int, int]:
        return self.seats[team], self.seats[team + 2]


@dataclass(slots=True)
class Round:
    number: int  # 1-based
    draws: list[Draw]
    # table index -> winning team (0: seats 0+2, 1: seats 1+3)
    winners: dict[int, int] = field(default_factory=dict)

    @property
    def is_done(self) -> bool:
        return len(self.winners) == len(self.draws)

    def going_on(self) -> list[int]:
        """The entrants of the winning teams, in table order."""
        out: list[int] = []
        for index, draw in enumerate(self.draws):
            if index in self.winners:
                out.extend(draw.team(self.winners[index]))
        return out


def draw_tables(players: Sequence[int], rng: random.Random) -> list[Draw]:
    """The players shuffled into tables of four, new teams every time."""
    if len(players) % SEATS:
        raise TournamentError("players_not_multiple_of_four")
    order = list(players)
    rng.shuffle(order)
    return [Draw((order[i], order[i + 1], order[i + 2], order[i + 3]))
            for i in range(0, len(order), SEATS)]


def round_rng(seed: int, number: int) -> random.Random:
    """The draw of round ``number`` depends only on the seed: a restart draws the same."""
    return random.Random(f"tournament:{seed}:{number}")


class Tournament:
    """The state of one tournament. Entrants are ids (members); the runner stores this state
    and rebuilds it with :meth:`restore`."""

    def __init__(self, fmt: Format | str, seed: int, variant: Variant | str = Variant.BULGARIAN
                 ) -> None:
        self.format = Format(fmt)
        self.variant = Variant(variant)
        self.seed = seed
        self.stage = Stage.SIGN_UP
        self.entrants: list[int] = []
        self.left: set[int] = set()  # left (or never came): cannot join again
        self.rounds: list[Round] = []

    # ---- sign-up -------------------------------------------------------------------------
    @property
    def is_full(self) -> bool:
        return len(self.entrants) >= self.format.players

    def join(self, player: int) -> None:
        if self.stage is not Stage.SIGN_UP:
            raise TournamentError("not_open")
        if player in self.left:
            raise TournamentError("cannot_rejoin")
        if player in self.entrants:
            raise TournamentError("already_in")
        if self.is_full:
            raise TournamentError("full")
        self.entrants.append(player)

    def leave(self, player: int) -> None:
        """At sign-up the place is freed; once running, a computer plays on in the seat.
        Either way the player cannot come back."""
        if player not in self.entrants or player in self.left:
            raise TournamentError("not_in")
        if self.stage is Stage.SIGN_UP:
            self.entrants.remove(player)
        elif self.stage is not Stage.RUNNING:
            raise TournamentError("not_open")
        self.left.add(player)

    def cancel(self) -> None:
        if self.stage in (Stage.FINISHED, Stage.CANCELLED):
            raise TournamentError("over")
        self.stage = Stage.CANCELLED

    # ---- rounds --------------------------------------------------------------------------
    def start(self, absent: Iterable[int] = ()) -> Round:
        """Draw the first round. ``absent`` entrants (no-shows) are played by computers."""
        if self.stage is not Stage.SIGN_UP:
            raise TournamentError("not_open")
        if not self.is_full:
            raise TournamentError("not_full")
        self.left.update(p for p in absent if p in self.entrants)
        self.stage = Stage.RUNNING
        return self._draw(self.entrants)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def record(self, table: int, winning_team: int) -> Round | None:
        """The result of table ``table`` of the current round. Returns the next round once
        every table of this one is done (None while tables still play, or at the end)."""
        current = self.current
        if self.stage is not Stage.RUNNING or current is None:
            raise TournamentError("not_running")
        if not 0 <= table < len(current.draws):
            raise TournamentError("no_such_table")
        if winning_team not in (0, 1):
            raise TournamentError("bad_team")
        if table in current.winners:
            raise TournamentError("already_recorded")
        current.winners[table] = winning_team
        return self.advance()

    def advance(self) -> Round | None:
        """Once every table of the current round is done: the next round drawn (returned), or
        the tournament finished after the final. Nothing while tables still play."""
        current = self.current
        if self.stage is not Stage.RUNNING or current is None or not current.is_done:
            return None
        if len(current.draws) == 1:
            self.stage = Stage.FINISHED
            return None
        return self._draw(current.going_on())

    def _draw(self, players: Sequence[int]) -> Round:
        number = len(self.rounds) + 1
        rnd = Round(number, draw_tables(players, round_rng(self.seed, number)))
        self.rounds.append(rnd)
        return rnd

    def plays_by_computer(self, player: int) -> bool:
        return player in self.left

    # ---- the end -------------------------------------------------------------------------
    def _final(self) -> tuple[Draw, int]:
        final = self.current
        if self.stage is not Stage.FINISHED or final is None:
            raise TournamentError("not_finished")
        return final.draws[0], final.winners[0]

    @property
    def winners(self) -> tuple[int, int]:
        draw, team = self._final()
        return draw.team(team)

    @property
    def runners_up(self) -> tuple[int, int]:
        draw, team = self._final()
        return draw.team(1 - team)

    # ---- storage -------------------------------------------------------------------------
    @classmethod
    def restore(cls, fmt: Format | str, seed: int, variant: Variant | str, stage: Stage | str,
                entrants: Sequence[int], left: Iterable[int],
                rounds: Sequence[tuple[Sequence[Draw], dict[int, int]]]) -> Tournament:
        """Rebuild the state stored by the runner (rounds as their draws and winners)."""
        t = cls(fmt, seed, variant)
        t.stage = Stage(stage)
        t.entrants = list(entrants)
        t.left = set(left)
        t.rounds = [Round(i + 1, list(draws), dict(won)) for i, (draws, won) in enumerate(rounds)]
        return t
