"""A match: deals one after another, held points carried between them, and the end of the match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import copy
from operator import is_
from typing import Any, Final

from .actions import Action
from .cards import Card, CardSet
from .deal import Applier, Deal, Phase
from .deck import cut_deck, shuffled_deck
from .errors import GameOver, IllegalAction, NotYourTurn
from .rules import Options, Shuffle, Variant
from .scoring import DealResult, Outcome, with_held

# Enum members as module constants: reading one off its class goes through the enum
# metaclass's __getattr__ hook (about a microsecond), and these are read on every deal.
_CUT: Final = Shuffle.CUT
_LITIGE: Final = Outcome.LITIGE
_HANGING: Final = Outcome.HANGING
_PASSED: Final = Outcome.PASSED
_BULGARIAN: Final = Variant.BULGARIAN
_DONE: Final = Phase.DONE
_VARIANTS: Final = {v.value: v for v in Variant}


def _game_over(action: Action, seat: int | None = None) -> bool:
    """The answer to any action once the match is over."""
    raise GameOver()


class Match:
    """The whole game. ``apply`` takes the action of the seat to act; a new deal is started
    with ``start_deal`` (its deck) once the previous one is over."""

    __slots__ = ("_fresh", "deals", "first_dealer", "hanging", "options", "players", "results",
                 "totals", "variant", "winner")

    def __init__(self, variant: Variant | str, options: Options | Mapping[str, Any] | None = None,
                 *, first_dealer: int = 0, players: Sequence[str] | None = None) -> None:
        # The member without the enum call (slow) for a Variant or its exact value.
        known = _VARIANTS.get(variant) if type(variant) is str or type(variant) is Variant \
            else None
        self.variant = known if known is not None else Variant(variant)
        self.options = options if isinstance(options, Options) else \
            Options.for_variant(self.variant, options)
        self.first_dealer = first_dealer & 3
        self.players: tuple[str, ...] | None = tuple(players) if players is not None else None
        self.deals: list[Deal] = []
        self.results: list[DealResult] = []
        self.totals = [0, 0]
        self.hanging = 0
        self.winner: int | None = None
        # The last deck new_deck made, and a copy: dealt unchanged, it needs no check.
        self._fresh: tuple[list[Card], tuple[Card, ...]] | None = None

    # ---- deals -------------------------------------------------------------------------
    @property
    def deal(self) -> Deal | None:
        """The current (last) deal, finished or not."""
        return self.deals[-1] if self.deals else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def needs_deal(self) -> bool:
        """True when the next step is dealing a new deck."""
        return self.winner is None and (not self.deals or self.deals[-1].is_over)

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) & 3

    def start_deal(self, deck: Sequence[Card]) -> Deal:
        if self.winner is not None:
            raise GameOver()
        deals = self.deals
        # needs_deal and next_dealer, spelt out: three property calls less on every deal.
        if deals and deals[-1].phase is not _DONE:
            raise IllegalAction("deal_not_over")
        fresh = self._fresh
        # new_deck's own deck, the very same objects (identity, not equality: 1.0 == 1), is a
        # valid deck: checking each card again would cost a fifth of a new deal.
        trusted = fresh is not None and deck is fresh[0] and len(deck) == 32 and \
            all(map(is_, deck, fresh[1]))
        deal = Deal(self.variant, self.options, (self.first_dealer + len(deals)) & 3,
                    fresh[1] if trusted and fresh is not None else deck, trusted=trusted)
        deal._attach(self._apply, self._close_deal)
        deals.append(deal)
        return deal

    def at_deal(self, index: int) -> Match:
        """A new match as this one stood when its deal ``index`` (from 0) was about to be
        dealt: the deals before it and their results, the totals and held points after them.
        Dealt that deal's deck and played its actions, it gives that deal's state and result
        as this match did, without replaying the deals before it (game/steps.py: a replay
        page shows one deal of a finished match). Its deals are copies, so that ending the
        new match (which detaches its deals) leaves this one's as they are. IndexError if
        this match has no deal ``index``."""
        if not 0 <= index < len(self.deals):
            raise IndexError(f"no deal {index}: the match has {len(self.deals)}")
        start = Match(self.variant, self.options, first_dealer=self.first_dealer,
                      players=self.players)
        start.deals = [copy(d) for d in self.deals[:index]]
        start.results = self.results[:index]
        if index:  # a deal was dealt only while the match was not over: no winner yet
            last = self.results[index - 1]
            start.totals = [last.totals[0], last.totals[1]]
            start.hanging = last.hanging
        return start

    def new_deck(self, seed: int) -> list[Card]:
        """The deck of the next deal under the table's shuffle option."""
        deals = self.deals
        index = len(deals)
        if self.options.shuffle is _CUT and deals:
            last = deals[-1]
            gathered = [c for t in last.tricks for c in t.cards] if last.tricks else list(last.deck)
            deck = cut_deck(gathered, seed, index)
        else:
            deck = shuffled_deck(seed, index)
        self._fresh = (deck, tuple(deck))
        return deck

    # ---- turns -------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat to act; for a new deal not yet dealt, its first bidder; None when over."""
        if self.winner is not None:
            return None
        if self.needs_deal:
            return (self.next_dealer + 1) & 3
        deal = self.deals[-1]
        return deal.to_act

    def legal_actions(self) -> list[Action]:
        if self.winner is not None or not self.deals:
            return []
        return self.deals[-1].legal_actions()

    def legal_cards(self) -> CardSet:
        deal = self.deal
        return deal.legal_cards() if deal is not None else 0

    @property
    def apply(self) -> Applier:
        """``apply(action, seat=None)``: apply ``action`` for the seat to act (checked against
        ``seat`` when given); raises NotYourTurn, GameOver or IllegalAction and changes nothing
        when it may not be taken.

        It is the current deal's own ``apply``, which takes a card played in turn directly and
        hands anything else to the match (``_apply``): a card costs one call, not two. Kept
        across deals it stays right: a deal that is over hands every action to the match."""
        deals = self.deals
        return deals[-1].apply if deals else self._apply

    def _apply(self, action: Action, seat: int | None = None) -> bool:
        deals = self.deals
        if deals:
            deal = deals[-1]
            to_act = deal.to_act
            if to_act is not None and (seat is None or seat == to_act):
                # The deal tells _close_deal when it ends.
                return deal._apply_other(action, None)
            if to_act is not None:
                raise NotYourTurn()
        if self.winner is not None:
            raise GameOver()
        raise IllegalAction("no_deal")

    def _close_deal(self, deal: Deal) -> None:
        ds = deal.score
        assert ds is not None
        held_created = 0
        score, collected = with_held(ds, self.hanging)
        if ds.outcome is _LITIGE or ds.outcome is _HANGING:
            held_created = ds.held
            self.hanging += ds.held
        elif collected[0] or collected[1]:
            self.hanging = 0
        self.totals[0] += score[0]
        self.totals[1] += score[1]
        if ds.outcome is not _PASSED:
            self._check_end(deal)
        # Positional: keywords would be packed into a dict and unpacked again, once a deal.
        self.results.append(DealResult(
            deal.contract,  # contract
            (deal.won_points[0], deal.won_points[1]),  # card_points
            deal.last_trick_team,  # last_trick
            tuple(deal.announcements),  # announcements
            tuple(deal.scored) if deal.scored else (False,) * len(deal.announcements),  # scored
            deal.belote_points(),  # belote
            deal.sweep,  # sweep
            ds.outcome,  # outcome
            ds.raw,  # raw
            (score[0], score[1]),  # score
            held_created,  # held_created
            (collected[0], collected[1]),  # collected
            self.hanging,  # hanging
            (self.totals[0], self.totals[1]),  # totals
        ))

    @property
    def played_deals(self) -> int:
        """Deals played out (a passed deal, redealt, does not count towards a deal cap)."""
        return sum(1 for r in self.results if r.outcome is not _PASSED)

    def _check_end(self, deal: Deal) -> None:
        a, b = self.totals
        cap = self.options.deal_cap
        # The deal being closed is not in ``results`` yet (and is not a passed deal).
        capped = cap is not None and self.played_deals + 1 >= cap
        if (max(a, b) < self.options.target and not capped) or a == b:
            return
        if self.variant is _BULGARIAN and deal.sweep is not None:
            return  # a game cannot be won on a valat deal
        self.winner = 0 if a > b else 1
        for d in self.deals:  # every action is now refused: no deal needs the match any more
            d._attach(_game_over, None)
