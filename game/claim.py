"""Claiming the rest of a deal: when a player's own cards take every trick left whatever the
others hold, they may say so and the deal is played out at once (docs/rules.md, Claim).

The proof reads only what the claimant knows: their hand, the cards played so far and the
contract (a :class:`~game.view.TableView` of their seat). Every card they cannot see is
*unseen*, and any unseen card may be in any other hand, the partner's included: the proof asks
that the claimant's own cards win every trick against every such distribution, the partner
counted as an adversary (sound, if cautious).

The claim is offered on the claimant's lead only, and its plan is the order they play in: the
trumps first (strongest first), then each other suit, strongest first. Why that plan wins, suit
by suit (``unseen_s`` the unseen cards of suit ``s``, ``masters_s`` how many of the claimant's
cards of ``s`` beat every one of them):

- A card led that beats every unseen card of its suit takes the trick unless someone trumps it.
- Everyone holding the suit led must follow it (in every variant), so each lead of ``s`` takes at
  least one unseen card of ``s`` out of play while any is left: after ``masters_s`` leads of
  masters, ``unseen_s`` is empty if ``masters_s >= len(unseen_s)``, and every card of ``s`` the
  claimant still holds is a master. So the suit is sure when ``masters_s >= len(unseen_s)`` or
  every card of it is a master.
- With a trump suit, a plain card led may be trumped: the plain suits are sure only once no
  trump is unseen. Led first, the claimant's sure trumps take them all out when they are at
  least as many as the unseen trumps (``masters_t >= len(unseen_t)``). In no trumps and all
  trumps nothing is trumped (a card takes a trick only in the suit led).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUIT_MASKS, Card, CardSet, cards_of, to_set
from .contract import Contract
from .deal import play_tables
from .rules import Trump
from .view import Stage, TableView

FULL_DECK = (1 << 32) - 1


def _by_strength(cards: CardSet, strength: Sequence[int]) -> list[Card]:
    """The cards, strongest first."""
    return sorted(cards_of(cards), key=lambda c: -strength[c])


def _sure_suit(mine: CardSet, unseen: CardSet, strength: Sequence[int]) -> tuple[bool, int]:
    """(every card of ``mine`` takes its trick when led strongest first, with nothing trumped;
    how many of them beat every unseen card of the suit). ``mine`` and ``unseen``: one suit."""
    top = max((strength[c] for c in cards_of(unseen)), default=-1)
    masters = sum(1 for c in cards_of(mine) if strength[c] > top)
    return masters == mine.bit_count() or masters >= unseen.bit_count(), masters


def claim_plan_of(hand: CardSet, unseen: CardSet, trump: Trump) -> tuple[Card, ...] | None:
    """The order in which a player on lead holding ``hand`` plays to take every trick left,
    whatever the others hold of ``unseen`` (the cards this player cannot see) and however
    they play; None when the proof cannot show it."""
    if not hand:
        return None
    strength = play_tables(trump)[0]
    trump_suit = SUIT_MASKS[trump] if trump.is_suit else 0
    plan: list[Card] = []
    if trump_suit:
        mine, out = hand & trump_suit, unseen & trump_suit
        sure, masters = _sure_suit(mine, out, strength)
        if not sure:
            return None
        if out and hand & ~trump_suit and masters < out.bit_count():
            return None  # an unseen trump may be left to take a plain card
        plan += _by_strength(mine, strength)
    for suit in range(4):
        mask = SUIT_MASKS[suit]
        if mask == trump_suit:
            continue
        mine, out = hand & mask, unseen & mask
        if not mine:
            continue
        if not _sure_suit(mine, out, strength)[0]:
            return None
        plan += _by_strength(mine, strength)
    return tuple(plan)


def claim_plan(view: TableView) -> tuple[Card, ...] | None:
    """The claimant's plan (``claim_plan_of``) when the viewer may claim the rest now: the play,
    their lead, at least two tricks left (the last one plays itself); else None."""
    if view.stage is not Stage.PLAY or not view.is_my_turn or view.contract is None or \
            (view.trick is not None and view.trick.cards) or len(view.hand) < 2:
        return None
    hand = to_set(view.hand)
    played = 0
    for trick in view.tricks:
        played |= to_set(trick.cards)
    unseen = FULL_DECK & ~hand & ~played
    return claim_plan_of(hand, unseen, view.contract.trump)


def claim_card(legal: CardSet, contract: Contract) -> Card:
    """The card another seat plays while a claim plays the rest out: its weakest legal card
    (the lowest card among equals): fixed, so a claim always plays out the same."""
    strength = play_tables(contract.trump)[0]
    return min(cards_of(legal), key=lambda c: (strength[c], c))
