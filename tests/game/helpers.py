"""Build positions from the hands we want and drive a match with short written steps.

``build_deck`` lays the cards out exactly as docs/game-record.md deals them, so a test
states the four hands and gets the deck that produces them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from game.actions import Action
from game.cards import CardSet, card_str, cards_of, parse_card, to_set
from game.errors import IllegalAction
from game.match import Match
from game.record import action_from_json
from game.rules import Variant
from i18n import rule_reason


@contextmanager
def refused(match: str, kind: type[IllegalAction] = IllegalAction) -> Iterator[None]:
    """The rules refuse what the block does, for the reason ``match`` searches in the words
    the catalogue gives the refusal (its code and parameters)."""
    with pytest.raises(kind) as info:
        yield
    reason = rule_reason(info.value)
    assert re.search(match, reason), reason


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def cset(text: str) -> CardSet:
    return to_set(cards(text))


def names(cs: CardSet | Sequence[int]) -> str:
    """Cards as sorted text, for readable asserts: 'AH JH 7S'."""
    items = list(cards_of(cs)) if isinstance(cs, int) else sorted(cs)
    return " ".join(card_str(c) for c in sorted(items))


def build_deck(variant: Variant | str, dealer: int, hands: Sequence[str], *,
               turned: str | None = None, taker: int | None = None) -> list[int]:
    """The deck that deals ``hands[seat]`` (8 cards each, listed in the order dealt) to each seat.

    Packets go to the seats in playing order from the seat after the dealer: 3 then 2, then
    classic turns the next card up (``turned``, listed in ``hands[taker]``) and gives 3 each
    except the taker, who gets 2; coinche and bulgarian give 3 more each.
    """
    variant = Variant(variant)
    lists = [cards(h) for h in hands]
    assert all(len(h) == 8 for h in lists), "each hand is 8 cards"
    first = (dealer + 1) & 3
    order = [(first + i) & 3 for i in range(4)]
    turned_card = None
    if variant is Variant.CLASSIC:
        assert turned is not None and taker is not None
        turned_card = parse_card(turned)
        lists[taker].remove(turned_card)
    deck: list[int] = []
    for lo, hi in ((0, 3), (3, 5)):
        for seat in order:
            deck.extend(lists[seat][lo:hi])
    if turned_card is not None:
        deck.append(turned_card)
    for seat in order:
        deck.extend(lists[seat][5:])
    assert sorted(deck) == list(range(32)), "the four hands must be the 32 cards"
    return deck


def step_json(variant: Variant, step: str) -> dict[str, Any]:
    """'pass', 'take', 'take S', 'bid 90 H', 'bid capot S', 'bid NT', 'contre', 'double', a card
    'JH', or a card declining belote 'KH!'."""
    words = step.split()
    head = words[0].lower()
    if head in ("pass", "contre", "surcontre", "double", "redouble"):
        return {"action": head}
    if head == "take":
        return {"action": "take", **({"suit": words[1]} if len(words) > 1 else {})}
    if head == "bid":
        if variant is Variant.COINCHE:
            value: Any = words[1] if words[1] == "capot" else int(words[1])
            return {"action": "bid", "value": value, "suit": words[2]}
        return {"action": "bid", "contract": words[1]}
    if step.endswith("!"):
        return {"action": "play", "card": step[:-1], "belote": False}
    return {"action": "play", "card": step}


def action(variant: Variant | str, step: str) -> Action:
    v = Variant(variant)
    return action_from_json(v, step_json(v, step))


class Game:
    """A match driven by written steps; each step is applied for the seat to act."""

    def __init__(self, variant: Variant | str, options: dict[str, Any] | None = None,
                 dealer: int = 0) -> None:
        self.variant = Variant(variant)
        self.match = Match(self.variant, options, first_dealer=dealer)

    @property
    def deal(self) -> Any:
        return self.match.deal

    def new_deal(self, hands: Sequence[str], *, turned: str | None = None,
                 taker: int | None = None) -> Game:
        deck = build_deck(self.variant, self.match.next_dealer, hands, turned=turned,
                          taker=taker)
        self.match.start_deal(deck)
        return self

    def do(self, *steps: str) -> Game:
        for text in steps:
            for step in (text.split() if _all_cards(text) else [text]):
                self.match.apply(action(self.variant, step))
        return self

    def play(self, card: str, **kw: Any) -> Game:
        """One card with options: belote=False, declare=[['7S', '8S', '9S']]."""
        obj: dict[str, Any] = {"action": "play", "card": card, **kw}
        self.match.apply(action_from_json(self.variant, obj))
        return self

    def legal(self) -> str:
        return names(self.match.legal_cards())

    @property
    def result(self) -> Any:
        return self.match.results[-1]


def _all_cards(text: str) -> bool:
    """'JH 7H 8H 9H' is four plays; 'bid 90 H' is one step."""
    words = text.split()
    if len(words) < 2:
        return False
    try:
        for w in words:
            parse_card(w.rstrip("!"))
    except ValueError:
        return False
    return True


def fill(partial: Sequence[str], void: Sequence[str] = ("", "", "", "")) -> list[str]:
    """Complete four partial hands to 8 cards each with the cards nobody was given, so that
    the cards added make no run with a neighbour and no carré, and seat i gets none of the
    suits in ``void[i]`` (tests still assert what is announced)."""
    given = [cards(h) for h in partial]
    used = {c for h in given for c in h}
    rest = [c for c in range(32) if c not in used]

    def fits(seat: int, c: int) -> bool:
        hand = set(given[seat])
        if "CDHS"[c >> 3] in void[seat]:
            return False
        near = {c - 1 if c & 7 else -1, c + 1 if c & 7 != 7 else -1}
        same_rank = sum(1 for x in hand if x & 7 == c & 7)
        return not near & hand and same_rank < 3

    for c in rest:
        open_seats = [s for s in range(4) if len(given[s]) < 8]
        good = [s for s in open_seats if fits(s, c)]
        allowed = [s for s in open_seats if "CDHS"[c >> 3] not in void[s]]
        choice = good or allowed
        assert choice, f"no seat can take {card_str(c)}"
        seat = min(choice, key=lambda s: len(given[s]))
        given[seat].append(c)
    assert all(len(h) == 8 for h in given), "partial hands hold more than 8 cards"
    return [" ".join(card_str(c) for c in h) for h in given]


def rotate(hands: Sequence[str], first: int) -> list[str]:
    """Give role i's hand to seat ``first + i``: the same play, led by ``first``."""
    out = [""] * 4
    for i, h in enumerate(hands):
        out[(first + i) & 3] = h
    return out


