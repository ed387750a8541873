"""What a seat (or an onlooker) may see of a match: never another player's hand.

Rendering, the bot and the computer players read these views, not the match itself, so hidden
information cannot leak through them by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .actions import Action, BidAction
from .cards import Card, Rank, cards_of, sort_key
from .cards import shown_order as cards_shown_order
from .contract import Contract
from .deal import BeloteCall, Deal, Phase, Trick
from .match import Match
from .rules import Options, Variant
from .scoring import DealResult


class Stage(StrEnum):
    WAITING = "waiting"  # no deal dealt yet, or between deals
    BIDDING = "bidding"
    PLAY = "play"
    OVER = "over"  # the match is over


@dataclass(frozen=True, slots=True)
class ShownAnnouncement:
    seat: int
    name: str  # in English: "tierce", "carré of jacks"...
    carre_rank: Rank | None  # what it is, for labels in other languages
    length: int  # of a sequence; 4 for a carré
    points: int
    cards: tuple[Card, ...]  # empty until the cards are shown (after the first trick, if scored)
    scored: bool | None  # None until the first trick is over


@dataclass(frozen=True, slots=True)
class TableView:
    variant: Variant
    options: Options
    players: tuple[str, str, str, str]
    viewer: int | None  # the seat this view is for; None: the public view
    deal_number: int  # 1-based; 0 before the first deal
    dealer: int | None
    stage: Stage
    to_act: int | None
    hand: tuple[Card, ...]  # the viewer's cards, sorted for the contract; () in public views
    legal_actions: tuple[Action, ...]  # the viewer's, on the viewer's turn
    legal_cards: tuple[Card, ...]
    hand_counts: tuple[int, int, int, int]
    turned_card: Card | None  # classic, during the bidding
    bids: tuple[tuple[int, BidAction], ...]
    high_bid: Contract | None  # the best bid so far, during the bidding
    contract: Contract | None
    trick: Trick | None  # the trick in progress
    last_trick: Trick | None  # the last completed trick of the current deal
    tricks_won: tuple[int, int]
    announcements: tuple[ShownAnnouncement, ...]
    belote_calls: tuple[BeloteCall, ...]
    totals: tuple[int, int]
    hanging: int
    target: int
    last_result: DealResult | None  # the result of the last finished deal
    winner: int | None
    # Public facts of the current deal the computer players read: every completed trick, and in
    # classic the turned card once the bidding is over (everyone saw it go to the taker).
    tricks: tuple[Trick, ...] = ()
    taken_card: Card | None = None

    @property
    def is_my_turn(self) -> bool:
        return self.viewer is not None and self.viewer == self.to_act


def shown_order(view: TableView) -> tuple[Card, ...]:
    """The viewer's cards in the order every picture of a hand shows them (game/cards.py):
    their buttons, their text, the images."""
    trump = view.contract.trump if view.contract is not None else None
    return cards_shown_order(view.hand, int(trump) if trump is not None and trump.is_suit
                             else None, view.contract.trump_cards if view.contract else 0)


def _shown(deal: Deal) -> tuple[ShownAnnouncement, ...]:
    decided = len(deal.tricks) >= 1
    out = []
    for i, a in enumerate(deal.announcements):
        scored = deal.scored[i] if decided and i < len(deal.scored) else None
        out.append(ShownAnnouncement(
            a.seat, a.name(), a.carre_rank, a.length, a.points, a.cards if scored else (), scored))
    return tuple(out)


def table_view(match: Match, viewer: int | None = None) -> TableView:
    # Seat 0 sits at the bottom of the table image and play goes counter-clockwise.
    players = match.players or ("South", "East", "North", "West")
    deal = match.deal
    if match.winner is not None:
        stage = Stage.OVER
    elif deal is None or deal.is_over:
        stage = Stage.WAITING
    else:
        stage = Stage.BIDDING if deal.phase is Phase.BIDDING else Stage.PLAY
    hand: tuple[Card, ...] = ()
    legal_actions: tuple[Action, ...] = ()
    legal_cards: tuple[Card, ...] = ()
    if deal is not None and viewer is not None:
        trumps = deal.trump_cards
        hand = tuple(sorted(cards_of(deal.hands[viewer]), key=lambda c: sort_key(c, trumps)))
        if deal.to_act == viewer and not deal.is_over and match.winner is None:
            legal_actions = tuple(deal.legal_actions())
            playable = deal.legal_cards()
            legal_cards = tuple(c for c in hand if playable >> c & 1)
    in_play = deal is not None and deal.phase is Phase.PLAY
    bidding = deal is not None and deal.phase is Phase.BIDDING
    high_bid = getattr(deal.bidding, "bid", None) if deal is not None and bidding else None
    return TableView(
        variant=match.variant,
        options=match.options,
        players=(players[0], players[1], players[2], players[3]),
        viewer=viewer,
        deal_number=len(match.deals),
        dealer=deal.dealer if deal is not None else None,
        stage=stage,
        to_act=match.to_act if stage in (Stage.BIDDING, Stage.PLAY) else None,
        hand=hand,
        legal_actions=legal_actions,
        legal_cards=legal_cards,
        hand_counts=(tuple(h.bit_count() for h in deal.hands)  # type: ignore[arg-type]
                     if deal is not None else (0, 0, 0, 0)),
        turned_card=deal.turned_card if bidding and deal is not None else None,
        bids=tuple(deal.bids()) if deal is not None else (),
        high_bid=high_bid,
        contract=deal.contract if deal is not None else None,
        trick=deal.current_trick() if deal is not None and in_play else None,
        last_trick=deal.tricks[-1] if deal is not None and deal.tricks else None,
        tricks_won=(deal.tricks_won[0], deal.tricks_won[1]) if deal is not None else (0, 0),
        announcements=_shown(deal) if deal is not None else (),
        belote_calls=tuple(deal.belote_calls) if deal is not None else (),
        totals=(match.totals[0], match.totals[1]),
        hanging=match.hanging,
        target=match.options.target,
        last_result=match.results[-1] if match.results else None,
        winner=match.winner,
        tricks=tuple(deal.tricks) if deal is not None else (),
        taken_card=deal.turned_card if deal is not None and deal.contract is not None else None,
    )
