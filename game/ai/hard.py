"""The hard computer player: determinized search.

For a card to play it deals the unseen cards many times, consistently with everything its seat
has seen (game/ai/knowledge.py), and scores each legal card on every such deal: by a playout
with the rules of thumb while many cards are left, by the analysis's double-dummy search
(game/analysis/search.py, through game/ai/search.py) once four cards a hand are left. The card
with the best mean deal score wins; two mistakes a player would notice (ruffing the partner's won
trick, a ten or an ace into a known ruff) are left out first (game/ai/blunders.py). The
bidding searches too: game/ai/bidsearch.py plays each contract worth considering out on deals
that fit the bidding, and makes the call with the best expected score.

The budget is counted in work, not time: one unit per card played in a playout, four per node
of the exact search, so a decision does the same work, and gives the same answer, on any
machine. The random numbers come from the seed and the view, so a seed and a view always give
the same action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Action, Play
from ..announcements import best_announcements
from ..cards import Card, CardSet, card_str
from ..deal import LAST_TRICK_BONUS, held_belote_points, trick_points
from ..rules import Trump
from ..view import Stage, TableView
from .bidsearch import BidBudget, choose_bid_by_search
from .blunders import candidates
from .easy import EasyPlayer, play_rules, view_voids
from .knowledge import Knowledge, read_knowledge
from .policy import position_card
from .position import SWEEP_0, SWEEP_1, DealValue, PlayRules, Position, key_value
from .sampling import sample_hands
from .search import Solver

# The work of one node of the exact search (a trick's start, with the cards below it up to the
# next one): about what four playout cards cost.
NODE_WORK = 4


@dataclass(frozen=True, slots=True)
class Budget:
    work: int = 30_000  # playout cards plus NODE_WORK per search node, per decision
    max_samples: int = 120
    min_samples: int = 6
    exact_cards: int = 16  # cards left in all hands at or below which the search is exact


@dataclass(slots=True)
class SearchStats:
    """What the last decision did: read by tests and the benchmark."""

    samples: int = 0
    work: int = 0
    exact: bool = False
    consistent: int = 0  # samples that met every constraint


class HardPlayer:
    level = "hard"

    def __init__(self, seed: int = 0, budget: Budget | None = None,
                 bid_budget: BidBudget | None = None) -> None:
        self.seed = seed
        self.budget = budget or Budget()
        self.bid_budget = bid_budget or BidBudget()
        self.stats = SearchStats()
        self._easy = EasyPlayer(seed)

    def choose(self, view: TableView) -> Action:
        if view.stage is Stage.BIDDING:
            action, search = choose_bid_by_search(view, self._rng(view), self.bid_budget)
            self.stats = SearchStats(samples=search.samples, work=search.playouts * 32)
            return action
        return Play(self.choose_card(view))

    def _rng(self, view: TableView) -> random.Random:
        # A string seed is hashed (SHA-512) by random.Random: stable across runs and machines.
        moves = " ".join(card_str(c) for t in view.tricks for c in t.cards)
        if view.trick is not None:
            moves += "|" + " ".join(card_str(c) for c in view.trick.cards)
        if not moves:
            moves = "bids " + " ".join(a.describe() for _s, a in view.bids)
        return random.Random(f"hard:{self.seed}:{view.viewer}:{view.deal_number}:"
                             f"{view.dealer}:{' '.join(map(card_str, view.hand))}:{moves}")

    def choose_card(self, view: TableView) -> Card:
        assert view.stage is Stage.PLAY and view.viewer is not None and view.legal_cards
        self.stats = SearchStats()
        legal = list(view.legal_cards)
        if len(legal) == 1:
            return legal[0]
        rules = play_rules(view)
        k = read_knowledge(view, rules)
        # Two mistakes a player notices are never searched (game/ai/blunders.py).
        legal = candidates(view, rules, k)
        if len(legal) == 1:
            return legal[0]
        rng = self._rng(view)
        seat = view.viewer
        # With no trick in progress it is this seat's lead.
        leader = view.trick.leader if view.trick is not None else seat
        trick = list(view.trick.cards) if view.trick is not None else []
        points = _points_so_far(rules, view)
        announced = _announced(view, rules, k)
        n_tricks = len(view.tricks)
        left = sum(view.hand_counts)
        exact = left <= self.budget.exact_cards
        self.stats.exact = exact
        values: dict[tuple[int, int], DealValue] = {}
        totals = dict.fromkeys(legal, 0)
        # The team's card points, summed over the samples: the tie-break when the score cannot
        # tell the cards apart (a contract already made or already lost still counts points
        # in a player's eyes, and a ten given away for nothing is a mistake they notice).
        card_points = dict.fromkeys(legal, 0)
        team = seat & 1
        voids = view_voids(view)
        solver = Solver()
        budget = self.budget
        stats = self.stats
        while stats.samples < budget.max_samples and (
                stats.samples < budget.min_samples or stats.work < budget.work):
            hands, consistent = sample_hands(k, rng)
            stats.samples += 1
            stats.consistent += consistent
            belote = _belote(rules, hands, k)
            value = values.get(belote)
            if value is None:
                value = values[belote] = DealValue(view.variant, rules.contract, team,
                                                   announced, belote)
            root = Position(rules, hands, leader, trick, points, view.tricks_won, n_tricks,
                            voids)
            for c in legal:
                pos = root.copy()
                pos.play(c)
                if exact:
                    before = solver.nodes
                    key = solver.value(pos)
                    stats.work += (solver.nodes - before) * NODE_WORK
                    totals[c] += key_value(value, key)
                    p0 = value.total if key == SWEEP_0 else 0 if key == SWEEP_1 else key
                    card_points[c] += p0 if team == 0 else value.total - p0
                else:
                    while pos.n_tricks < 8:
                        pos.play(position_card(pos))
                        stats.work += 1
                    totals[c] += value.of(pos)
                    card_points[c] += pos.points[team]
        # Ties go to the card points, then to the rule-of-thumb card, then to the lowest card:
        # never to chance.
        preferred = self._easy.choose_card(view)
        return max(legal, key=lambda c: (totals[c], card_points[c], c == preferred, -c))

def _points_so_far(rules: PlayRules, view: TableView) -> tuple[int, int]:
    pts = [0, 0]
    for t in view.tricks:
        assert t.winner is not None
        pts[t.winner & 1] += trick_points(t.cards, rules.points)
    if len(view.tricks) == 8 and view.tricks[-1].winner is not None:
        pts[view.tricks[-1].winner & 1] += LAST_TRICK_BONUS
    return (pts[0], pts[1])


def _announced(view: TableView, rules: PlayRules, k: Knowledge) -> tuple[int, int]:
    """Announcement points each team will score, as far as the seat can tell: the scored ones
    once the first trick is over; before, the team with the biggest one (its own included)."""
    shown = list(view.announcements)
    if any(a.scored is not None for a in shown):
        pts = [0, 0]
        for a in shown:
            if a.scored:
                pts[a.seat & 1] += a.points
        return (pts[0], pts[1])
    seat = k.seat
    mine: list[tuple[int, int]] = []
    played_here = view.trick is not None and any(
        view.trick.seat_of(i) == seat for i in range(len(view.trick.cards)))
    if view.options.announcements and rules.contract.trump is not Trump.NO_TRUMPS and \
            not view.tricks and not played_here:
        mine = [(seat, a.points) for a in best_announcements(seat, k.hand)]
    entries = [(a.seat, a.points) for a in shown] + mine
    if not entries:
        return (0, 0)
    top = max(entries, key=lambda e: e[1])
    team = top[0] & 1
    total = sum(p for s, p in entries if s & 1 == team)
    return (total, 0) if team == 0 else (0, total)


def _belote(rules: PlayRules, hands: list[CardSet], k: Knowledge) -> tuple[int, int]:
    """Belote points each team holds in this sample: K and Q of a trump suit in one hand at the
    start of the play (the cards it still holds plus those it played)."""
    held = [hands[seat] | k.played_by[seat] for seat in range(4)]
    return held_belote_points(held, rules.trump_cards)