# Hearts deals used by several variants, written for the first player (role 0) leading.
# FOLLOW: every trick follows suit and role 0's team takes all eight; role 2 holds KH QH.
FOLLOW = ["AC KC AD KD JH 9H AS KS", "TC QC TD QD AH TH TS QS",
          "JC 9C JD 9D KH QH JS 9S", "8C 7C 8D 7D 8H 7H 8S 7S"]
FOLLOW_PLAY = ["AC TC JC 8C", "KC QC 9C 7C", "AD TD JD 8D", "KD QD 9D 7D",
               "AS TS JS 8S", "KS QS 9S 7S", "JH AH KH 8H", "9H TH QH 7H"]
# FOLLOW with role 0 holding the four aces (it gives 9H for AH).
ACES = ["AC KC AD KD JH AH AS KS", "TC QC TD QD 9H TH TS QS",
        "JC 9C JD 9D KH QH JS 9S", "8C 7C 8D 7D 8H 7H 8S 7S"]
ACES_PLAY = ["AC TC JC 8C", "KC QC 9C 7C", "AD TD JD 8D", "KD QD 9D 7D",
             "AS TS JS 8S", "KS QS 9S 7S", "JH 9H KH 8H", "AH TH QH 7H"]
# SPLIT: in hearts, role 0's team takes 71 card points and holds KH QH (role 0);
# the other team takes 81 and the last trick: 91 against 91 with the belote.
SPLIT = ["AC QC KD 8D KS 8S KH QH", "TC KC AD 9D AS 9S 9H TH",
         "JC 9C QD 7D QS 7S JH 8H", "7C 8C TD JD TS JS AH 7H"]
SPLIT_PLAY = ["AC TC JC 7C", "QC KC 9C 8C", "AD QD TD KD", "9D 7D JD 8D",
              "TS KS AS QS", "9S 7S JS 8S", "AH QH 9H JH", "8H 7H KH TH"]


def parse(text: str) -> int:
    return parse_card(text)


def names_of(text: str) -> str:
    """Written cards in the order ``names`` prints them."""
    return " ".join(sorted(text.split(), key=parse_card))
