"""Cards as small integers and hands as 32-bit sets.

A card is ``suit * 8 + rank`` where ranks run in natural (sequence) order 7 8 9 T J Q K A.
A set of cards is an ``int`` whose bit ``card`` is set. Every rule that looks at cards works on
these bit sets and on the tables below.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3


class Rank(IntEnum):
    """Natural order, the order of sequences."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7


Card = int
CardSet = int

SUIT_LETTERS: Final = "CDHS"
# The suits as cards print them, in every language: a button, an image, a web page.
SUIT_SYMBOLS: Final = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠
RANK_LETTERS: Final = "789TJQKA"
FULL_DECK: Final[CardSet] = (1 << 32) - 1
SUIT_MASKS: Final[tuple[int, int, int, int]] = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24)
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES: Final = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")

# Strength of each rank inside its suit: higher wins the trick. Trump order J 9 A 10 K Q 8 7,
# plain order A 10 K Q J 9 8 7.
TRUMP_STRENGTH: Final = (0, 1, 6, 4, 7, 2, 3, 5)
PLAIN_STRENGTH: Final = (0, 1, 2, 6, 3, 4, 5, 7)
TRUMP_POINTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)


def card_str(c: Card) -> str:
    return RANK_LETTERS[c & 7] + SUIT_LETTERS[c >> 3]


_CARD_OF: Final[dict[str, Card]] = {RANK_LETTERS[r] + SUIT_LETTERS[u]: u * 8 + r
                                    for u in range(4) for r in range(8)}


def card_name(c: Card) -> str:
    """Plain words for messages: 'jack of hearts'."""
    return f"{RANK_NAMES[c & 7]} of {SUIT_NAMES[c >> 3]}"


def parse_card(text: str) -> Card:
    """Parse 'JH', 'th', '10S' (a common spelling of the ten). Raises ValueError."""
    known = _CARD_OF.get(text) if isinstance(text, str) else None
    if known is not None:  # the spelling records and logs use: a replay parses thousands
        return known
    if not isinstance(text, str):
        raise ValueError(f"a card must be a string like 'JH', not {text!r}")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_LETTERS or t[1] not in SUIT_LETTERS:
        raise ValueError(f"unknown card {text!r}: use rank 7 8 9 T J Q K A then suit C D H S")
    return SUIT_LETTERS.index(t[1]) * 8 + RANK_LETTERS.index(t[0])


def parse_suit(text: str) -> Suit:
    if not isinstance(text, str) or text.strip().upper() not in ("C", "D", "H", "S"):
        raise ValueError(f"unknown suit {text!r}: use C D H S")
    return Suit(SUIT_LETTERS.index(text.strip().upper()))


def cards_of(cs: CardSet) -> Iterator[Card]:
    """The cards of a set, lowest first."""
    while cs:
        low = cs & -cs
        yield low.bit_length() - 1
        cs ^= low


def to_set(cards: Iterable[Card]) -> CardSet:
    s = 0
    for c in cards:
        s |= 1 << c
    return s


def sort_key(c: Card, trumps: CardSet = 0) -> tuple[int, int]:
    """Order for showing a hand: by suit, then by strength in the order that applies to it."""
    s, r = c >> 3, c & 7
    strength = TRUMP_STRENGTH[r] if trumps >> c & 1 else PLAIN_STRENGTH[r]
    return (s, -strength)


# Suits as a hand shows them, colours alternating (spades, hearts, clubs, diamonds); the trump
# suit, if any, comes first, by rotating the cycle so the colours still alternate.
SUIT_CYCLE: Final = (3, 2, 0, 1)


def shown_order(cards: Iterable[Card], trump_suit: int | None = None,
                trumps: CardSet = 0) -> tuple[Card, ...]:
    """Cards in the order every picture of a hand shows them (the bot's buttons, text and
    images, the web replay): the trump suit first (``trump_suit``: a suit's contract), then the
    suits in alternating colours, strongest first inside a suit (``trumps``: the trump cards,
    whose strength is the trumps')."""
    cycle: tuple[int, ...] = SUIT_CYCLE
    if trump_suit is not None:
        i = cycle.index(trump_suit)
        cycle = cycle[i:] + cycle[:i]
    rank = {s: k for k, s in enumerate(cycle)}
    return tuple(sorted(cards, key=lambda c: (rank[c >> 3], sort_key(c, trumps)[1])))
