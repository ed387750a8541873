"""The double-dummy search: exact values of a deal's play with every hand known.

Three searches share one contract's tables and one set of move rules:

- ``points``: the card points team 0 takes from a position under best play by both teams
  (tricks' points and the last trick's 10). Alpha-beta with null windows (MTD(f)); a
  transposition table at each trick's start, keyed by the cards still in play and the leader
  (within one layout of the deck: which hand holds each card), holds bounds on the points
  still to come, which do not depend on how the position was reached.
- ``takes_all``: whether a team can take every remaining trick whatever the other does (the
  capot / valat / claim check).
- ``score``: the deal's score under best play for the score, for the rare cases the first two
  cannot give it (a bulgarian all-trumps belot still to be won or lost in the play): the same
  search with the score of each end as its value.

Everything is ints: hands are 32-bit sets, a node is a call with int arguments, nothing is
allocated on the way down but the ordered move tuples, which are cached by set. Cards that are
equivalent (one hand's cards of one suit with no card of another hand, nor of the trick,
between them, worth the same points) are searched once.

The rules: trick resolution is read from ``game.deal.beaters_table`` (beats()'s answers) and
the points from ``game.deal.play_tables``; legality is ``legal`` below, a bitset form of
``game.deal.legal_play`` checked against it on random positions by the tests.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final

from ..cards import SUIT_MASKS, CardSet
from ..deal import LAST_TRICK_BONUS, beaters_table, follow_plain_table, play_tables
from ..rules import Trump

_INF: Final = 1 << 30
_MMOVES_KEPT: Final = 200_000  # the entries of the leads' and discards' table, at most
_KQ: Final = (1 << 5) | (1 << 6)  # queen and king as a suit pattern
# A trick start's key: the cards in play (bits 0-31), the leader (32-33), for takes_all the
# team (34), the layout's number (35 and up).
_TEAM_SHIFT: Final = 34
_LAYOUT_SHIFT: Final = 35

# Move orders (the tuples of cards to try, cached per set of cards and order).
_BY_STRENGTH: Final = 0  # strongest first
_POINTS_DOWN: Final = 1  # most points first, then weakest
_POINTS_UP: Final = 2  # fewest points first, then weakest


class Search:
    """The searches of one contract kind (its trump and whether one must under-trump), with
    their transposition tables: reuse one for every position of a deal."""

    __slots__ = (
        "_bat",
        "_bats",
        "_bracketed",
        "_ex2",
        "_fmoves",
        "_gtt",
        "_gtts",
        "_hs",
        "_lay",
        "_lay_hands",
        "_layouts",
        "_lead",
        "_leaf",
        "_mmoves",
        "_orders",
        "_pend",
        "_reps",
        "_stt",
        "_suit_points",
        "_sure",
        "_total",
        "_trump",
        "_trump_order",
        "_tshift",
        "above",
        "beaters",
        "follow",
        "nodes",
        "points",
        "strength",
        "trump_cards",
        "tsm",
        "tt",
        "undertrump",
    )

    def __init__(self, trump: Trump, undertrump: bool) -> None:
        self.strength, self.points, self.above = play_tables(trump)
        self.beaters = beaters_table(trump)
        self.follow = follow_plain_table(trump)
        mask = 0xFFFFFFFF if trump is Trump.ALL_TRUMPS else 0 if trump is Trump.NO_TRUMPS \
            else SUIT_MASKS[trump]
        self.trump_cards = mask
        self.tsm = mask if trump.is_suit else 0  # the trump suit's cards (none in NT, AT)
        self.undertrump = undertrump
        self.tt: dict[int, tuple[int, int, int]] = {}  # key -> (low, high, best lead)
        self._stt: dict[int, bool] = {}  # takes_all: key | team << _TEAM_SHIFT -> answer
        self._gtt: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self._gtts: dict[object, dict[tuple[int, int, int, int], tuple[int, int]]] = {}
        # _bracket_at's answers under the current leaf, and under each context.
        self._bat: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self._bats: dict[object, dict[tuple[int, int, int, int], tuple[int, int]]] = {}
        self._reps: dict[int, int] = {}
        self._orders: dict[int, tuple[int, ...]] = {}
        # A follower's ordered moves, by its legal cards of one suit, the others still in play
        # of that suit, the trick's best card and how it orders them (see moves).
        self._fmoves: dict[int, tuple[int, ...]] = {}
        # Leads and discards (cards of several suits), by the cards, the others in play and
        # the order (see moves).
        self._mmoves: dict[int, tuple[int, ...]] = {}
        self._hs = [0, 0, 0, 0]
        # The tables' keys name a trick's start by the cards still in play and the leader
        # (and the layout they were dealt in): within one layout of the deck, the cards in
        # play say which hand holds each. Small ints, cheaper to build and hash than the four
        # hands. A layout is the four hands of a root position; ``_lay`` is its number, shifted
        # into the key (see ``_root``).
        self._layouts: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)]
        self._lay_hands: tuple[int, int, int, int] = (0, 0, 0, 0)  # the current layout
        self._lay = 0
        # The points of each suit's cards, by suit * 256 + the suit's pattern of cards.
        self._suit_points = _suit_points(trump)
        # Suit contracts: the card points each team surely takes, by the trump suit's cards
        # each team holds (team 0's pattern | team 1's << 8): a team's trumps above every trump
        # of the other team win whatever trick they fall in (its highest trump takes it).
        self._tshift = int(trump) * 8 if trump.is_suit else 0
        self._trump = trump
        # The trump suit's cards, strongest first (none outside suit contracts).
        self._trump_order = _trump_order(trump)
        self._sure: dict[int, int] | None = _SURE.setdefault(trump, {}) if trump.is_suit \
            else None
        self._lead = -1
        self._pend = 0
        self._total = 0
        self._bracketed = True
        self._ex2: dict[int, int] = {}  # exact points of two-card endings, by key
        self._leaf: Callable[[int, int, int], int] = _no_leaf
        self.nodes = 0

    def _root(self, hands: tuple[int, int, int, int], leader: int,
              trick: tuple[int, ...]) -> list[int]:
        """Sets the hands of a search's root, and the layout its tables' keys are under: the
        current one when no card lies in another hand than the layout's (a later position of
        the same deal; cards the layout lacks are added to it), else a new one (another deal,
        or another world of a computer's). The cards of the trick count as their players'."""
        hs = self._hs
        hs[:] = hands
        lay = self._lay_hands
        h0, h1, h2, h3 = hands
        for i, c in enumerate(trick):
            h = 1 << c
            seat = (leader + i) & 3
            if seat == 0:
                h0 |= h
            elif seat == 1:
                h1 |= h
            elif seat == 2:
                h2 |= h
            else:
                h3 |= h
        l0, l1, l2, l3 = lay
        if h0 & ~l0 | h1 & ~l1 | h2 & ~l2 | h3 & ~l3:
            if _clash(h0, h1, h2, h3, lay):
                # A card in another hand than the layout's: another layout seen before (the
                # contracts a par compares, each dealt its own way), else a new one.
                layouts = self._layouts
                n = next((i for i, other in enumerate(layouts)
                          if not _clash(h0, h1, h2, h3, other)), len(layouts))
                if n == len(layouts):
                    layouts.append((0, 0, 0, 0))
                l0, l1, l2, l3 = layouts[n]
                self._lay = n << _LAYOUT_SHIFT
            # Cards the layout lacks: no key holds them yet, so every key keeps its meaning.
            lay = (h0 | l0, h1 | l1, h2 | l2, h3 | l3)
            self._lay_hands = lay
            self._layouts[self._lay >> _LAYOUT_SHIFT] = lay
        return hs

    # ---- the rules, as bit sets ---------------------------------------------------------
    def legal(self, hand: CardSet, led: int, win: int, partner_winning: bool) -> CardSet:
        """The cards of ``hand`` that may follow a trick led with ``led`` whose best card is
        ``win`` (legal_play's answer, as bit sets)."""
        follow = hand & SUIT_MASKS[led >> 3]
        if follow:
            if self.trump_cards >> led & 1 and (win ^ led) < 8:
                higher = follow & self.above[win]
                if higher:
                    return higher
            return follow
        trumps = hand & self.tsm
        if not trumps or partner_winning:
            return hand
        if self.tsm >> win & 1:
            higher = trumps & self.above[win]
            if higher:
                return higher
            return trumps if self.undertrump else hand
        return trumps

    def representatives(self, hand: CardSet, others: CardSet) -> CardSet:
        """One card of each set of equivalent cards of ``hand`` (``others``: every card still
        in play outside it, the trick's included)."""
        reps = self._reps
        top = hand.bit_length() - 1 & ~7
        if not hand & ~(0xFF << top):
            # One suit (a follower's legal cards, mostly): one look-up.
            mine = hand >> top
            if not mine & (mine - 1):
                return hand
            theirs = others >> top & 0xFF
            key = mine | theirs << 8 | top << 13
            r = reps.get(key)
            if r is None:
                r = reps[key] = self._suit_reps(top >> 3, mine, theirs)
            return r << top
        out = 0
        for s in range(4):
            shift = s * 8
            mine = hand >> shift & 0xFF
            if mine:
                if not mine & (mine - 1):
                    out |= mine << shift  # one card of the suit: itself
                    continue
                key = mine | (others >> shift & 0xFF) << 8 | s << 16
                r = reps.get(key)
                if r is None:
                    r = reps[key] = self._suit_reps(s, mine, others >> shift & 0xFF)
                out |= r << shift
        return out

    def _suit_reps(self, suit: int, mine: int, others: int) -> int:
        strength = self.strength
        points = self.points
        order = sorted(range(8), key=lambda r: -strength[suit * 8 + r])
        out = 0
        seen: set[int] = set()
        for r in order:
            if others >> r & 1:
                seen = set()  # another hand's card between: a new run
            elif mine >> r & 1:
                p = points[suit * 8 + r]
                if p not in seen:
                    seen.add(p)
                    out |= 1 << r
        return out

    def _ordered(self, cs: CardSet, kind: int) -> tuple[int, ...]:
        key = cs | kind << 32
        got = self._orders.get(key)
        if got is None:
            strength = self.strength
            points = self.points
            cards = [c for c in range(32) if cs >> c & 1]
            if kind == _BY_STRENGTH:
                cards.sort(key=lambda c: -strength[c])
            elif kind == _POINTS_DOWN:
                cards.sort(key=lambda c: (-points[c], strength[c]))
            else:
                cards.sort(key=lambda c: (points[c], strength[c]))
            got = self._orders[key] = tuple(cards)
        return got

    def moves(self, seat: int, k: int, led: int, win: int, wseat: int,
              trick_cards: CardSet) -> tuple[int, ...]:
        """The cards worth searching for ``seat`` (its legal cards, one of each equivalent
        set), best tries first: when leading, the most points first; when the partner is
        winning, the most points first; else the cards that take the trick (the strongest, or on the
        last card the richest), then the cheapest."""
        hs = self._hs
        hand = hs[seat]
        if k == 0:
            legal = hand
        else:
            # self.legal, written out: this is the search's busiest line.
            legal = hand & SUIT_MASKS[led >> 3]
            if legal:
                if self.trump_cards >> led & 1 and (win ^ led) < 8:
                    higher = legal & self.above[win]
                    if higher:
                        legal = higher
            elif (wseat ^ seat) == 2 or not hand & self.tsm:
                legal = hand
            else:
                trumps = hand & self.tsm
                if self.tsm >> win & 1:
                    higher = trumps & self.above[win]
                    legal = higher if higher else trumps if self.undertrump else hand
                else:
                    legal = trumps
        if legal & (legal - 1) == 0:
            return (legal.bit_length() - 1,)
        others = (hs[0] | hs[1] | hs[2] | hs[3]) ^ hand | trick_cards
        # How a follower's cards are ordered: feeding the partner's trick, taking the trick
        # on its last card, or taking it before.
        mode = 0 if k == 0 or (wseat ^ seat) == 2 else 1 if k == 3 else 2
        top = legal.bit_length() - 1 & ~7
        if legal & ~(0xFF << top):
            # Cards of several suits (a lead, or a discard): none of them takes the trick
            # (a follower who may play any suit has no trump that beats it), so the order
            # is by points alone, and it depends on these cards and the others in play.
            mkey = legal | others << 32 | (1 if mode else 0) << 64
            got = self._mmoves.get(mkey)
            if got is None:
                if len(self._mmoves) >= _MMOVES_KEPT:
                    self._mmoves.clear()  # bounded: a new deal's positions share few
                got = self._mmoves[mkey] = self._ordered(self.representatives(legal, others),
                                                         _POINTS_UP if mode else _POINTS_DOWN)
            return got
        # One suit (most followers): the answer depends on that suit's cards alone (the
        # legal ones, the others still in play) and the trick's best card, one look-up.
        key = legal >> top | (others >> top & 0xFF) << 8 | top << 13 | mode << 18
        if mode:
            key |= win << 20
        got = self._fmoves.get(key)
        if got is None:
            got = self._fmoves[key] = self._follow_moves(legal, others, win, mode)
        return got

    def _follow_moves(self, legal: CardSet, others: CardSet, win: int,
                      mode: int) -> tuple[int, ...]:
        """A follower's cards worth searching, best tries first (see ``moves``)."""
        # The legal cards' representatives: of the hand's cards outside them, none is
        # stronger than a legal card of its suit (legal_play keeps the higher ones), so they
        # split no run of equivalent legal cards.
        cand = self.representatives(legal, others)
        if mode == 0:
            return self._ordered(cand, _POINTS_DOWN)
        beat = cand & self.beaters[win]
        if not beat:
            return self._ordered(cand, _POINTS_UP)
        return self._ordered(beat, _POINTS_DOWN if mode == 1 else _BY_STRENGTH) + \
            self._ordered(cand & ~beat, _POINTS_UP)

    # ---- card points ----------------------------------------------------------------------
    def points_value(self, hands: tuple[int, int, int, int], leader: int,
                     trick: tuple[int, ...], guess: int | None = None, low: int = 0,
                     high: int = _INF) -> int:
        """Team 0's card points from here (the trick on the table included) under best play
        for card points, known to lie in [``low``, ``high``] when they are given."""
        hs = self._root(hands, leader, trick)
        k = len(trick)
        led, win, wseat, tp, tm = self._trick_state(leader, trick)
        everything = hs[0] | hs[1] | hs[2] | hs[3]
        top = tp + sum(self.points[c] for c in range(32) if everything >> c & 1) + \
            LAST_TRICK_BONUS
        lo, hi = max(0, low), min(top, high)
        g = (lo + hi) // 2 if guess is None else max(lo, min(hi, guess))
        steps = 0
        while lo < hi:
            beta = g if g > lo else lo + 1
            v = self._test(leader, k, led, win, wseat, tp, tm, beta - 1, beta)
            if v >= beta:
                lo = v
            else:
                hi = v
            steps += 1
            # MTD(f) moves by the bound each test returns; after a few tests, bisect.
            g = v if steps < 4 else (lo + hi + 1) // 2
        return lo

    def _test(self, leader: int, k: int, led: int, win: int, wseat: int, tp: int, tm: int,
              alpha: int, beta: int) -> int:
        if k == 0:
            return self._start(leader, alpha, beta)
        return self._node(leader, k, led, win, wseat, tp, tm, alpha, beta)

    def reaches(self, hands: tuple[int, int, int, int], leader: int, trick: tuple[int, ...],
                need: int) -> bool:
        """Whether team 0 can take at least ``need`` card points from here (one null-window
        test)."""
        if need <= 0:
            return True
        self._root(hands, leader, trick)
        led, win, wseat, tp, tm = self._trick_state(leader, trick)
        if trick:
            return self._node(leader, len(trick), led, win, wseat, tp, tm, need - 1,
                              need) >= need
        return self._start(leader, need - 1, need) >= need

    def _trick_state(self, leader: int, trick: tuple[int, ...]) -> tuple[int, int, int, int,
                                                                             int]:
        if not trick:
            return 0, 0, 0, 0, 0
        led = win = trick[0]
        wseat = leader
        tp = tm = 0
        for i, c in enumerate(trick):
            tp += self.points[c]
            tm |= 1 << c
            if i and self.beaters[win] >> c & 1:
                win, wseat = c, (leader + i) & 3
        return led, win, wseat, tp, tm

    def _start(self, leader: int, alpha: int, beta: int) -> int:
        """Team 0's points from the start of a trick led by ``leader`` (fail-soft)."""
        hs = self._hs
        h0, h1, h2, h3 = hs
        if not h0:
            return 0
        self.nodes += 1
        pts = self.points
        if not h0 & (h0 - 1):
            # The last trick: every card is forced.
            beaters = self.beaters
            win = hs[leader].bit_length() - 1
            wseat = leader
            total = pts[win] + LAST_TRICK_BONUS
            for i in (1, 2, 3):
                seat = (leader + i) & 3
                c = hs[seat].bit_length() - 1
                total += pts[c]
                if beaters[win] >> c & 1:
                    win, wseat = c, seat
            return 0 if wseat & 1 else total
        every = h0 | h1 | h2 | h3
        key = every | leader << 32 | self._lay
        two = h0 & (h0 - 1)
        if not two & (two - 1):  # two cards a hand: solved outright, kept exact
            got = self._ex2.get(key)
            if got is None:
                got = self._ex2[key] = self._two(leader)
            return got
        e = self.tt.get(key)
        if e is not None:
            lo, hi, first = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            sp = self._suit_points
            hi = LAST_TRICK_BONUS + sp[every & 0xFF] + sp[256 | every >> 8 & 0xFF] + \
                sp[512 | every >> 16 & 0xFF] + sp[768 | every >> 24]
            lo, first = 0, -1
            sure = self._sure
            if sure is not None:
                sh = self._tshift
                pair = ((h0 | h2) >> sh & 0xFF) | ((h1 | h3) >> sh & 0xFF) << 8
                got = sure.get(pair)
                if got is None:
                    got = sure[pair] = _sure_entry(self._trump, pair)
                lo = got & 0xFFFF
                hi -= got >> 16
            if hi <= alpha:
                return hi
            if lo >= beta:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        self._lead = first
        v = self._node(leader, 0, 0, 0, 0, 0, 0, alpha, beta)
        best = self._lead
        if v <= alpha:
            hi = v
        elif v >= beta:
            lo = v
        else:
            lo = hi = v
        self.tt[key] = (lo, hi, best)
        return v

    def _two(self, leader: int) -> int:
        """Team 0's points from a trick's start with two cards a hand, exactly: every line of
        the first trick (the second is forced), minimax with alpha-beta cuts (exact at the
        root: nothing cut can change the best line's value)."""
        hs = self._hs
        pts = self.points
        beaters = self.beaters
        legal = self.legal
        a, b, c, d = hs[leader], hs[(leader + 1) & 3], hs[(leader + 2) & 3], hs[(leader + 3) & 3]
        every = a | b | c | d
        sp = self._suit_points
        total = LAST_TRICK_BONUS + sp[every & 0xFF] + sp[256 | every >> 8 & 0xFF] + \
            sp[512 | every >> 16 & 0xFF] + sp[768 | every >> 24]
        # Seats are counted from the leader (0) here: the leader's team holds 0 and 2, and
        # the leader's team maximises its points, the other team minimises them.
        best0 = -1
        for x in (a & -a, a & (a - 1)):
            cx = x.bit_length() - 1
            la = (a ^ x).bit_length() - 1
            best1 = _INF
            m1 = legal(b, cx, cx, False)
            for y in (m1 & -m1, m1 & (m1 - 1)) if m1 & (m1 - 1) else (m1,):
                cy = y.bit_length() - 1
                lb = (b ^ y).bit_length() - 1
                w1, ws1 = (cy, 1) if beaters[cx] >> cy & 1 else (cx, 0)
                best2 = -1
                m2 = legal(c, cx, w1, ws1 == 0)
                for z in (m2 & -m2, m2 & (m2 - 1)) if m2 & (m2 - 1) else (m2,):
                    cz = z.bit_length() - 1
                    lc = (c ^ z).bit_length() - 1
                    w2, ws2 = (cz, 2) if beaters[w1] >> cz & 1 else (w1, ws1)
                    best3 = _INF
                    m3 = legal(d, cx, w2, ws2 == 1)
                    tp = pts[cx] + pts[cy] + pts[cz]
                    for u in (m3 & -m3, m3 & (m3 - 1)) if m3 & (m3 - 1) else (m3,):
                        cu = u.bit_length() - 1
                        ws3 = 3 if beaters[w2] >> cu & 1 else ws2
                        # The last trick, every card forced, led by the first one's winner.
                        last = (la, lb, lc, (d ^ u).bit_length() - 1)
                        lw = last[ws3]
                        lws = ws3
                        for i in (1, 2, 3):
                            j = (ws3 + i) & 3
                            cj = last[j]
                            if beaters[lw] >> cj & 1:
                                lw, lws = cj, j
                        t1 = tp + pts[cu]
                        v = 0 if ws3 & 1 else t1
                        if not lws & 1:
                            v += total - t1
                        if v < best3:
                            best3 = v
                            if v <= best2:
                                break
                    if best3 > best2:
                        best2 = best3
                        if best2 >= best1:
                            break
                if best2 < best1:
                    best1 = best2
                    if best1 <= best0:
                        break
            if best1 > best0:
                best0 = best1
                if best0 >= total:
                    break
        return best0 if not leader & 1 else total - best0

    def _node(self, leader: int, k: int, led: int, win: int, wseat: int, tp: int, tm: int,
              alpha: int, beta: int) -> int:
        """Team 0's points from the start of this trick (its ``k`` cards played are worth
        ``tp``, its best card ``win`` of ``wseat``), fail-soft in (alpha, beta)."""
        seat = (leader + k) & 3
        hs = self._hs
        hand = hs[seat]
        moves = self.moves(seat, k, led, win, wseat, tm)
        if k == 0:
            first = self._lead
            if first >= 0 and moves[0] != first and first in moves:
                moves = (first, *[c for c in moves if c != first])
        maxing = not seat & 1
        best = -_INF if maxing else _INF
        best_card = -1
        pts = self.points
        beaters = self.beaters
        ex2 = self._ex2 if k == 3 and hand.bit_count() == 3 else None
        if k == 3 and len(moves) > 1 and ex2 is None:
            # Enhanced transposition cutoff: a child trick already bounded may settle this
            # (not before a two-card ending: those are kept in a table of their own).
            tt = self.tt
            rest = hs[0] | hs[1] | hs[2] | hs[3] | self._lay
            for c in moves:
                nws = seat if beaters[win] >> c & 1 else wseat
                e = tt.get(rest ^ 1 << c | nws << 32)
                if e is not None:
                    gain = 0 if nws & 1 else tp + pts[c]
                    if maxing:
                        if gain + e[0] >= beta:
                            return gain + e[0]
                    elif gain + e[1] <= alpha:
                        return gain + e[1]
        for c in moves:
            b = 1 << c
            hs[seat] = hand ^ b
            if k == 0:
                v = self._node(leader, 1, c, c, seat, pts[c], b, alpha, beta)
            else:
                if beaters[win] >> c & 1:
                    nw, nws = c, seat
                else:
                    nw, nws = win, wseat
                if k < 3:
                    v = self._node(leader, k + 1, led, nw, nws, tp + pts[c], tm | b, alpha,
                                   beta)
                else:
                    gain = 0
                    if not nws & 1:
                        gain = tp + pts[c]
                        if not (hs[0] | hs[1] | hs[2] | hs[3]):
                            gain += LAST_TRICK_BONUS
                    if ex2 is None:
                        v = gain + self._start(nws, alpha - gain, beta - gain)
                    else:
                        # The next trick starts a two-card ending: _start's look-up, here.
                        self.nodes += 1
                        key = hs[0] | hs[1] | hs[2] | hs[3] | nws << 32 | self._lay
                        got = ex2.get(key)
                        if got is None:
                            got = ex2[key] = self._two(nws)
                        v = gain + got
            hs[seat] = hand
            if maxing:
                if v > best:
                    best = v
                    best_card = c
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            elif v < best:
                best = v
                best_card = c
                if v < beta:
                    beta = v
                    if v <= alpha:
                        break
        if k == 0:
            self._lead = best_card
        return best

    # ---- every remaining trick ----------------------------------------------------------
    def takes_all(self, hands: tuple[int, int, int, int], leader: int, trick: tuple[int, ...],
                  team: int) -> bool:
        """Whether ``team`` can take every remaining trick (the one on the table included),
        whatever the other team plays."""
        hs = self._root(hands, leader, trick)
        led, win, wseat, _tp, tm = self._trick_state(leader, trick)
        if not (hs[0] | hs[1] | hs[2] | hs[3]) and not trick:
            return True
        return self._all(leader, len(trick), led, win, wseat, tm, team)

    def _all_start(self, leader: int, team: int) -> bool:
        hs = self._hs
        h0, h1, h2, h3 = hs
        if not h0:
            return True
        pkey = h0 | h1 | h2 | h3 | leader << 32 | self._lay
        key = pkey | team << _TEAM_SHIFT
        got = self._stt.get(key)
        if got is None:
            got = self._stt[key] = not self._cannot_take_all(pkey, team) and \
                self._all(leader, 0, 0, 0, 0, 0, team)
        return got

    def _cannot_take_all(self, key: int, team: int) -> bool:
        """Whether what is known already shows that ``team`` cannot take every trick from
        this trick's start (``key``): the other team holds the highest trump left (it wins the
        trick it falls in), or the card points' bounds show the other team taking a point."""
        hs = self._hs
        every = hs[0] | hs[1] | hs[2] | hs[3]
        for c in self._trump_order:
            if every >> c & 1:
                if (hs[1] | hs[3] if team == 0 else hs[0] | hs[2]) >> c & 1:
                    return True
                break
        e = self.tt.get(key)
        if e is None:
            return False
        if team == 1:
            return e[0] > 0  # team 0 takes a point, so a trick
        sp = self._suit_points
        rest = LAST_TRICK_BONUS + sp[every & 0xFF] + sp[256 | every >> 8 & 0xFF] + \
            sp[512 | every >> 16 & 0xFF] + sp[768 | every >> 24]
        return e[1] < rest  # team 0 cannot take all the points

    def _all(self, leader: int, k: int, led: int, win: int, wseat: int, tm: int,
             team: int) -> bool:
        self.nodes += 1
        seat = (leader + k) & 3
        hs = self._hs
        hand = hs[seat]
        moves = self.moves(seat, k, led, win, wseat, tm)
        ours = (seat & 1) == team
        beaters = self.beaters
        for c in moves:
            b = 1 << c
            hs[seat] = hand ^ b
            if k == 0 or beaters[win] >> c & 1:
                nw, nws = c, seat
            else:
                nw, nws = win, wseat
            if k < 3:
                ok = self._all(leader, k + 1, c if k == 0 else led, nw, nws, tm | b, team)
            else:
                ok = (nws & 1) == team and self._all_start(nws, team)
            hs[seat] = hand
            if ok == ours:
                return ok
        return not ours

    # ---- the score, end by end ----------------------------------------------------------
    def score_value(self, hands: tuple[int, int, int, int], leader: int,
                    trick: tuple[int, ...], points0: int, won: int, belote: int,
                    pending: CardSet, leaf: Callable[[int, int, int], int], low: int,
                    high: int, total: int, bracket: bool = True,
                    context: object = None) -> int:
        """Team 0's deal score minus team 1's under best play for the score. ``points0``:
        team 0's card points so far; ``won``: bit t set when team t has taken a trick;
        ``belote``: the belote points won in the play so far, team 0's + team 1's << 10;
        ``pending``: the kings and queens of the belots still to be won or lost in the play;
        ``leaf(points0, won, belote)``: the score of an end; ``low``, ``high``: bounds of
        every end's score; ``total``: all the card points of the deal; ``bracket``: the
        score never falls as team 0's card points rise, whatever the belots (see _bracket);
        ``context``: what the leaf's scores depend on besides its arguments (the contract, the
        announcements, the belote before the play): the bounds found under one context serve
        every later search under it."""
        self._root(hands, leader, trick)
        self._total = total
        self._bracketed = bracket
        self._pend = pending
        self._leaf = leaf
        if context is None:
            self._gtt = {}
            self._bat = {}
        else:
            self._gtt = self._gtts.setdefault(context, {})
            self._bat = self._bats.setdefault(context, {})
        k = len(trick)
        led, win, wseat, tp, tm = self._trick_state(leader, trick)
        lo, hi = low, high
        g = (lo + hi) // 2
        steps = 0
        while lo < hi:
            beta = g if g > lo else lo + 1
            if k == 0:
                v = self._gstart(leader, points0, won, belote, beta - 1, beta)
            else:
                v = self._gnode(leader, k, led, win, wseat, tp, tm, points0, won, belote,
                                beta - 1, beta)
            if v >= beta:
                lo = v
            else:
                hi = v
            steps += 1
            g = v if steps < 4 else (lo + hi + 1) // 2
        return lo

    def _gstart(self, leader: int, p0: int, won: int, bel: int, alpha: int, beta: int) -> int:
        hs = self._hs
        h0, h1, h2, h3 = hs
        if not h0:
            return self._leaf(p0, won, bel)
        self.nodes += 1
        key = (h0 | h1 | h2 | h3 | leader << 32 | self._lay, p0, won, bel)
        e = self._gtt.get(key)
        if e is not None:
            lo, hi = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        elif not self._bracketed:
            lo, hi = -_INF, _INF
        else:
            lo, hi = self._bracket(leader, p0, won, bel, alpha, beta)
            if lo == hi or lo >= beta or hi <= alpha:
                self._gtt[key] = (lo, hi)
                return lo if lo >= beta or lo == hi else hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        v = self._gnode(leader, 0, 0, 0, 0, 0, 0, p0, won, bel, alpha, beta)
        if v <= alpha:
            hi = v
        elif v >= beta:
            lo = v
        else:
            lo = hi = v
        self._gtt[key] = (lo, hi)
        return v

    def _bracket(self, leader: int, p0: int, won: int, bel: int, alpha: int,
                 beta: int) -> tuple[int, int]:
        """Bounds of the score from a trick's start: a team playing for card points gets at
        least (or at most) the best card points F, and the score never falls with team 0's
        points, so it lies between the least and the most score of an end with F, over the
        belots still to be won or lost (and a sweep where F allows one). F itself is only
        tested, as far as the window (``alpha``, ``beta``) asks: at the least points whose
        least score reaches ``beta``, and at the least whose most score passes ``alpha``."""
        hs = self._hs
        h0, h1, h2, h3 = hs
        every = h0 | h1 | h2 | h3
        key = every | leader << 32 | self._lay
        sp = self._suit_points
        flo, fhi = 0, LAST_TRICK_BONUS + sp[every & 0xFF] + sp[256 | every >> 8 & 0xFF] + \
            sp[512 | every >> 16 & 0xFF] + sp[768 | every >> 24]
        e = self.tt.get(key)
        if e is not None:
            flo, fhi = max(flo, e[0]), min(fhi, e[1])
        lo = self._bracket_at(leader, p0 + flo, won, bel, 0)[0]
        hi = self._bracket_at(leader, p0 + fhi, won, bel, 1)[1]
        if flo == fhi or lo >= beta or hi <= alpha:
            return lo, hi
        # The least points whose least score reaches beta: tested.
        a, b = flo, fhi + 1
        while a < b:
            mid = (a + b) // 2
            if self._bracket_at(leader, p0 + mid, won, bel, 0)[0] >= beta:
                b = mid
            else:
                a = mid + 1
        if a <= fhi:
            v = self._start(leader, a - 1, a)
            if v >= a:
                return self._bracket_at(leader, p0 + v, won, bel, 0)[0], hi
            fhi = v
            hi = self._bracket_at(leader, p0 + fhi, won, bel, 1)[1]
            if hi <= alpha:
                return lo, hi
        # The least points whose most score passes alpha: tested.
        a, b = flo, fhi + 1
        while a < b:
            mid = (a + b) // 2
            if self._bracket_at(leader, p0 + mid, won, bel, 1)[1] > alpha:
                b = mid
            else:
                a = mid + 1
        if flo < a <= fhi:
            v = self._start(leader, a - 1, a)
            if v < a:
                return lo, self._bracket_at(leader, p0 + v, won, bel, 1)[1]
            flo = v
            lo = self._bracket_at(leader, p0 + flo, won, bel, 0)[0]
        return lo, hi

    def _bracket_at(self, leader: int, p: int, won: int, bel: int,
                    side: int) -> tuple[int, int]:
        """The least and the most score of an end where team 0 has ``p`` card points, over the
        belots still open in these hands (each one's holder's team may still win it, or not)
        and a sweep where ``p`` allows one. For a bound of team ``side``'s (0: the least
        score, where team 0 surely takes all the points; 1: the most, where team 1 surely
        takes them), whether that team can take every trick from this trick's start (led by
        ``leader``) is asked: one that can gets a sweep (with some fate of the belots), one
        that cannot gets none."""
        pend = self._pend
        hands = self._hs
        # The belots still open, by the team of the hand holding each (what the answer
        # depends on besides p, won and bel).
        holders = 0
        for suit in range(4):
            kq = _KQ << (suit * 8)
            if pend & kq:
                for seat in range(4):
                    if hands[seat] & kq == kq:
                        holders |= (1 + (seat & 1)) << (2 * suit)
        ends = [3]
        if p == self._total and not won & 2:
            ends = ([1] if self._all_start(leader, 0) else [3]) if side == 0 else [3, 1]
        if p == 0 and not won & 1:
            ends = ([2] if self._all_start(leader, 1) else [3]) if side == 1 else [3, 2]
        key = (p, won, bel, holders | (ends[0] + 4 * ends[-1]) << 8)
        got = self._bat.get(key)
        if got is not None:
            return got
        extras = [0]
        for suit in range(4):
            h = holders >> (2 * suit) & 3
            if h:
                gain = 20 << (10 * (h - 1))
                extras = extras + [e + gain for e in extras]
        leaf = self._leaf
        values = [leaf(p, w | won if w != 3 else 3, bel + e) for e in extras for w in ends]
        got = self._bat[key] = (min(values), max(values))
        return got

    def _gnode(self, leader: int, k: int, led: int, win: int, wseat: int, tp: int, tm: int,
               p0: int, won: int, bel: int, alpha: int, beta: int) -> int:
        seat = (leader + k) & 3
        hs = self._hs
        hand = hs[seat]
        moves = self.moves(seat, k, led, win, wseat, tm)
        maxing = not seat & 1
        best = -_INF if maxing else _INF
        pts = self.points
        beaters = self.beaters
        pend = self._pend
        for c in moves:
            b = 1 << c
            nbel = bel
            if pend >> c & 1 and hand >> (c & ~7) & _KQ == _KQ and (k == 0 or (led ^ c) < 8):
                # The first card of a pending belot, led or following suit: the belot is won.
                nbel += 20 << (10 * (seat & 1))
            hs[seat] = hand ^ b
            if k == 0:
                v = self._gnode(leader, 1, c, c, seat, pts[c], b, p0, won, nbel, alpha, beta)
            else:
                if beaters[win] >> c & 1:
                    nw, nws = c, seat
                else:
                    nw, nws = win, wseat
                if k < 3:
                    v = self._gnode(leader, k + 1, led, nw, nws, tp + pts[c], tm | b, p0, won,
                                    nbel, alpha, beta)
                else:
                    team = nws & 1
                    np0 = p0
                    if not team:
                        np0 += tp + pts[c]
                        if not (hs[0] | hs[1] | hs[2] | hs[3]):
                            np0 += LAST_TRICK_BONUS
                    v = self._gstart(nws, np0, won | 1 << team, nbel, alpha, beta)
            hs[seat] = hand
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if v <= alpha:
                        break
        return best


@functools.cache
def _suit_points(trump: Trump) -> tuple[int, ...]:
    """The points of each suit's cards, by suit * 256 + the suit's pattern of cards: the same
    for every search of a contract kind, and a millisecond to build (hard builds searches
    decision after decision)."""
    points = play_tables(trump)[1]
    return tuple(sum(points[s * 8 + r] for r in range(8) if p >> r & 1)
                 for s in range(4) for p in range(256))


@functools.cache
def _trump_order(trump: Trump) -> tuple[int, ...]:
    """The trump suit's cards, strongest first (none outside suit contracts)."""
    if not trump.is_suit:
        return ()
    strength = play_tables(trump)[0]
    return tuple(sorted(range(int(trump) * 8, int(trump) * 8 + 8), key=lambda c: -strength[c]))


# The sure points of high trumps, by trump suit (see _sure_entry), shared by every search.
_SURE: dict[Trump, dict[int, int]] = {}


def _sure_entry(trump: Trump, key: int) -> int:
    """For a pair of trump patterns (``key``: team 0's | team 1's << 8, disjoint): the points
    of team 0's trumps above all of team 1's | those of team 1's trumps above all of team
    0's << 16. Computed as asked and kept in the search's table: a deal meets a few hundred of
    the 65,536 pairs, and building them all took a tenth of a second a suit in plain Python."""
    strength, points, _above = play_tables(trump)
    shift = int(trump) * 8
    mine, theirs = key & 0xFF, key >> 8
    top0 = max((strength[shift + r] for r in range(8) if mine >> r & 1), default=-1)
    top1 = max((strength[shift + r] for r in range(8) if theirs >> r & 1), default=-1)
    s0 = sum(points[shift + r] for r in range(8) if mine >> r & 1 and strength[shift + r] > top1)
    s1 = sum(points[shift + r] for r in range(8) if theirs >> r & 1 and
             strength[shift + r] > top0)
    return s0 | s1 << 16


def _clash(h0: int, h1: int, h2: int, h3: int, lay: tuple[int, int, int, int]) -> bool:
    """Whether a card of these hands lies in another hand in ``lay``."""
    l0, l1, l2, l3 = lay
    return bool(h0 & (l1 | l2 | l3) | h1 & (l0 | l2 | l3) | h2 & (l0 | l1 | l3) |
                h3 & (l0 | l1 | l2))


def _no_leaf(points0: int, won: int, belote: int) -> int:
    raise AssertionError("score_value sets the leaf")
