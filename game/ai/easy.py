"""The easy computer player: the hand evaluator for the bidding, rules of thumb for the play.

Instant and deterministic: it draws no random numbers at all.
"""

from __future__ import annotations

from ..actions import Action, Play
from ..cards import FULL_DECK, Card, CardSet, to_set
from ..view import Stage, TableView
from .auction import choose_bid
from .policy import choose_card
from .position import PlayRules, shown_voids


def trick_state(rules: PlayRules, view: TableView) -> tuple[list[Card], Card, int]:
    """The cards of the trick in progress, its best card and that card's index."""
    trick = list(view.trick.cards) if view.trick is not None else []
    win_card, win_index = -1, 0
    for i, c in enumerate(trick):
        if i == 0 or rules.beats(c, win_card):
            win_card, win_index = c, i
    return trick, win_card, win_index


def played_cards(view: TableView) -> CardSet:
    played = 0
    for t in view.tricks:
        played |= to_set(t.cards)
    if view.trick is not None:
        played |= to_set(view.trick.cards)
    return played


def view_voids(view: TableView) -> int:
    """The suits each seat has shown it lacks in this deal (see position.shown_voids)."""
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick is not None:
        tricks.append((view.trick.leader, view.trick.cards))
    return shown_voids(tricks)


def play_rules(view: TableView) -> PlayRules:
    assert view.contract is not None
    return PlayRules.of(view.variant, view.options, view.contract)


class EasyPlayer:
    """Sound rules of thumb: see game/ai/auction.py and game/ai/policy.py."""

    level = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # unused: the easy player is deterministic; kept for a uniform API

    def choose(self, view: TableView) -> Action:
        if view.stage is Stage.BIDDING:
            return choose_bid(view)
        return Play(self.choose_card(view))

    def choose_card(self, view: TableView) -> Card:
        assert view.stage is Stage.PLAY and view.viewer is not None and view.legal_cards
        rules = play_rules(view)
        hand = to_set(view.hand)
        trick, win_card, win_index = trick_state(rules, view)
        unseen = FULL_DECK ^ hand ^ played_cards(view)
        return choose_card(rules, view.viewer, hand, to_set(view.legal_cards), trick,
                           win_card, win_index, unseen, view_voids(view))
