"""The hard computer player as it was before bidding by search (frozen for the arena: the
new one is measured against it). Determinized search.

For a card to play it deals the unseen cards many times, consistently with everything its seat
has seen (game/ai/knowledge.py), and scores each legal card on every such deal: by a playout with
the rules of thumb while many cards are left, by exact alpha-beta when few are. The card with
the best mean deal score wins. The bidding uses the easy level's hand evaluator.

The budget is counted in work, not time: one unit per card played in a playout or node of the
exact search, so a decision does the same work, and gives the same answer, on any machine.
The random numbers come from the seed and the view, so a seed and a view always give the same
action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench.hard_v1.auction import choose_bid
from bench.hard_v1.policy import choose_card, position_card
from bench.hard_v1.search import Solver
from game.actions import Action, Play
from game.ai.easy import play_rules, played_cards, trick_state
from game.ai.knowledge import Knowledge, read_knowledge
from game.ai.position import DealValue, PlayRules, Position, key_value
from game.ai.sampling import sample_hands
from game.announcements import best_announcements
from game.cards import FULL_DECK, Card, CardSet, Rank, card_str, to_set
from game.rules import Trump
from game.view import Stage, TableView

_KING_QUEEN = (1 << Rank.KING) | (1 << Rank.QUEEN)


@dataclass(frozen=True, slots=True)
class Budget:
    work: int = 30_000  # playout cards plus search nodes, per decision
    max_samples: int = 120
    min_samples: int = 6
    exact_cards: int = 12  # cards left in all hands at or below which the search is exact


@dataclass(slots=True)
class SearchStats:
    """What the last decision did: read by tests and the benchmark."""

    samples: int = 0
    work: int = 0
    exact: bool = False
    consistent: int = 0  # samples that met every constraint


class HardPlayer:
    level = "hard_v1"

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.seed = seed
        self.budget = budget or Budget()
        self.stats = SearchStats()

    def choose(self, view: TableView) -> Action:
        if view.stage is Stage.BIDDING:
            return choose_bid(view)
        return Play(self.choose_card(view))

    def _rng(self, view: TableView) -> random.Random:
        # A string seed is hashed (SHA-512) by random.Random: stable across runs and machines.
        moves = " ".join(card_str(c) for t in view.tricks for c in t.cards)
        if view.trick is not None:
            moves += "|" + " ".join(card_str(c) for c in view.trick.cards)
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
                value = values[belote] = DealValue(view.variant, rules.contract, seat & 1,
                                                   announced, belote)
            root = Position(rules, hands, leader, trick, points, view.tricks_won, n_tricks)
            for c in legal:
                pos = root.copy()
                pos.play(c)
                if exact:
                    before = solver.nodes
                    key = solver.value(pos)
                    stats.work += solver.nodes - before
                    totals[c] += key_value(value, key)
                else:
                    while pos.n_tricks < 8:
                        pos.play(position_card(pos))
                        stats.work += 1
                    totals[c] += value.of(pos)
        # Ties go to the rule-of-thumb card, then to the lowest card: never to chance.
        preferred = _thumb_card(view)
        return max(legal, key=lambda c: (totals[c], c == preferred, -c))


def _points_so_far(rules: PlayRules, view: TableView) -> tuple[int, int]:
    pts = [0, 0]
    for t in view.tricks:
        assert t.winner is not None
        pts[t.winner & 1] += sum(rules.points[c] for c in t.cards)
    if len(view.tricks) == 8 and view.tricks[-1].winner is not None:
        pts[view.tricks[-1].winner & 1] += 10
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
    trump = rules.contract.trump
    if trump is Trump.NO_TRUMPS:
        return (0, 0)
    suits = range(4) if trump is Trump.ALL_TRUMPS else (int(trump),)
    pts = [0, 0]
    for s in suits:
        pair = _KING_QUEEN << (s * 8)
        for seat in range(4):
            if (hands[seat] | k.played_by[seat]) & pair == pair:
                pts[seat & 1] += 20
    return (pts[0], pts[1])



def _thumb_card(view: TableView) -> Card:
    """The frozen rule-of-thumb card (the easy level's play as it was): the tie-break."""
    assert view.viewer is not None
    rules = play_rules(view)
    hand = to_set(view.hand)
    trick, win_card, win_index = trick_state(rules, view)
    unseen = FULL_DECK ^ hand ^ played_cards(view)
    return choose_card(rules, view.viewer, hand, to_set(view.legal_cards), trick,
                       win_card, win_index, unseen)
