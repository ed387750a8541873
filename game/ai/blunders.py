"""Two mistakes a player at the table notices at once, kept out of the hard level's choice.

The hard level scores every legal card over sampled deals; with few samples and playouts by
rules of thumb the scores are noisy, and two cards kept winning often enough to be seen
(bench/mistakes.py mines them from self-play):

- ruffing the partner's trick with one's only trump when it could discard and the trick is
  already the partner's: no opponent still to play can beat the partner's card or trump;
- giving a ten or an ace of a plain suit to a trick an opponent still to play can ruff: that
  opponent has shown it holds none of the suit led (as far as this seat can tell) and may still
  hold a trump that takes the trick.

Both are read from the seat's own view (its hand, the trick, what game/ai/knowledge.py deduces
from the cards played), never from another hand. A blunder is only left out when the seat has
another legal card: if the rules allow nothing else, the card is played.
"""

from __future__ import annotations

from ..cards import SUIT_MASKS, Card, CardSet, Rank, cards_of, to_set
from ..view import TableView
from .easy import trick_state
from .knowledge import Knowledge
from .position import PlayRules

# A ten or an ace: the plain cards worth 10 points or more in every contract with a trump suit.
_BIG_RANKS = (1 << Rank.TEN) | (1 << Rank.ACE)
BIG_CARDS: CardSet = sum(_BIG_RANKS << (8 * s) for s in range(4))


def ruffs_partner(rules: PlayRules, k: Knowledge, trick: list[Card], win_card: Card,
                  win_index: int, legal: CardSet) -> CardSet:
    """The legal cards that would ruff a trick the partner already holds, when the seat has a
    single trump and may discard instead (empty when that is not the case)."""
    tm = rules.trump_suit_mask
    hand = k.hand
    if not trick or not tm or (len(trick) - win_index) & 1:
        return 0  # a lead, no trump suit, or the trick is not the partner's
    led = SUIT_MASKS[trick[0] >> 3]
    if tm & led or tm >> win_card & 1 or hand & led:
        return 0  # trumps led, the partner ruffed already, or the seat must follow
    trumps = hand & tm & legal
    if (hand & tm).bit_count() != 1 or not trumps or not legal & ~tm:
        return 0  # not the only trump, or the rules force the ruff
    seat = k.seat
    threat = rules.above[win_card] | tm
    for i in range(1, 4 - len(trick)):
        o = (seat + i) & 3
        if (o ^ seat) & 1 and k.possible(o) & threat:
            return 0  # an opponent still to play may take the trick: it is not safe yet
    return trumps


def tens_into_ruff(rules: PlayRules, k: Knowledge, trick: list[Card], win_card: Card,
                   win_index: int, legal: CardSet) -> CardSet:
    """The plain tens and aces among ``legal`` that an opponent still to play could ruff: it
    holds none of the suit led and may hold a trump (one above the partner's, when the
    partner's trump holds the trick)."""
    tm = rules.trump_suit_mask
    big = legal & BIG_CARDS & ~tm
    if not tm or not big:
        return 0
    seat = k.seat
    after = [(seat + i) & 3 for i in range(1, 4 - len(trick))]
    opponents = [o for o in after if (o ^ seat) & 1]
    out = 0
    for c in cards_of(big):
        led_card = trick[0] if trick else c
        led = SUIT_MASKS[led_card >> 3]
        if tm & led:
            continue  # a discard on a trump lead: nobody ruffs a trump trick
        # The trumps that would take the trick: any, unless the partner's trump holds it
        # (an opponent's trump holding it already, the ten is theirs whatever comes after).
        if trick and tm >> win_card & 1 and not (len(trick) - win_index) & 1:
            takes = rules.above[win_card]
        else:
            takes = tm
        if any(not k.possible(o) & led and k.possible(o) & takes for o in opponents):
            out |= 1 << c
    return out


def blunders(view: TableView, rules: PlayRules, k: Knowledge) -> CardSet:
    """The seat's legal cards that are one of the two mistakes (see the module's docstring)."""
    legal = to_set(view.legal_cards)
    trick, win_card, win_index = trick_state(rules, view)
    return (ruffs_partner(rules, k, trick, win_card, win_index, legal)
            | tens_into_ruff(rules, k, trick, win_card, win_index, legal))


def candidates(view: TableView, rules: PlayRules, k: Knowledge) -> list[Card]:
    """The legal cards worth searching: the legal cards less the blunders, or every legal card
    when each one is a blunder (then the rules leave no better choice)."""
    legal = list(view.legal_cards)
    if len(legal) == 1:
        return legal
    bad = blunders(view, rules, k)
    kept = [c for c in legal if not bad >> c & 1]
    return kept or legal
