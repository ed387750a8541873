"""Announcements: carrés and sequences. Detection, the best choice, checks, and comparison."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import Card, CardSet, Rank, card_str, cards_of, to_set
from .errors import Cards, IllegalAction

CARRE_POINTS = {Rank.JACK: 200, Rank.NINE: 150, Rank.ACE: 100, Rank.TEN: 100,
                Rank.KING: 100, Rank.QUEEN: 100}
# Carrés compare J, 9, A, 10, K, Q.
CARRE_ORDER = {Rank.JACK: 6, Rank.NINE: 5, Rank.ACE: 4, Rank.TEN: 3, Rank.KING: 2,
               Rank.QUEEN: 1}
CARRE_NAMES = {Rank.JACK: "jacks", Rank.NINE: "nines", Rank.ACE: "aces", Rank.TEN: "tens",
               Rank.KING: "kings", Rank.QUEEN: "queens"}
RANK_OF_ALL_SUITS = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))


def sequence_points(length: int) -> int:
    return 20 if length == 3 else 50 if length == 4 else 100


def _runs_of_pattern(pattern: int) -> tuple[tuple[int, int], ...]:
    """Maximal runs of 3+ set bits in an 8-bit suit pattern: (lowest rank, length)."""
    out = []
    r = 0
    while r < 8:
        if pattern >> r & 1:
            start = r
            while r < 8 and pattern >> r & 1:
                r += 1
            if r - start >= 3:
                out.append((start, r - start))
        else:
            r += 1
    return tuple(out)


RUNS = tuple(_runs_of_pattern(p) for p in range(256))


@dataclass(frozen=True, slots=True)
class Announcement:
    seat: int
    cards: tuple[Card, ...]  # sorted, lowest first
    points: int
    carre_rank: Rank | None  # set for a carré
    length: int  # 4 for a carré
    top: Rank  # the highest card's rank (natural order)
    suit: int | None  # the suit of a sequence

    @property
    def is_carre(self) -> bool:
        return self.carre_rank is not None

    def name(self) -> str:
        """The announcement in the logs' notation (``tierce``, ``carré of jacks``); players
        read ``i18n.announcement_text``."""
        if self.carre_rank is not None:
            return f"carré of {CARRE_NAMES[self.carre_rank]}"
        return {3: "tierce", 4: "quarte", 5: "quinte"}.get(self.length, f"run of {self.length}")

    def cards_text(self) -> list[str]:
        return [card_str(c) for c in self.cards]


def carre(seat: int, rank: Rank) -> Announcement:
    cards = tuple(s * 8 + rank for s in range(4))
    return Announcement(seat, cards, CARRE_POINTS[rank], rank, 4, rank, None)


_RANKS = tuple(Rank)  # Rank(r) without the enum call


def sequence(seat: int, suit: int, low: int, length: int) -> Announcement:
    base = suit * 8
    cards = tuple(range(base + low, base + low + length))
    top = low + length - 1
    return Announcement(seat, cards, sequence_points(length), None, length,
                            _RANKS[top] if 0 <= top < 8 else Rank(top), suit)


def carre_ranks(hand: CardSet) -> list[Rank]:
    return [Rank(r) for r in (2, 3, 4, 5, 6, 7)
            if hand & RANK_OF_ALL_SUITS[r] == RANK_OF_ALL_SUITS[r]]


def sequences_of(seat: int, cards: CardSet) -> list[Announcement]:
    return [sequence(seat, s, low, n)
            for s in range(4) for low, n in RUNS[cards >> (s * 8) & 0xFF]]


def possible_choices(seat: int, hand: CardSet) -> list[list[Announcement]]:
    """Every full choice: some carrés, then every maximal run of what is left over."""
    ranks = carre_ranks(hand)
    out = []
    for k in range(len(ranks) + 1):
        for chosen in combinations(ranks, k):
            left = hand
            for r in chosen:
                left &= ~RANK_OF_ALL_SUITS[r]
            out.append([carre(seat, r) for r in chosen] + sequences_of(seat, left))
    return out


# Bit r of a hand ANDed with itself shifted by 1 and 2 is set when it holds ranks r, r+1, r+2 of
# one suit: a tierce or longer starts there. Starts above the queen would spill into the next
# suit, so they are masked out.
_RUN_STARTS = 0x3F3F3F3F
# Bit r of hand & hand >> 8 & hand >> 16 & hand >> 24 is set when every suit's rank r is held:
# the ranks that make a carré are nine to ace.
_CARRE_RANKS = 0xFC


def best_announcements(seat: int, hand: CardSet) -> list[Announcement]:
    """The choice worth the most; on equal points, the one with more carré points."""
    # Called on every first card of a deal: most hands have nothing to announce, which two
    # bit tests tell without building anything.
    if not hand & hand >> 8 & hand >> 16 & hand >> 24 & _CARRE_RANKS:
        if not hand & hand >> 1 & hand >> 2 & _RUN_STARTS:
            return []
        return sequences_of(seat, hand)  # no carré: the sequences are the only choice
    return max(possible_choices(seat, hand),
               key=lambda ch: (sum(a.points for a in ch),
                               sum(a.points for a in ch if a.is_carre)))


def check_declaration(seat: int, hand: CardSet,
                      declared: Sequence[Sequence[Card]]) -> list[Announcement]:
    """Turn an explicit declaration into announcements, or say plainly what is wrong with it."""
    carres: list[Announcement] = []
    seqs: list[tuple[Card, ...]] = []
    used = 0
    for group in declared:
        cards = tuple(sorted(set(group)))
        if len(cards) != len(group) or len(cards) < 3:
            raise IllegalAction("announcement_too_short")
        cs = to_set(cards)
        if cs & ~hand:
            raise IllegalAction("announce_not_held",
                                cards=Cards(tuple(cards_of(cs & ~hand)), "list"))
        if cs & used:
            raise IllegalAction("card_in_two_announcements")
        used |= cs
        ranks = {c & 7 for c in cards}
        suits = {c >> 3 for c in cards}
        if len(cards) == 4 and len(ranks) == 1:
            r = Rank(ranks.pop())
            if r not in CARRE_POINTS:
                raise IllegalAction("no_carre_of_sevens_or_eights")
            carres.append(carre(seat, r))
        elif len(suits) == 1 and max(ranks) - min(ranks) == len(cards) - 1:
            seqs.append(cards)
        else:
            raise IllegalAction("not_an_announcement", cards=Cards(cards, "run"))
    left = hand
    for a in carres:
        left &= ~to_set(a.cards)
    allowed = {a.cards: a for a in sequences_of(seat, left)}
    out = list(carres)
    for cards in seqs:
        if cards not in allowed:
            raise IllegalAction("sequence_not_whole", cards=Cards(cards, "run"))
        out.append(allowed[cards])
    return out


def _position(seat: int, first: int) -> int:
    return (seat - first) & 3


def classic_winner(anns: Iterable[Announcement], first: int, trump_suit: int | None) -> int | None:
    """The team whose announcements score (seed 000's comparison), or None when none were made."""
    best_key: tuple[int, ...] | None = None
    best_team = None
    for a in anns:
        if a.carre_rank is not None:
            key: tuple[int, ...] = (1, CARRE_ORDER[a.carre_rank], 0, 0)
        else:
            key = (0, a.length, a.top, int(a.suit == trump_suit))
        key = (*key, -_position(a.seat, first))
        if best_key is None or key > best_key:
            best_key, best_team = key, a.seat & 1
    return best_team


def bulgarian_winners(anns: Iterable[Announcement]) -> tuple[int | None, int | None]:
    """(team scoring its sequences, team scoring its carrés); None: nobody.
    Sequences: longer, then higher top card; an exact tie between teams scores for nobody."""
    best_seq: list[tuple[int, int] | None] = [None, None]
    best_carre: list[int | None] = [None, None]
    for a in anns:
        t = a.seat & 1
        if a.carre_rank is not None:
            o = CARRE_ORDER[a.carre_rank]
            cur = best_carre[t]
            if cur is None or o > cur:
                best_carre[t] = o
        else:
            k = (a.length, int(a.top))
            cs = best_seq[t]
            if cs is None or k > cs:
                best_seq[t] = k
    seq_team = _better(best_seq[0], best_seq[1])
    carre_team = _better(best_carre[0], best_carre[1])
    return seq_team, carre_team


def _better(a: object, b: object) -> int | None:
    if a is None and b is None:
        return None
    if b is None:
        return 0
    if a is None:
        return 1
    if a == b:
        return None
    return 0 if a > b else 1  # type: ignore[operator]
