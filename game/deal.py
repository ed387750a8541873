"""One deal: the deal of the cards, the auction, the eight tricks and the deal's score.

The hot path (legal cards, playing a card) works on bit sets and per-contract tables built once
when the contract is known, so a random deal costs a few dozen integer operations per card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple, Protocol

from .actions import PLAYS, Action, BidAction, Play
from .announcements import (
    Announcement,
    best_announcements,
    bulgarian_winners,
    check_declaration,
    classic_winner,
)
from .bidding import Bidding, BulgarianBidding, ClassicBidding, CoincheBidding
from .cards import (
    FULL_DECK,
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    SUIT_MASKS,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
    Card,
    CardSet,
    Rank,
    Suit,
    card_name,
    cards_of,
)
from .contract import Contract
from .errors import Cards, IllegalAction, NotYourTurn
from .rules import Options, Trump, Variant
from .scoring import DealScore, Outcome, scorer_for


class Applier(Protocol):
    """``apply(action, seat=None)``: a match's (and its deals') way to take an action."""

    def __call__(self, action: Action, seat: int | None = None) -> bool: ...


class Phase(StrEnum):
    BIDDING = "bidding"
    PLAY = "play"
    DONE = "done"


# Enum members as module constants: reading one off its class goes through the enum
# metaclass's __getattr__ hook (about a microsecond), and these are read on every deal.
_BIDDING: Final = Phase.BIDDING
_DONE: Final = Phase.DONE
_CLASSIC: Final = Variant.CLASSIC
_COINCHE: Final = Variant.COINCHE
_BULGARIAN: Final = Variant.BULGARIAN
_NO_TRUMPS: Final = Trump.NO_TRUMPS
_ALL_TRUMPS: Final = Trump.ALL_TRUMPS
_PASSED: Final = Outcome.PASSED
_PLAY: Final = Phase.PLAY


class Trick(NamedTuple):
    # A named tuple, not a dataclass: eight are made per deal on the hot path.
    leader: int
    cards: tuple[Card, ...]  # in playing order from the leader
    winner: int | None  # None while the trick is in progress

    def seat_of(self, index: int) -> int:
        return (self.leader + index) & 3


@dataclass(frozen=True, slots=True)
class BeloteCall:
    seat: int
    card: Card
    word: str  # "belote" or "rebelote"


# Why a card is forced, for the message a player reads.
_FOLLOW, _RAISE_TRUMP, _RAISE, _TRUMP, _OVERTRUMP, _UNDERTRUMP = range(1, 7)

# For a card: the cards of its suit that beat it, in trump order and in plain order.
_ABOVE_TRUMP = tuple(
    sum(1 << (c & ~7 | q) for q in range(8) if TRUMP_STRENGTH[q] > TRUMP_STRENGTH[c & 7])
    for c in range(32))
_ABOVE_PLAIN = tuple(
    sum(1 << (c & ~7 | q) for q in range(8) if PLAIN_STRENGTH[q] > PLAIN_STRENGTH[c & 7])
    for c in range(32))

_KQ = (1 << Rank.KING) | (1 << Rank.QUEEN)
_QUEEN = int(Rank.QUEEN)
_QUEENS = sum(1 << (s * 8 + Rank.QUEEN) for s in range(4))

# Per contract kind: (strength of each card, points of each card, "beats it" table).
# A trump's strength is offset by 8 so that any trump beats any plain card.
_TABLES: dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}
for _t in Trump:
    _mask = Contract(0, _t).trump_cards
    _TABLES[_t] = (
        tuple(8 + TRUMP_STRENGTH[c & 7] if _mask >> c & 1 else PLAIN_STRENGTH[c & 7]
              for c in range(32)),
        tuple(TRUMP_POINTS[c & 7] if _mask >> c & 1 else PLAIN_POINTS[c & 7] for c in range(32)),
        tuple(_ABOVE_TRUMP[c] if _mask >> c & 1 else _ABOVE_PLAIN[c] for c in range(32)),
    )


def play_tables(trump: Trump) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """For a contract kind: (strength of each card, its points, the cards of its suit that beat
    it). A trump's strength is offset by 8 so any trump beats any plain card."""
    return _TABLES[trump]


