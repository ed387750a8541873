"""A deal in play with every hand known: the state the computer players search and play out.

It is a compact copy of the play half of game.deal.Deal's state (bit sets, no history, no
messages) so a playout costs a few microseconds per card. No rule is restated here: legality
comes from game.deal.legal_play, who takes a trick from game.deal.beats, a trick's points from
game.deal.trick_points, the card tables from game.deal.play_tables and the score from
game.scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import FULL_DECK, Card, CardSet
from ..contract import Contract
from ..deal import (
    LAST_TRICK_BONUS,
    beats,
    card_points_total,
    legal_play,
    play_tables,
    sweep_of,
    trick_points,
    undertrump_rule,
)
from ..rules import Options, Variant
from ..scoring import scorer_for


@dataclass(frozen=True, slots=True)
class PlayRules:
    """Everything about a contract that the play needs, computed once per decision."""

    variant: Variant
    contract: Contract
    strength: tuple[int, ...]
    points: tuple[int, ...]
    above: tuple[int, ...]
    trump_cards: CardSet
    trump_suit_mask: CardSet
    undertrump: bool

    @staticmethod
    def of(variant: Variant, options: Options, contract: Contract) -> PlayRules:
        strength, points, above = play_tables(contract.trump)
        trump_cards = contract.trump_cards
        return PlayRules(variant, contract, strength, points, above, trump_cards,
                         trump_cards if contract.trump.is_suit else 0,
                         undertrump_rule(variant, options))

    def beats(self, c: Card, win: Card) -> bool:
        """Whether ``c`` played now would take the lead from ``win``."""
        return beats(c, win, self.trump_suit_mask, self.strength)


class Position:
    """Hands, the trick in progress and the points so far; ``play`` advances one card."""

    __slots__ = ("hands", "leader", "n_tricks", "played", "points", "rules", "to_act",
                 "trick", "tricks_won", "voids", "win_card", "win_index")

    def __init__(self, rules: PlayRules, hands: Sequence[CardSet], leader: int,
                 trick: Sequence[Card], points: tuple[int, int], tricks_won: tuple[int, int],
                 n_tricks: int, voids: int = 0) -> None:
        self.rules = rules
        self.hands = list(hands)
        self.leader = leader
        self.trick = list(trick)
        self.to_act = (leader + len(trick)) & 3
        self.points = [points[0], points[1]]
        self.tricks_won = [tricks_won[0], tricks_won[1]]
        self.n_tricks = n_tricks
        # Suits each seat has shown it lacks (bit seat * 4 + suit): public, the playout policy
        # reads them like a player at the table would.
        self.voids = voids
        self.played = FULL_DECK ^ (hands[0] | hands[1] | hands[2] | hands[3])
        self.win_card = -1
        self.win_index = 0
        for i, c in enumerate(self.trick):
            if i == 0 or rules.beats(c, self.win_card):
                self.win_card, self.win_index = c, i

    def copy(self) -> Position:
        p = Position.__new__(Position)
        p.rules = self.rules
        p.hands = self.hands[:]
        p.leader = self.leader
        p.trick = self.trick[:]
        p.to_act = self.to_act
        p.points = self.points[:]
        p.tricks_won = self.tricks_won[:]
        p.n_tricks = self.n_tricks
        p.played = self.played
        p.win_card = self.win_card
        p.win_index = self.win_index
        p.voids = self.voids
        return p

    @property
    def is_over(self) -> bool:
        return self.n_tricks == 8

    def legal(self) -> CardSet:
        r = self.rules
        return legal_play(self.hands[self.to_act], self.trick, self.win_card, self.win_index,
                          r.trump_cards, r.trump_suit_mask, r.above, r.undertrump)[0]

    def play(self, c: Card) -> None:
        seat = self.to_act
        self.hands[seat] &= ~(1 << c)
        self.played |= 1 << c
        trick = self.trick
        trick.append(c)
        if len(trick) == 1:
            self.win_card, self.win_index = c, 0
        else:
            if (c ^ trick[0]) >> 3:
                self.voids |= 1 << (seat * 4 + (trick[0] >> 3))
            rules = self.rules
            if beats(c, self.win_card, rules.trump_suit_mask, rules.strength):
                self.win_card, self.win_index = c, len(trick) - 1
        if len(trick) < 4:
            self.to_act = (seat + 1) & 3
            return
        winner = (self.leader + self.win_index) & 3
        team = winner & 1
        self.points[team] += trick_points(trick, self.rules.points)
        self.tricks_won[team] += 1
        self.n_tricks += 1
        if self.n_tricks == 8:
            self.points[team] += LAST_TRICK_BONUS
        self.trick = []
        self.leader = self.to_act = winner


class DealValue:
    """The deal's score for one team (its score minus the other's), from final card points,
    with the announcements and belote known when the search starts. Scoring itself is
    game.scoring's."""

    __slots__ = ("_cache", "announced", "belote", "contract", "scorer", "team", "total")

    def __init__(self, variant: Variant, contract: Contract, team: int,
                 announced: tuple[int, int], belote: tuple[int, int]) -> None:
        self.contract = contract
        self.total = card_points_total(contract.trump)
        self.team = team
        self.announced = announced
        self.belote = belote
        self.scorer = scorer_for(variant)
        self._cache: dict[tuple[int, int | None], int] = {}

    def __call__(self, team0_points: int, sweep: int | None) -> int:
        key = (team0_points, sweep)
        v = self._cache.get(key)
        if v is None:
            cp = (team0_points, self.total - team0_points)
            s = self.scorer(self.contract, cp, sweep, self.announced, self.belote).score
            v = s[self.team] - s[1 - self.team]
            self._cache[key] = v
        return v

    def of(self, pos: Position) -> int:
        """The value of a finished position."""
        return self(pos.points[0], sweep_of(pos.tricks_won))


# Minimax values from team 0's side: its card points, with sweeps outside that range so that
# more is always better for team 0 (every scorer is monotone in a team's own points).
SWEEP_0 = 1000
SWEEP_1 = -1000


def outcome_key(pos: Position) -> int:
    if pos.tricks_won[0] == 8:
        return SWEEP_0
    if pos.tricks_won[1] == 8:
        return SWEEP_1
    return pos.points[0]


def key_value(value: DealValue, key: int) -> int:
    if key == SWEEP_0:
        return value(value.total, 0)
    if key == SWEEP_1:
        return value(0, 1)
    return value(key, None)


def shown_voids(tricks: Sequence[tuple[int, Sequence[Card]]]) -> int:
    """The suits each seat has shown it lacks (bit seat * 4 + suit) in ``tricks``, given as
    (leader, cards): a seat that did not follow the suit led has none of it."""
    voids = 0
    for leader, cards in tricks:
        for i in range(1, len(cards)):
            if (cards[i] ^ cards[0]) >> 3:
                voids |= 1 << (((leader + i) & 3) * 4 + (cards[0] >> 3))
    return voids
