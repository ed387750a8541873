"""A deal in play with all four hands known, as the double-dummy solver reads it.

A ``Situation`` is the play half of a deal (hands, the trick on the table, what each team has
taken) plus what its score needs (the contract, the announcements that score, the belote,
the points held from earlier deals). It is built from a live ``Deal`` (``situation_of``) and
moved on a card at a time (``after``) with the rules core's own statements of legality, trick
resolution and points; its final score is the rules core's scorer's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..announcements import best_announcements
from ..cards import Card, CardSet, Rank
from ..contract import Contract
from ..deal import (
    BELOTE_POINTS,
    LAST_TRICK_BONUS,
    Deal,
    Phase,
    beats,
    card_points_total,
    legal_play,
    play_tables,
    scored_announcements,
    sweep_of,
    trick_points,
    undertrump_rule,
)
from ..rules import Trump, Variant
from ..scoring import scorer_for, with_held

KING_QUEEN = (1 << Rank.KING) | (1 << Rank.QUEEN)  # a suit's king and queen, as a suit pattern


@dataclass(frozen=True, slots=True)
class Situation:
    """A position of a deal's play with every hand known."""

    variant: Variant
    contract: Contract
    undertrump: bool  # a player who cannot over-trump an opponent must still trump
    hands: tuple[CardSet, CardSet, CardSet, CardSet]
    leader: int  # who led (or leads) the trick on the table
    trick: tuple[Card, ...]  # the cards of that trick, in playing order
    points: tuple[int, int]  # card points each team has taken (the last trick's 10 included)
    tricks: tuple[int, int]  # tricks each team has taken
    announced: tuple[int, int]  # the announcement points each team scores in this deal
    belote: tuple[int, int]  # the belote points each team scores whatever the play
    # Bulgarian all trumps: the suits whose king and queen one hand holds, neither played yet:
    # the belot counts only if the first of them is led or follows suit (not as a discard).
    pending: tuple[int, ...] = ()
    hanging: int = 0  # points held from earlier deals, collected by this deal's winner

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) & 3

    @property
    def is_over(self) -> bool:
        return not (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]) and \
            not self.trick

    @property
    def tricks_played(self) -> int:
        return self.tricks[0] + self.tricks[1]

    def legal(self) -> CardSet:
        """The cards the seat to act may play (the rules core's legal_play)."""
        if self.is_over:
            return 0
        _strength, _points, above = play_tables(self.contract.trump)
        trump_cards = self.contract.trump_cards
        hand = self.hands[self.to_act]
        if not self.trick:
            return hand
        win, index = self.best_of_trick()
        return legal_play(hand, self.trick, win, index, trump_cards,
                          trump_cards if self.contract.trump.is_suit else 0, above,
                          self.undertrump)[0]

    def best_of_trick(self) -> tuple[Card, int]:
        """The trick's best card so far and its index in the trick (beats())."""
        strength = play_tables(self.contract.trump)[0]
        suit_mask = self.contract.trump_cards if self.contract.trump.is_suit else 0
        win, index = self.trick[0], 0
        for i, c in enumerate(self.trick):
            if i and beats(c, win, suit_mask, strength):
                win, index = c, i
        return win, index

    def after(self, card: Card) -> Situation:
        """The situation once the seat to act plays ``card``. Raises ValueError if it may not."""
        if not self.legal() >> card & 1:
            raise ValueError(f"card {card} may not be played now")
        seat = self.to_act
        hands = list(self.hands)
        hand = hands[seat]
        hands[seat] = hand ^ (1 << card)
        belote = self.belote
        pending = self.pending
        suit = card >> 3
        if suit in pending and (card & 7) in (5, 6) and \
                hand >> (suit * 8) & KING_QUEEN == KING_QUEEN:
            # The first card of a pending belot: it counts when led or following suit.
            pending = tuple(s for s in pending if s != suit)
            if not self.trick or self.trick[0] >> 3 == suit:
                b = list(belote)
                b[seat & 1] += BELOTE_POINTS
                belote = (b[0], b[1])
        trick = (*self.trick, card)
        hands_t = (hands[0], hands[1], hands[2], hands[3])
        if len(trick) < 4:
            return replace(self, hands=hands_t, trick=trick, belote=belote, pending=pending)
        probe = replace(self, trick=trick)
        _win, index = probe.best_of_trick()
        winner = (self.leader + index) & 3
        team = winner & 1
        gained = trick_points(trick, play_tables(self.contract.trump)[1])
        if not (hands[0] | hands[1] | hands[2] | hands[3]):
            gained += LAST_TRICK_BONUS
        points = list(self.points)
        points[team] += gained
        tricks = list(self.tricks)
        tricks[team] += 1
        return replace(self, hands=hands_t, leader=winner, trick=(), belote=belote,
                       pending=pending, points=(points[0], points[1]),
                       tricks=(tricks[0], tricks[1]))

    def card_total(self) -> int:
        """All the card points of a deal in this contract, the last trick's included."""
        return card_points_total(self.contract.trump)

    def final_score(self) -> int:
        """For a finished situation: team 0's score for the deal minus team 1's (the points
        held from earlier deals included when this deal collects them)."""
        if not self.is_over:
            raise ValueError("the deal is not over")
        return score_of(self, self.points[0], sweep_of(self.tricks), self.belote)


