"""What one seat knows about the hidden hands, read from its own TableView only.

Cards played, cards that must be in a hand (the classic turned card went to the taker, cards of
a scored announcement, the partner card of a belote call) and cards a hand cannot hold because of
how its player followed: a void shown, a trump not raised when it had to be, no trump played
when one was forced. Those last facts are found by asking the rules themselves
(game.deal.legal_play) whether the card played would still have been legal had the player held
one more card.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import FULL_DECK, SUIT_MASKS, Card, CardSet, Rank, to_set
from ..deal import Trick, legal_play
from ..view import TableView
from .position import PlayRules

_KING_QUEEN = (1 << Rank.KING) | (1 << Rank.QUEEN)


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    rules: PlayRules
    hand: CardSet
    played: CardSet  # every card played in this deal, the trick in progress included
    played_by: tuple[CardSet, CardSet, CardSet, CardSet]  # the same, by seat
    known: tuple[CardSet, CardSet, CardSet, CardSet]  # cards certainly in each other hand
    excluded: tuple[CardSet, CardSet, CardSet, CardSet]  # cards certainly not in each hand
    counts: tuple[int, int, int, int]  # cards left in each hand

    @property
    def unseen(self) -> CardSet:
        """Cards in the other three hands."""
        return FULL_DECK ^ self.hand ^ self.played

    def possible(self, seat: int) -> CardSet:
        """Cards ``seat`` may hold as far as this seat can tell."""
        if seat == self.seat:
            return self.hand
        return self.unseen & ~self.excluded[seat]


def _follow_facts(rules: PlayRules, leader: int, cards: tuple[Card, ...],
                  excluded: list[CardSet]) -> None:
    """Add what each card of a trick tells about its player's hand then."""
    win_card, win_index = cards[0], 0
    for i in range(1, len(cards)):
        c = cards[i]
        seat = (leader + i) & 3
        before = cards[:i]
        # Only cards of the suit led and trumps can change what is legal.
        relevant = (SUIT_MASKS[cards[0] >> 3] | rules.trump_suit_mask) & ~(1 << c)
        out = 0
        x_set = relevant & ~excluded[seat]
        while x_set:
            low = x_set & -x_set
            x_set ^= low
            legal = legal_play((1 << c) | low, before, win_card, win_index, rules.trump_cards,
                               rules.trump_suit_mask, rules.above, rules.undertrump)[0]
            if not legal >> c & 1:
                out |= low
        excluded[seat] |= out
        if rules.beats(c, win_card):
            win_card, win_index = c, i


def read_knowledge(view: TableView, rules: PlayRules) -> Knowledge:
    """Everything ``view.viewer`` can deduce about the hands during the play."""
    seat = view.viewer
    assert seat is not None and view.contract is not None
    tricks: list[Trick] = list(view.tricks)
    if view.trick is not None:
        tricks.append(view.trick)
    played = 0
    excluded = [0, 0, 0, 0]
    played_by: list[CardSet] = [0, 0, 0, 0]
    for t in tricks:
        for i, c in enumerate(t.cards):
            played |= 1 << c
            played_by[t.seat_of(i)] |= 1 << c
        _follow_facts(rules, t.leader, t.cards, excluded)
    hand = to_set(view.hand)
    known = [0, 0, 0, 0]
    if view.taken_card is not None:
        known[view.contract.seat] |= 1 << view.taken_card
    for a in view.announcements:
        known[a.seat] |= to_set(a.cards)
    for call in view.belote_calls:
        pair = _KING_QUEEN << (call.card & ~7)
        known[call.seat] |= pair
    hidden = FULL_DECK ^ hand ^ played
    for s in range(4):
        known[s] &= hidden if s != seat else 0
    # A card known to be in one hand is excluded from the others.
    for s in range(4):
        excluded[s] |= played_by[s]
        for o in range(4):
            if o != s:
                excluded[s] |= known[o]
        excluded[s] &= ~known[s]
    return Knowledge(
        seat=seat,
        rules=rules,
        hand=hand,
        played=played,
        played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
        known=(known[0], known[1], known[2], known[3]),
        excluded=(excluded[0], excluded[1], excluded[2], excluded[3]),
        counts=view.hand_counts,
    )