def undertrump_rule(variant: Variant, options: Options) -> bool:
    """Whether a player who cannot over-trump an opponent's trump must still trump."""
    return options.must_undertrump and variant is not _BULGARIAN


def legal_play(hand: CardSet, trick: Sequence[Card], win_card: Card, win_index: int,
               trump_cards: CardSet, trump_suit_mask: CardSet, above: Sequence[int],
               undertrump: bool) -> tuple[CardSet, int]:
    """The cards of ``hand`` that may be played on ``trick`` (best card ``win_card`` at
    ``win_index``), and why they are forced. The one statement of the play rules: the deal and
    the computer players' playouts both call it (the deal answers its two commonest cases
    itself, checked against this by the property tests)."""
    if not trick:
        return hand, 0
    led = trick[0] >> 3
    follow = hand & SUIT_MASKS[led]
    win = win_card
    if follow:
        # In the trump suit (or any suit in all trumps) one must beat the best card when
        # able, whoever is winning.
        if trump_cards >> trick[0] & 1 and win >> 3 == led:
            higher = follow & above[win]
            if higher:
                return higher, _RAISE_TRUMP if trump_suit_mask else _RAISE
        return follow, _FOLLOW
    trumps = hand & trump_suit_mask
    if not trumps:
        return hand, 0
    if not (len(trick) - win_index) & 1:
        return hand, 0  # the partner is winning: anything goes
    if trump_suit_mask >> win & 1:
        higher = trumps & above[win]
        if higher:
            return higher, _OVERTRUMP
        if undertrump:
            return trumps, _UNDERTRUMP
        return hand, 0
    return trumps, _TRUMP


LAST_TRICK_BONUS = 10  # "dix de der": the last trick's extra points
BELOTE_POINTS = 20

_CARD_POINTS_TOTAL = {t: sum(tables[1]) + LAST_TRICK_BONUS for t, tables in _TABLES.items()}


def card_points_total(trump: Trump) -> int:
    """All the card points of a deal in a contract of this kind, the last trick's included:
    162 in a suit, 258 in all trumps, 130 in no trumps (before any doubling by the scorer)."""
    return _CARD_POINTS_TOTAL[trump]


def beats(c: Card, win: Card, trump_suit_mask: CardSet, strength: Sequence[int]) -> bool:
    """Whether ``c``, played now, takes the trick from its best card ``win``: a stronger card of
    the same suit, or a trump on a plain card (trump strengths are offset by 8). The one
    statement of trick resolution: the deal and the computers' playouts both call it."""
    return ((c ^ win) < 8 or bool(trump_suit_mask >> c & 1)) and strength[c] > strength[win]


# Per contract kind: for a card, the cards that take the trick from it when it is the best card
# so far. beats() states the rule; the deal reads its answers from this table, one lookup a card.
_BEATERS: dict[int, tuple[int, ...]] = {}
for _t in Trump:
    _suit_mask = Contract(0, _t).trump_cards if _t.is_suit else 0
    _BEATERS[_t] = tuple(sum(1 << c for c in range(32) if beats(c, w, _suit_mask, _TABLES[_t][0]))
                         for w in range(32))


# Per contract kind: for a card led, the cards of its suit when that suit is plain (not trump),
# else nothing. Holding some of them, one must play one of them and nothing else is asked.
_FOLLOW_PLAIN: dict[int, tuple[int, ...]] = {
    t: tuple(SUIT_MASKS[c >> 3] & ~Contract(0, t).trump_cards for c in range(32)) for t in Trump}


# Per contract kind, all a deal's play reads: its trump cards, those of a trump suit (none in
# no trumps and all trumps), then the tables above.
_CONTRACT_TABLES: dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...],
                                  tuple[int, ...], tuple[int, ...]]] = {
    t: (Contract(0, t).trump_cards, Contract(0, t).trump_cards if t.is_suit else 0, *_TABLES[t],
        _BEATERS[t], _FOLLOW_PLAIN[t]) for t in Trump}


