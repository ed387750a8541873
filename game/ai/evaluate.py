"""The hand evaluator of the bidding: how many points a team can expect from a contract.

``expected_points(hand, trump)`` is a linear score over a few features of the cards the bidder
holds (trump honours, side aces and tens, length, voids, belote). The weights were fitted by
least squares on playouts of random deals (bench/calibrate_ai.py prints them again), one set per
contract kind and per number of cards known when bidding: 5 (bulgarian), 6 (classic: the five
dealt and the turned card, which goes to the taker) and 8 (coinche). The result is in the
contract's own points: the taking team's card points with the last trick and its belote, out of
162 for a suit (258 in all trumps, 130 in no trumps before doubling).
"""

from __future__ import annotations

from ..cards import CardSet, Rank
from ..rules import Trump

J, NINE, ACE, TEN, KING, QUEEN = Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN

SUIT_FEATURES = ("one", "tJ", "t9", "tA", "tT", "tKQ", "tlow", "trumps2", "t9J", "sA", "sT",
                 "sTA", "sK", "voids", "belote")
NT_FEATURES = ("one", "A", "T", "TA", "K", "KAT", "long")
AT_FEATURES = ("one", "J", "9", "9J", "A", "T", "belote")


def _has(pattern: int, rank: int) -> int:
    return pattern >> rank & 1


def suit_features(hand: CardSet, trump: int) -> tuple[float, ...]:
    t = hand >> (trump * 8) & 0xFF
    n = t.bit_count()
    sa = st = sta = sk = voids = 0
    for s in range(4):
        if s == trump:
            continue
        p = hand >> (s * 8) & 0xFF
        sa += _has(p, ACE)
        st += _has(p, TEN)
        sta += _has(p, TEN) & _has(p, ACE)
        sk += _has(p, KING)
        voids += p == 0
    return (1.0, _has(t, J), _has(t, NINE), _has(t, ACE), _has(t, TEN),
            _has(t, KING) + _has(t, QUEEN), (t & 0b11).bit_count(), n * n / 4,
            _has(t, J) & _has(t, NINE), sa, st, sta, sk, voids * min(n, 3) / 3,
            _has(t, KING) & _has(t, QUEEN))


def nt_features(hand: CardSet) -> tuple[float, ...]:
    a = t = ta = k = kat = long = 0
    for s in range(4):
        p = hand >> (s * 8) & 0xFF
        a += _has(p, ACE)
        t += _has(p, TEN)
        ta += _has(p, TEN) & _has(p, ACE)
        k += _has(p, KING)
        kat += _has(p, KING) & _has(p, TEN) & _has(p, ACE)
        if _has(p, ACE):
            long = max(long, p.bit_count())
    return (1.0, a, t, ta, k, kat, long)


def at_features(hand: CardSet) -> tuple[float, ...]:
    j = n = nj = a = t = bel = 0
    for s in range(4):
        p = hand >> (s * 8) & 0xFF
        j += _has(p, J)
        n += _has(p, NINE)
        nj += _has(p, NINE) & _has(p, J)
        a += _has(p, ACE)
        t += _has(p, TEN)
        bel += _has(p, KING) & _has(p, QUEEN)
    return (1.0, j, n, nj, a, t, bel)


def features(hand: CardSet, trump: Trump) -> tuple[float, ...]:
    if trump is Trump.NO_TRUMPS:
        return nt_features(hand)
    if trump is Trump.ALL_TRUMPS:
        return at_features(hand)
    return suit_features(hand, int(trump))


def kind_of(trump: Trump) -> str:
    return "nt" if trump is Trump.NO_TRUMPS else "at" if trump is Trump.ALL_TRUMPS else "suit"


# Fitted weights: WEIGHTS[(kind, cards known)], in the order of the feature names above.
WEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {
    ("suit", 5): (65.7, 20.7, 14.8, 11.1, 7.4, 5.1, 3.5, 0.7, 1.5, 8.1, 1.8, -1.0, 0.2, 5.8,
                  14.0),
    ("suit", 6): (61.0, 20.9, 14.4, 9.7, 6.4, 3.1, 2.6, 3.6, 0.8, 8.4, 2.3, -1.1, 0.4, 5.0,
                  17.8),
    ("suit", 8): (53.3, 20.2, 14.0, 10.4, 6.4, 1.6, 1.2, 3.8, 3.6, 9.7, 2.9, -2.1, 0.1, 8.1,
                  21.2),
    ("nt", 5): (55.2, 9.1, 5.2, 1.0, 1.3, 1.4, -0.1),
    ("at", 5): (115.8, 20.8, 8.0, 6.1, 3.5, 1.9, 17.0),
}
# The mean of the fit per kind: what a team expects with average cards.
MEAN_POINTS = {"suit": 84.0, "nt": 64.8, "at": 138.9}
TOTAL_POINTS = {"suit": 162, "nt": 130, "at": 258}


def expected_points(hand: CardSet, trump: Trump) -> float:
    """The points the bidder's team can expect from the contract ``trump`` (see module doc)."""
    n = hand.bit_count()
    kind = kind_of(trump)
    known = min((k for k in WEIGHTS if k[0] == kind), key=lambda k: abs(k[1] - n))
    w = WEIGHTS[known]
    return sum(a * b for a, b in zip(w, features(hand, trump), strict=True))


def margin(hand: CardSet, trump: Trump) -> float:
    """Expected points above half the contract's total, as a share of that total."""
    kind = kind_of(trump)
    return expected_points(hand, trump) / TOTAL_POINTS[kind] - 0.5
