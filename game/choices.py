"""What a seat may choose ahead of its cards: which announcements it makes with its first card,
and whether a card it plays calls belote. The bot offers these choices and words them; the
rules that say which exist live here, once (``check_choice`` checks one).

A choice of announcements has a code, the value a control carries and the database keeps:
``best`` (the default), ``none``, or the announced cards, ``JC.JD.JH.JS-7H.8H.9H``.

A person may also choose ahead of their turn the card they mean to play next, or to pass in
the auction: an ahead code, ``pass`` or a card (``JH``). Such a choice is for the seat's next
action only: it holds while the seat's count of actions in the deal (``actions_taken``) is the
one it was made at, and when the turn comes it is played if the rules allow it then, else
dropped (``ahead_status``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .actions import Action, Declaration, Pass, Play
from .announcements import Announcement, best_announcements, check_declaration, possible_choices
from .cards import Card, Rank, card_str, parse_card, to_set
from .deal import Deal, Phase
from .errors import IllegalAction
from .rules import Trump
from .view import Stage, TableView

BEST = "best"
NOTHING = "none"
PASS_AHEAD = "pass"
# What a choice made ahead is when looked at now (``ahead_status``).
WAITING = "waiting"  # the seat's turn has not come: it waits
DUE = "due"  # the seat's turn came and the rules allow it: play it now
DROPPED = "dropped"  # the rules do not allow it now (the trick, the auction's end)


def check_choice(deal: Deal, seat: int, declared: Sequence[Sequence[Card]] | None) -> None:
    """Whether ``seat`` may choose now to announce ``declared`` with its first card of this
    deal (None: the best, as by default; empty: nothing): raises IllegalAction saying why not.

    The same rules the deal applies when that card is played, checked ahead of it, so a
    choice accepted now never makes the card refused later."""
    if not declared:
        return  # the best or nothing: always possible
    if not deal.options.announcements:
        raise IllegalAction("announcements_off")
    if deal.contract is None:
        raise IllegalAction("announcements_after_bidding")
    if deal.contract.trump is Trump.NO_TRUMPS:
        raise IllegalAction("no_announcements_in_no_trumps")
    if deal.declared[seat]:
        raise IllegalAction("announce_with_first_card")
    check_declaration(seat, deal.hands[seat], declared)


def first_card(deal: Deal | None, seat: int) -> bool:
    """Whether ``seat`` has yet to play its first card of this deal's play."""
    return deal is not None and deal.hands[seat].bit_count() == 8


def forced_card(deal: Deal | None) -> Card | None:
    """The card the seat to act must play because the rules leave it no other (one legal card;
    the last trick's card always), or None: the bidding, or a choice of cards. The bot plays
    such a card for a person after a short beat (docs/rules.md)."""
    if deal is None or deal.phase is not Phase.PLAY or deal.to_act is None:
        return None
    legal = deal.legal_cards()
    return legal.bit_length() - 1 if legal.bit_count() == 1 else None


def may_call_belote(deal: Deal | None, card: Card) -> bool:
    """Whether playing ``card`` could call belote (a king or queen of a trump), so that
    declining belote is recorded only on the cards it is about."""
    if deal is None or deal.contract is None or (card & 7) not in (Rank.KING, Rank.QUEEN):
        return False
    return bool(deal.trump_cards >> card & 1)


def holds_belote(view: TableView) -> bool:
    """The viewer holds (what is left of) king and queen of a trump and may still announce."""
    if view.stage is not Stage.PLAY or view.contract is None or view.viewer is None:
        return False
    trump = view.contract.trump
    suits = range(4) if trump is Trump.ALL_TRUMPS else [int(trump)] if trump.is_suit else []
    hand = set(view.hand)
    for suit in suits:
        k, q = suit * 8 + Rank.KING, suit * 8 + Rank.QUEEN
        called = any(b.seat == view.viewer and b.card >> 3 == suit for b in view.belote_calls)
        if (k in hand and q in hand) or (called and (k in hand or q in hand)):
            return True
    return False


def may_announce(view: TableView) -> bool:
    """The viewer is about to play their first card in a deal with announcements."""
    return (view.stage is Stage.PLAY and view.options.announcements and
            view.contract is not None and view.contract.trump is not Trump.NO_TRUMPS and
            len(view.hand) == 8)