def beaters_table(trump: Trump) -> tuple[int, ...]:
    """For a contract kind: for each card, the set of cards that take the trick from it when it
    is the trick's best card so far (beats()'s answers, one lookup a card)."""
    return _BEATERS[trump]


def follow_plain_table(trump: Trump) -> tuple[int, ...]:
    """For a contract kind: for each card led, the cards of its suit when that suit is plain,
    else nothing (held, one must play one of them and nothing else is asked)."""
    return _FOLLOW_PLAIN[trump]


def scored_announcements(variant: Variant, contract: Contract, first: int,
                         anns: Sequence[Announcement]) -> list[bool]:
    """For each announcement of a deal (in the order made), whether it scores: the one statement
    of who scores the announcements, compared when the first trick is complete."""
    if not anns:
        return []
    if variant is _BULGARIAN:
        seq_team, carre_team = bulgarian_winners(anns)
        return [(a.seat & 1) == (carre_team if a.is_carre else seq_team) for a in anns]
    trump_suit = int(contract.trump) if contract.trump.is_suit else None
    team = classic_winner(anns, first, trump_suit)
    return [(a.seat & 1) == team for a in anns]


def trick_points(trick: Sequence[Card], points: Sequence[int]) -> int:
    """The card points of a whole trick (four cards), by the contract's ``points`` table."""
    return points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]


def sweep_of(tricks_won: Sequence[int]) -> int | None:
    """The team that took all eight tricks (capot, valat), or None."""
    return 0 if tricks_won[0] == 8 else 1 if tricks_won[1] == 8 else None


def belote_holders(hands: Sequence[CardSet], trump_cards: CardSet) -> dict[int, int]:
    """For each trump suit, the seat whose hand holds both its king and queen (the belote)."""
    holders: dict[int, int] = {}
    # Bit Q of a suit in hand & hand >> 1 is set when the hand holds its king and queen: most
    # deals have no such trump pair, told without the loop below.
    pairs = 0
    for hand in hands:
        pairs |= hand & hand >> 1
    pairs &= trump_cards & _QUEENS
    if not pairs:
        return holders
    for s in range(4):
        # Only a suit whose king and queen some hand holds (all trumps has four to look at).
        if pairs >> (s * 8 + _QUEEN) & 1 and trump_cards >> (s * 8) & 0xFF == 0xFF:
            for seat in range(4):
                if hands[seat] >> (s * 8) & _KQ == _KQ:
                    holders[s] = seat
    return holders


def held_belote_points(hands: Sequence[CardSet], trump_cards: CardSet) -> tuple[int, int]:
    """The belote points each team would score if every holder of a belote called it."""
    pts = [0, 0]
    for seat in belote_holders(hands, trump_cards).values():
        pts[seat & 1] += BELOTE_POINTS
    return (pts[0], pts[1])


_ALL_CARDS = list(range(32))
_INT_ONLY = {int}


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    if len(deck) == 32:
        cards = tuple(deck)
        # The common case, checked in C (one deck per deal): 32 plain ints, each card once.
        if set(map(type, cards)) == _INT_ONLY and sorted(cards) == _ALL_CARDS:
            return cards
    if len(deck) != 32 or len(set(deck)) != 32 or not all(
            isinstance(c, int) and 0 <= c < 32 for c in deck):
        raise ValueError("a deck is the 32 cards, each once")
    return tuple(deck)


_SUITS = tuple(Suit)
_new_tuple = tuple.__new__
_BITS = tuple(1 << c for c in range(32))  # a card's bit in a set, built once