def score_of(sit: Situation, team0_points: int, sweep: int | None,
             belote: tuple[int, int]) -> int:
    """Team 0's score minus team 1's for a deal of ``sit``'s contract that ends with these card
    points for team 0, this sweep and this belote (the rules core's scorer)."""
    total = sit.card_total()
    ds = scorer_for(sit.variant)(sit.contract, (team0_points, total - team0_points), sweep,
                                 sit.announced, belote)
    score, _collected = with_held(ds, sit.hanging)
    return score[0] - score[1]


def situation_of(deal: Deal, hanging: int = 0,
                 announced: tuple[int, int] | None = None) -> Situation:
    """The situation of a deal in play. ``announced``: the announcement points each team
    scores in this deal; by default the deal's own once the first trick is complete, else
    what it would be if each seat yet to play its first card announced its best (the
    default)."""
    if deal.phase is not Phase.PLAY or deal.contract is None:
        raise ValueError("the deal is not in its play")
    contract = deal.contract
    trump = contract.trump
    if announced is None:
        if deal.tricks:
            announced = deal.announced_points()
        else:
            announced = _announced_ahead(deal)
    belote = [0, 0]
    pending: list[int] = []
    for suit, (seat, called) in sorted(deal.belote_states().items()):
        if called == 0 and deal.variant is Variant.BULGARIAN and trump is Trump.ALL_TRUMPS:
            pending.append(suit)
        elif called >= 0:  # called, or to be called as its cards are played
            belote[seat & 1] += BELOTE_POINTS
    h = deal.hands
    return Situation(deal.variant, contract, undertrump_rule(deal.variant, deal.options),
                     (h[0], h[1], h[2], h[3]), deal.trick_leader, tuple(deal.trick),
                     (deal.won_points[0], deal.won_points[1]),
                     (deal.tricks_won[0], deal.tricks_won[1]), announced,
                     (belote[0], belote[1]), tuple(pending), hanging)


def _announced_ahead(deal: Deal) -> tuple[int, int]:
    """Announcement points once every seat has played its first card, each seat yet to play
    it announcing its best."""
    assert deal.contract is not None
    if not deal.options.announcements or deal.contract.trump is Trump.NO_TRUMPS:
        return (0, 0)
    anns = list(deal.announcements)
    for i in range(len(deal.trick), 4):
        seat = (deal.trick_leader + i) & 3
        anns.extend(best_announcements(seat, deal.hands[seat]))
    pts = [0, 0]
    for a, ok in zip(anns, scored_announcements(deal.variant, deal.contract, deal.first, anns),
                     strict=True):
        if ok:
            pts[a.seat & 1] += a.points
    return (pts[0], pts[1])