def best_of(view: TableView) -> list[Announcement]:
    """What the viewer announces by default: the best of their hand (empty: nothing)."""
    return best_announcements(view.viewer or 0, to_set(view.hand))


def declaration_code(anns: list[Announcement]) -> str:
    """The code of announcing exactly ``anns`` (``none`` for nothing)."""
    return choice_code(tuple(a.cards for a in anns))


def choice_code(declare: tuple[Declaration, ...] | None) -> str:
    """The code of a seat's choice (None: the best)."""
    if declare is None:
        return BEST
    return "-".join(".".join(card_str(c) for c in g) for g in declare) or NOTHING


def declare_from_code(code: str) -> tuple[Declaration, ...] | None:
    """The ``declare`` of a Play for a code (None: the best). ValueError if it names no cards."""
    if code == BEST:
        return None
    if code == NOTHING:
        return ()
    return tuple(tuple(parse_card(c) for c in group.split(".")) for group in code.split("-"))


@dataclass(frozen=True, slots=True)
class AnnounceChoice:
    code: str  # ``best``, ``none`` or the cards
    announcements: tuple[Announcement, ...]  # what it announces (the best's, for ``best``)


def announce_choices(view: TableView) -> list[AnnounceChoice]:
    """Every declaration the viewer may make with their first card: the best (the default)
    first, then the others by points, then nothing; empty when there is nothing to announce.
    docs/rules.md: some carrés, then some of the whole runs of the cards left over."""
    if not may_announce(view):
        return []
    seat = view.viewer
    assert seat is not None
    hand = to_set(view.hand)
    best = best_announcements(seat, hand)
    if not best:
        return []
    seen: dict[str, list[Announcement]] = {}
    for full in possible_choices(seat, hand):
        carres = [a for a in full if a.is_carre]
        runs = [a for a in full if not a.is_carre]
        for k in range(len(runs) + 1):
            for some in combinations(runs, k):
                anns = carres + list(some)
                seen.setdefault(declaration_code(anns), anns)
    best_code = declaration_code(best)
    others = sorted((c for c in seen if c not in (best_code, NOTHING)),
                    key=lambda c: -sum(a.points for a in seen[c]))
    return ([AnnounceChoice(BEST, tuple(best))] +
            [AnnounceChoice(c, tuple(seen[c])) for c in others] +
            [AnnounceChoice(NOTHING, ())])


def actions_taken(deal: Deal | None, seat: int) -> int:
    """How many actions ``seat`` has taken in this deal: its calls, then its cards."""
    if deal is None:
        return 0
    calls = sum(1 for s, _ in deal.bidding.history if s == seat)
    return calls + (8 - deal.hands[seat].bit_count() if deal.contract is not None else 0)


def ahead_action(code: str) -> Action:
    """The action an ahead code names (``pass`` or a card); ValueError if none."""
    return Pass() if code == PASS_AHEAD else Play(parse_card(code))


def ahead_code(action: Action) -> str | None:
    """The ahead code of an action that may be chosen ahead (a pass, a card), else None."""
    if isinstance(action, Pass):
        return PASS_AHEAD
    if isinstance(action, Play):
        return card_str(action.card)
    return None


def may_choose_ahead(deal: Deal | None, seat: int, action: Action) -> bool:
    """Whether ``seat`` may choose ``action`` now for its next turn: a pass while the auction
    goes on, a card of its hand in the play."""
    if deal is None or deal.is_over:
        return False
    if isinstance(action, Pass):
        return deal.phase is Phase.BIDDING
    if isinstance(action, Play):
        return deal.phase is Phase.PLAY and bool(deal.hands[seat] >> action.card & 1)
    return False


def ahead_status(deal: Deal | None, seat: int, code: str | None, at: int) -> str | None:
    """What the seat's choice made ahead (``code``, chosen when the seat had taken ``at``
    actions in this deal) is now: WAITING, DUE, DROPPED, or None when there is none (never
    made, cancelled, or its turn came and went: the seat has acted since)."""
    if code is None or deal is None or deal.is_over or at != actions_taken(deal, seat):
        return None
    try:
        action = ahead_action(code)
    except ValueError:
        return DROPPED
    if not may_choose_ahead(deal, seat, action):
        return DROPPED
    if deal.to_act != seat:
        return WAITING
    if isinstance(action, Play):
        return DUE if deal.legal_cards() >> action.card & 1 else DROPPED
    return DUE if action in deal.legal_actions() else DROPPED