def _rest_positions(start: int, taker: int | None) -> tuple[int, ...]:
    """The deck positions of the cards dealt after the auction, 3 to each seat in turn from the
    first bidder (``taker``: that many seats after it), from deck position ``start``. Classic:
    the taker's first card is the turned card (position 20) and the rest of the packet comes
    after it, one card short; bulgarian: no taker."""
    out: list[int] = []
    pos = start
    for i in range(4):
        if i == taker:
            out += (20, pos, pos + 1)
            pos += 2
        else:
            out += (pos, pos + 1, pos + 2)
            pos += 3
    return tuple(out)


# Classic, by the taker's place after the first bidder (0-3), then bulgarian (4).
_REST = (*(_rest_positions(21, k) for k in range(4)), _rest_positions(20, None))


class Deal:
    """A deal from a given deck. Apply actions in turn; read the state; get the result."""

    __slots__ = (
        "_above",
        "_announce",
        "_beaters",
        "_belote",
        "_belote_cards",
        "_follow",
        "_follow_plain",
        "_legal",
        "_on_over",
        "_owner",
        "_plays",
        "_points",
        "_raise",
        "_special",
        "_strength",
        "_undertrump",
        "announcements",
        "belote_calls",
        "bidding",
        "contract",
        "dealer",
        "deck",
        "declared",
        "first",
        "hands",
        "options",
        "phase",
        "score",
        "scored",
        "to_act",
        "trick",
        "trick_leader",
        "tricks",
        "tricks_won",
        "trump_cards",
        "trump_suit_mask",
        "turned_card",
        "variant",
        "win_card",
        "win_index",
        "won_points",
    )

    def __init__(self, variant: Variant, options: Options, dealer: int,
                 deck: Sequence[Card], *, trusted: bool = False) -> None:
        """``trusted``: ``deck`` is a tuple known to be a valid deck (the match's own shuffle),
        not checked again."""
        self.variant = variant
        self.options = options
        self.dealer = dealer & 3
        self.deck = deck if trusted and isinstance(deck, tuple) else check_deck(deck)
        self.first = (self.dealer + 1) & 3
        self.hands = [0, 0, 0, 0]
        # The cards played, as their actions, in order (their seats are the tricks'): see
        # the actions property.
        self._plays: list[Play] = []
        self.phase = _BIDDING
        self.contract: Contract | None = None
        self.turned_card: Card | None = None
        self.score: DealScore | None = None
        # Play state, set up when the contract is known.
        self.trick: list[Card] = []
        self.trick_leader = self.first
        self.tricks: list[Trick] = []
        self.win_card = -1
        self.win_index = 0
        self.won_points = [0, 0]
        self.tricks_won = [0, 0]
        self.declared = [False] * 4
        self.announcements: list[Announcement] = []
        self.scored: list[bool] = []
        self.belote_calls: list[BeloteCall] = []
        self._belote: dict[int, list[int]] = {}  # suit -> [holder seat, cards announced or -1]
        self.trump_cards = 0
        self.trump_suit_mask = 0
        self._strength: tuple[int, ...] = ()
        self._points: tuple[int, ...] = ()
        self._above: tuple[int, ...] = ()
        self._beaters: tuple[int, ...] = ()
        self._follow_plain: tuple[int, ...] = ()
        self._follow = 0  # _follow_plain of the card led to this trick
        self._raise = 0  # the suit led when it is a trump (one must go over the best card)
        self._undertrump = undertrump_rule(variant, options)
        # Whether announcements are made in this deal: the option, and not in no trumps.
        self._announce = False
        # The kings and queens of the belotes held: a card outside them skips the belote check.
        self._belote_cards = 0
        # The cards the seat to act may play, computed once each time the turn passes (0
        # outside the play): every decision asks for them, and the card played is checked
        # against them, so neither recomputes the rules.
        self._legal = 0
        # The cards whose play needs more than the common steps: every card in the first
        # trick (each seat's first card: its announcements), then the kings and queens of the
        # belotes held.
        self._special = 0
        # Set by the match that deals this deal (see _attach).
        self._owner: Applier | None = None
        self._on_over: Callable[[Deal], object] | None = None

        self.bidding: Bidding
        if variant is _COINCHE:
            self._deal_opening(True)
            self.bidding = CoincheBidding(self.first)
        elif variant is _CLASSIC:
            self._deal_opening(False)
            self.turned_card = self.deck[20]
            self.bidding = ClassicBidding(self.first, _SUITS[self.turned_card >> 3])
        else:
            self._deal_opening(False)
            self.bidding = BulgarianBidding(self.first)
        self.to_act: int | None = self.first

    # ---- dealing -----------------------------------------------------------------------
    def _deal_opening(self, eight: bool) -> None:
        """The cards dealt before the auction, from the first bidder: 3 then 2 each (deck
        positions 0-19), then in coinche 3 more each (20-31)."""
        # Written out with the cards' bits from a table (no shift, no loop): a new deal is a
        # fixed cost of every deal.
        d = self.deck
        f = self.first
        hands = self.hands
        bit = _BITS
        hands[f] = bit[d[0]] | bit[d[1]] | bit[d[2]] | bit[d[12]] | bit[d[13]]
        hands[(f + 1) & 3] = bit[d[3]] | bit[d[4]] | bit[d[5]] | bit[d[14]] | bit[d[15]]
        hands[(f + 2) & 3] = bit[d[6]] | bit[d[7]] | bit[d[8]] | bit[d[16]] | bit[d[17]]
        hands[(f + 3) & 3] = bit[d[9]] | bit[d[10]] | bit[d[11]] | bit[d[18]] | bit[d[19]]
        if eight:
            hands[f] |= bit[d[20]] | bit[d[21]] | bit[d[22]]
            hands[(f + 1) & 3] |= bit[d[23]] | bit[d[24]] | bit[d[25]]
            hands[(f + 2) & 3] |= bit[d[26]] | bit[d[27]] | bit[d[28]]
            hands[(f + 3) & 3] |= bit[d[29]] | bit[d[30]] | bit[d[31]]

    def _deal_rest(self, positions: tuple[int, ...]) -> None:
        """The cards dealt after the auction (classic, bulgarian), 3 each from the first
        bidder: the deck positions each seat gets, in order (see _REST)."""
        d = self.deck
        f = self.first
        hands = self.hands
        bit = _BITS
        p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11 = positions
        hands[f] |= bit[d[p0]] | bit[d[p1]] | bit[d[p2]]
        hands[(f + 1) & 3] |= bit[d[p3]] | bit[d[p4]] | bit[d[p5]]
        hands[(f + 2) & 3] |= bit[d[p6]] | bit[d[p7]] | bit[d[p8]]
        hands[(f + 3) & 3] |= bit[d[p9]] | bit[d[p10]] | bit[d[p11]]

    def _finish_bidding(self) -> None:
        contract = self.bidding.contract
        if contract is None:
            self.phase = _DONE
            self.to_act = None
            self.score = DealScore(_PASSED, (0, 0))
            self._over()
            return
        self.contract = contract
        if self.variant is _CLASSIC:
            self._deal_rest(_REST[(contract.seat - self.first) & 3])
        elif self.variant is _BULGARIAN:
            self._deal_rest(_REST[4])
        (self.trump_cards, self.trump_suit_mask, self._strength, self._points, self._above,
         self._beaters, self._follow_plain) = _CONTRACT_TABLES[contract.trump]
        for s, seat in belote_holders(self.hands, self.trump_cards).items():
            self._belote[s] = [seat, 0]
            self._belote_cards |= _KQ << (s * 8)
        self._special = FULL_DECK
        self._announce = self.options.announcements and contract.trump is not _NO_TRUMPS
        self.phase = _PLAY
        self.to_act = self.first
        self.trick_leader = self.first
        self._legal = self.hands[self.first]  # a leader may play any card

    # ---- queries -----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is _DONE

    @property
    def played(self) -> CardSet:
        """The cards played so far in this deal (once the contract is known every card is in a
        hand or played; kept by no step of the play, computed when asked)."""
        if self.contract is None:
            return 0
        hands = self.hands
        return FULL_DECK ^ (hands[0] | hands[1] | hands[2] | hands[3])

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """Every action taken in this deal, in order, with its seat: the calls (the auction's
        history), then the cards played, each seat told by its trick's leader. Built when
        asked: a card played makes no pair."""
        out: list[tuple[int, Action]] = list(self.bidding.history)
        tricks = self.tricks
        for i, play in enumerate(self._plays):
            t = i >> 2
            leader = tricks[t].leader if t < len(tricks) else self.trick_leader
            out.append(((leader + i) & 3, play))
        return out

    def hand(self, seat: int) -> CardSet:
        return self.hands[seat]

    def legal_cards(self) -> CardSet:
        """The cards the seat to act may play now (0 outside the play)."""
        return self._legal

    def legal_actions(self) -> list[Action]:
        if self.phase is _BIDDING:
            # A new list already (a list of calls is a list of actions: only its invariance
            # stops mypy, and a copy to please it would cost every decision).
            return self.bidding.legal()  # type: ignore[return-value]
        if self.phase is _PLAY:
            return [PLAYS[c] for c in cards_of(self.legal_cards())]
        return []

    # ---- actions -----------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> bool:
        """Apply the action of the seat to act (checked against ``seat`` when given), or raise
        IllegalAction (NotYourTurn) saying why and change nothing. True when it ended the deal.

        A match's deal is its match's ``apply`` (see Match.apply): a card played is taken here
        directly, anything else goes through the match, whose rules it follows."""
        legal = self._legal  # 0 outside the play: one test tells a card in play from the rest
        if not legal or (seat is not None and seat != self.to_act) or \
                not isinstance(action, Play):
            return self._apply_other(action, seat)
        # Playing a card: the hot path, inline (every call layer costs a few percent of a
        # random deal). The rare steps (first card, belote, end of trick) are calls.
        turn: int = self.to_act  # type: ignore[assignment]  # a turn while cards are legal
        c = action.card
        b = 1 << c
        if not legal & b:  # legal cards are held cards: one test for both
            raise self._refusal(turn, c)
        # A turn's first card (all in the first trick) and a king or queen of a belote held
        # need more; so does a declaration on any card. One test for all of them.
        if self._special & b or action.declare:
            self._first_or_belote(turn, c, action)
        self._plays.append(action)
        hands = self.hands
        hands[turn] ^= b
        trick = self.trick
        trick.append(c)
        n = len(trick)
        if n == 1:
            self.win_card = c
            self.win_index = 0
            follow = self._follow_plain[c]
            self._follow = follow
            self._raise = SUIT_MASKS[c >> 3] if self.trump_cards >> c & 1 else 0
        else:
            if self._beaters[self.win_card] & b:  # the same answer as beats(), from a table
                self.win_card = c
                self.win_index = n - 1
            if n == 4:
                return self._end_trick()
            follow = self._follow
        turn = (turn + 1) & 3
        self.to_act = turn
        hand = hands[turn]
        # legal_play's answers to the two common cases, without the call: a plain suit led
        # and held (those cards, whoever wins), and a trump led and held (those that beat the
        # best card, else any of them); it decides every other case. tests/game's property
        # test checks that every legal set here is legal_play's.
        follow &= hand
        if follow:
            self._legal = follow
            return False
        follow = self._raise & hand
        if follow:
            higher = follow & self._above[self.win_card]
            self._legal = higher if higher else follow
            return False
        self._legal = legal_play(
            hand, trick, self.win_card, self.win_index, self.trump_cards, self.trump_suit_mask,
            self._above, self._undertrump)[0]
        return False

    def _first_or_belote(self, seat: int, c: Card, action: Play) -> None:
        """A seat's first card (its announcements), a declaration on a later card (refused),
        and a king or queen of a belote held (the call)."""
        declare = action.declare
        declared = self.declared
        if not declared[seat]:
            # Marked only once the card is sure to be taken: a refused declaration leaves the
            # seat free to play its first card again, refused again for the same reason.
            if not self._announce:
                if declare:
                    raise IllegalAction("no_announcements_in_no_trumps"
                                        if self.options.announcements else "announcements_off")
            elif declare is None:
                found = best_announcements(seat, self.hands[seat])
                if found:
                    self.announcements.extend(found)
            else:
                self.announcements.extend(check_declaration(seat, self.hands[seat], declare))
            declared[seat] = True
        elif declare:
            raise IllegalAction("announce_with_first_card")
        if self._belote_cards >> c & 1:
            self._call_belote(seat, c, action.belote)

    def _apply_other(self, action: Action, seat: int | None) -> bool:
        """Anything but a card played in turn: a call, or a mistake; for a match's deal that is
        over or not the seat's turn, the match's answer. The match calls it with no seat once
        it has checked the deal is not over and the seat is the one to act."""
        to_act = self.to_act
        if to_act is None or (seat is not None and seat != to_act):
            if self._owner is not None:
                return self._owner(action, seat)
            if to_act is None:
                raise IllegalAction("deal_over")
            raise NotYourTurn()
        if self._legal and isinstance(action, Play):
            return self.apply(action)  # from the match: a card in play
        if self.phase is _BIDDING:
            if isinstance(action, Play):
                raise IllegalAction("bidding_not_over")
            self.bidding.apply(action)  # its history keeps the call, with its seat
            if self.bidding.done:
                self._finish_bidding()
            else:
                self.to_act = self.bidding.to_act
            return self.to_act is None  # a passed deal is over
        raise IllegalAction("play_a_card")

    def _attach(self, owner: Applier | None, on_over: Callable[[Deal], object] | None) -> None:
        """Make this deal its match's: once it is over (or on a seat's mistake) its ``apply``
        is ``owner``'s (the match's: a deal kept past its end stays right), and ``on_over`` is
        told when it ends. The match detaches its deals when it ends, so no cycle outlives it
        and plain reference counting frees a finished match."""
        self._owner = owner
        self._on_over = on_over

    def _over(self) -> None:
        """Tell the match, once, that the deal is over."""
        on_over = self._on_over
        if on_over is not None:
            self._on_over = None
            on_over(self)

    def _refusal(self, seat: int, c: Card) -> IllegalAction:
        """Why ``c`` may not be played by ``seat`` now (it is not a legal card)."""
        hand = self.hands[seat]
        if not hand >> c & 1:
            if self.played >> c & 1:
                return IllegalAction("card_already_played", card=Cards((c,)))
            return IllegalAction("card_not_held", card=Cards((c,)))
        legal, why = legal_play(hand, self.trick, self.win_card, self.win_index,
                                self.trump_cards, self.trump_suit_mask, self._above,
                                self._undertrump)
        return self._explain(legal, why)

    def _end_trick(self) -> bool:
        trick = self.trick
        leader = self.trick_leader
        winner = (leader + self.win_index) & 3
        team = winner & 1
        self.won_points[team] += trick_points(trick, self._points)
        self.tricks_won[team] += 1
        tricks = self.tricks
        # tuple.__new__ directly: the named tuple's own __new__ is one more Python call.
        tricks.append(_new_tuple(Trick, (leader, tuple(trick), winner)))
        self.trick = []
        self.trick_leader = winner
        self.to_act = winner
        self._legal = self.hands[winner]  # a leader may play any card
        n = len(tricks)
        if n == 1:
            self._special = self._belote_cards  # every seat has played its first card
            self._compare_announcements()
        elif n == 8:
            self.won_points[team] += LAST_TRICK_BONUS
            self._finish_play()
            return True
        return False

    def _explain(self, legal: CardSet, why: int) -> IllegalAction:
        """Why a held card may not be played: the rule, with the cards that may be (up to
        four; past that, the suit or kind of card to play)."""
        cards = tuple(cards_of(legal))
        listed = Cards(cards) if len(cards) <= 4 else None
        led = Suit(self.trick[0] >> 3)
        trump = Suit(self.contract.trump) if self.contract and \
            self.contract.trump.is_suit else None
        if why == _FOLLOW:
            return IllegalAction("must_follow", cards=listed) if listed else \
                IllegalAction("must_follow_suit", suit=led)
        if why == _RAISE_TRUMP:
            return IllegalAction("must_raise_trump", cards=listed) if listed else \
                IllegalAction("must_raise_trump_suit", suit=trump) if trump is not None else \
                IllegalAction("must_raise_trump_any")
        if why == _RAISE:
            return IllegalAction("must_raise", suit=led, cards=listed) if listed else \
                IllegalAction("must_raise_any", suit=led)
        if why == _TRUMP:
            return IllegalAction("must_trump", suit=led, cards=listed) if listed else \
                IllegalAction("must_trump_suit", suit=led, trump=trump) if trump is not None \
                else IllegalAction("must_trump_any", suit=led)
        if why == _OVERTRUMP:
            return IllegalAction("must_overtrump", cards=listed) if listed else \
                IllegalAction("must_overtrump_any")
        if why == _UNDERTRUMP:
            return IllegalAction("must_undertrump", cards=listed) if listed else \
                IllegalAction("must_undertrump_any")
        return IllegalAction("cannot_play_card")

    def _call_belote(self, seat: int, c: Card, announce: bool) -> None:
        state = self._belote.get(c >> 3)
        if state is None or state[0] != seat or state[1] < 0:
            return
        if state[1] == 0 and self.variant is _BULGARIAN and \
                self.contract is not None and self.contract.trump is _ALL_TRUMPS and \
                self.trick and (self.trick[0] ^ c) >= 8:
            state[1] = -1  # all trumps: a belot played as a discard is lost
            return
        if not announce:
            state[1] = -1
            return
        state[1] += 1
        self.belote_calls.append(BeloteCall(seat, c, "belote" if state[1] == 1 else "rebelote"))

    def _compare_announcements(self) -> None:
        anns = self.announcements
        if not anns:
            return
        assert self.contract is not None
        self.scored = scored_announcements(self.variant, self.contract, self.first, anns)

    def announced_points(self) -> tuple[int, int]:
        if not self.announcements:
            return (0, 0)
        pts = [0, 0]
        for a, ok in zip(self.announcements, self.scored, strict=False):
            if ok:
                pts[a.seat & 1] += a.points
        return (pts[0], pts[1])

    def belote_states(self) -> dict[int, tuple[int, int]]:
        """For each trump suit whose king and queen one hand was dealt: (that seat, how many
        of the two it has called: 0, 1 or 2; -1 when the belote is lost, declined or, in
        bulgarian all trumps, its first card played as a discard)."""
        return {s: (state[0], state[1]) for s, state in self._belote.items()}

    def belote_points(self) -> tuple[int, int]:
        if not self._belote:
            return (0, 0)
        pts = [0, 0]
        for seat, state in self._belote.values():
            if state == 2:
                pts[seat & 1] += BELOTE_POINTS
        return (pts[0], pts[1])

    def _finish_play(self) -> None:
        self.phase = _DONE
        self.to_act = None
        self._legal = 0
        contract = self.contract
        assert contract is not None
        card_points = (self.won_points[0], self.won_points[1])
        self.score = scorer_for(self.variant)(contract, card_points, sweep_of(self.tricks_won),
                                              self.announced_points(), self.belote_points())
        self._over()

    # ---- what the record and the sheet show ------------------------------------------------
    @property
    def sweep(self) -> int | None:
        if len(self.tricks) < 8:
            return None
        return sweep_of(self.tricks_won)

    @property
    def last_trick_team(self) -> int | None:
        if len(self.tricks) < 8:
            return None
        winner = self.tricks[-1].winner
        return None if winner is None else winner & 1

    def current_trick(self) -> Trick | None:
        if self.phase is not _PLAY or not self.trick:
            return None
        return Trick(self.trick_leader, tuple(self.trick), None)

    def bids(self) -> list[tuple[int, BidAction]]:
        return list(self.bidding.history)

    def card_name(self, c: Card) -> str:
        return card_name(c)
