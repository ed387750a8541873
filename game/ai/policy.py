"""Rules of thumb for the play of a card, on bit sets: the easy level's play and the policy of
the hard level's playouts.

They read only what the player to act knows: its hand, the trick, the cards still unseen (not in
its hand and not played) and whether its team is attacking.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import SUIT_MASKS, Card, CardSet, cards_of
from ..deal import beats
from .position import PlayRules, Position

_TRUMP_KEEP = 30  # how much a trump is worth keeping, in card points, when choosing a discard


def _lowest(rules: PlayRules, cards: CardSet) -> Card:
    """The cheapest card to give away: not a trump if possible, then fewest points, weakest."""
    pts, st, tm = rules.points, rules.strength, rules.trump_suit_mask
    return min(cards_of(cards), key=lambda c: ((tm >> c & 1) * _TRUMP_KEEP + pts[c], st[c]))


def _is_master(rules: PlayRules, c: Card, unseen: CardSet) -> bool:
    """No unseen card of its suit beats it."""
    return not rules.above[c] & unseen


def ruff_risk(rules: PlayRules, seat: int, played: int, suit: int, voids: int,
              unseen: CardSet) -> bool:
    """Whether an opponent still to play in a trick of plain ``suit`` (``played`` cards on
    the table, the seat's own not counted) has shown it lacks the suit and may still trump."""
    tm = rules.trump_suit_mask
    if not tm & unseen or tm >> (suit * 8) & 1:
        return False
    trump_suit = (tm.bit_length() - 1) >> 3
    for i in (1, 3):
        if i < 4 - played:
            o = (seat + i) & 3
            if voids >> (o * 4 + suit) & 1 and not voids >> (o * 4 + trump_suit) & 1:
                return True
    return False


def choose_card(rules: PlayRules, seat: int, hand: CardSet, legal: CardSet,
                trick: Sequence[Card], win_card: Card, win_index: int, unseen: CardSet,
                voids: int = 0) -> Card:
    """The rule-of-thumb card; ``voids`` are the suits each seat has shown it lacks (bit
    seat * 4 + suit), so that no ten or ace is given to a trick an opponent will ruff."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if not trick:
        return _lead(rules, seat, hand, legal, unseen, voids)
    pts, st = rules.points, rules.strength
    tm = rules.trump_suit_mask
    last = len(trick) == 3
    risk = bool(voids) and not tm >> win_card & 1 and ruff_risk(
        rules, seat, len(trick), trick[0] >> 3, voids, unseen)
    if not (len(trick) - win_index) & 1:
        # The partner is winning. Give points when the trick is safe, else give little.
        led = SUIT_MASKS[trick[0] >> 3]
        safe = last or (not risk and _is_master(rules, win_card, unseen) and (
            bool(tm >> win_card & 1) or not tm & unseen or bool(led & unseen)))
        if safe:
            def smear(c: Card) -> tuple[int, int]:
                keep = pts[c] // 2 if _is_master(rules, c, unseen) else 0
                return (pts[c] - keep - (tm >> c & 1) * _TRUMP_KEEP, -st[c])
            return max(cards_of(legal), key=smear)
        return _lowest(rules, legal)
    mask, strength = rules.trump_suit_mask, rules.strength
    winners = [c for c in cards_of(legal) if beats(c, win_card, mask, strength)]
    if risk:
        # A plain card would be ruffed by an opponent still to play: only a trump may win.
        winners = [c for c in winners if tm >> c & 1]
    if not winners:
        return _lowest(rules, legal)
    if last:
        # Win as cheaply as possible, keeping the strongest cards for later.
        return min(winners, key=lambda c: ((tm >> c & 1), st[c]))
    masters = [c for c in winners if _is_master(rules, c, unseen & ~(1 << c))]
    if masters:
        return min(masters, key=lambda c: ((tm >> c & 1), st[c]))
    trick_points = sum(pts[c] for c in trick)
    plain = [c for c in winners if not tm >> c & 1]
    if plain:
        return min(plain, key=lambda c: st[c])
    if trick_points >= 10 or not _is_master(rules, trick[0], unseen):
        return min(winners, key=lambda c: st[c])
    return _lowest(rules, legal)


def _lead(rules: PlayRules, seat: int, hand: CardSet, legal: CardSet, unseen: CardSet,
          voids: int) -> Card:
    pts, st = rules.points, rules.strength
    tm = rules.trump_suit_mask
    attacking = (seat ^ rules.contract.seat) & 1 == 0
    trumps = hand & tm
    if trumps and tm & unseen and attacking:
        # Draw the defenders' trumps: with the best trump, or as the taker with length.
        best = max(cards_of(trumps), key=lambda c: st[c])
        if _is_master(rules, best, unseen):
            return best
        if seat == rules.contract.seat and trumps.bit_count() >= 3:
            return min(cards_of(trumps), key=lambda c: st[c])
    masters = [c for c in cards_of(legal & ~tm) if _is_master(rules, c, unseen)
               and not (voids and ruff_risk(rules, seat, 0, c >> 3, voids, unseen))]
    if masters:
        return max(masters, key=lambda c: (pts[c], st[c]))
    if tm == 0:
        # No trumps or all trumps: a master of any suit is a sure trick.
        masters = [c for c in cards_of(legal) if _is_master(rules, c, unseen)]
        if masters:
            return max(masters, key=lambda c: (pts[c], st[c]))

    def lead_cost(c: Card) -> tuple[int, int]:
        # Lead low from a suit where we hold no honour worth protecting.
        suit = hand & SUIT_MASKS[c >> 3]
        guard = sum(pts[x] for x in cards_of(suit) if x != c and pts[x] >= 10)
        return ((tm >> c & 1) * _TRUMP_KEEP + pts[c] + guard // 2, st[c])
    return min(cards_of(legal), key=lead_cost)


def position_card(pos: Position) -> Card:
    """The rule-of-thumb card for the seat to act in a playout (it reads only that seat's
    hand and the cards played, like a player would)."""
    seat = pos.to_act
    hand = pos.hands[seat]
    unseen = ~(pos.played | hand) & 0xFFFFFFFF
    return choose_card(pos.rules, seat, hand, pos.legal(), pos.trick, pos.win_card,
                       pos.win_index, unseen, pos.voids)
