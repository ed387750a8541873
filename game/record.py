"""The game record of docs/game-record.md ("belote-record/1"): read, write, replay.

A match is a pure function of its record: replaying the record's decks and actions through the
rules gives the state back exactly. The bot stores records; tests and bug reports carry them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import (
    CAPOT,
    PLAYS,
    Action,
    CoincheBid,
    ContractBid,
    Contre,
    Double,
    Pass,
    Play,
    Redouble,
    Surcontre,
    Take,
)
from .cards import Card, card_str, parse_card, parse_suit
from .deal import Deal
from .errors import BeloteError, IllegalAction, InvalidOptions
from .match import Match
from .rules import TRUMP_CODES, Options, Variant, parse_trump

FORMAT = "belote-record/1"


class ReplayError(BeloteError):
    """Why a record cannot be replayed, where, and the exit status of ``belote replay``:
    1 for an action that cannot be applied, 2 for a file that is not a valid record.
    ``rule`` is the rules' refusal when that is why (``reason`` then only names its code: the
    command line words it from the catalogue)."""

    def __init__(self, reason: str, *, deal: int | None = None, action: int | None = None,
                 status: int = 1, rule: IllegalAction | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.deal = deal
        self.action = action
        self.status = status

    def to_json(self) -> dict[str, Any]:
        return {"error": {"deal": self.deal, "action": self.action, "reason": self.reason}}


# ---- actions <-> JSON ------------------------------------------------------------------------
_BID_NAMES = {
    Variant.CLASSIC: ("pass", "take", "play"),
    Variant.COINCHE: ("pass", "bid", "contre", "surcontre", "play"),
    Variant.BULGARIAN: ("pass", "bid", "double", "redouble", "play"),
}


def _key(obj: Mapping[str, Any], key: str) -> Any:
    if key not in obj:
        raise ValueError(f"missing key {key!r}")
    return obj[key]


def action_from_json(variant: Variant, obj: Any) -> Action:
    """Parse one action (its ``seat`` key is read by the caller). Raises ValueError."""
    # A dict told at once: the Mapping test alone (the ABC's hook) costs more than the rest
    # of a card's parse, and a replay parses hundreds of actions.
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise ValueError("an action must be an object")
    name = _key(obj, "action")
    if name == "play":  # first: most of a record's actions are cards ("play" is every variant's)
        return _play_from_json(obj)
    if name not in _BID_NAMES[variant]:
        raise ValueError(f"unknown action {name!r} in {variant.value}")
    if name == "pass":
        return Pass()
    if name == "take":
        return Take(parse_suit(obj["suit"]) if obj.get("suit") is not None else None)
    if name == "bid":
        if variant is Variant.COINCHE:
            value = _key(obj, "value")
            if value == "capot":
                value = CAPOT
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"bad bid value {value!r}: 80 to 160 by 10, or \"capot\"")
            return CoincheBid(value, parse_suit(_key(obj, "suit")))
        return ContractBid(parse_trump(_key(obj, "contract")))
    if name == "contre":
        return Contre()
    if name == "surcontre":
        return Surcontre()
    if name == "double":
        return Double()
    if name == "redouble":
        return Redouble()
    raise AssertionError(name)  # every name of _BID_NAMES but "play" is handled above


def _play_from_json(obj: Mapping[str, Any]) -> Play:
    card = parse_card(_key(obj, "card"))
    belote = obj.get("belote", True)
    declare = obj.get("declare")
    if belote is True and declare is None:  # a plain card: the shared one (a replay's most)
        return PLAYS[card]
    if not isinstance(belote, bool):
        raise ValueError("belote must be true or false")
    groups: tuple[tuple[Card, ...], ...] | None = None
    if declare is not None:
        if not isinstance(declare, list) or not all(isinstance(g, list) for g in declare):
            raise ValueError("declare must be a list of lists of cards")
        groups = tuple(tuple(parse_card(c) for c in g) for g in declare)
    return Play(card, belote, groups)


def action_to_json(seat: int | None, action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {} if seat is None else {"seat": seat}
    if isinstance(action, Pass):
        out["action"] = "pass"
    elif isinstance(action, Take):
        out["action"] = "take"
        if action.suit is not None:
            out["suit"] = "CDHS"[action.suit]
    elif isinstance(action, CoincheBid):
        out.update(action="bid", value="capot" if action.value == CAPOT else action.value,
                   suit="CDHS"[action.suit])
    elif isinstance(action, ContractBid):
        out.update(action="bid", contract=TRUMP_CODES[action.contract])
    elif isinstance(action, Contre | Surcontre | Double | Redouble):
        out["action"] = type(action).__name__.lower()
    else:
        out.update(action="play", card=card_str(action.card))
        if not action.belote:
            out["belote"] = False
        if action.declare is not None:
            out["declare"] = [[card_str(c) for c in g] for g in action.declare]
    return out


# ---- the record -----------------------------------------------------------------------------
@dataclass(slots=True)
class DealRecord:
    dealer: int
    deck: list[Card]
    actions: list[Any] = field(default_factory=list)  # raw JSON objects, checked on replay


@dataclass(slots=True)
class GameRecord:
    variant: Variant
    options: Options
    players: list[str] | None
    deals: list[DealRecord]
    given_options: dict[str, Any] = field(default_factory=dict)


def action_code(action: Action) -> str:
    """An action in short notation, as a button's custom_id carries it: ``pass``, ``take``,
    ``take.S``, ``bid.90.H``, ``bid.capot.H``, ``bid.NT``, ``play.JH``... (the record's
    notation, its fields joined by dots)."""
    obj = action_to_json(None, action)
    parts = [obj.pop("action")]
    for key in ("value", "suit", "contract", "card"):
        if key in obj:
            parts.append(str(obj.pop(key)))
    return ".".join(parts)


def action_from_code(variant: Variant, code: str) -> Action:
    """The action a short notation names (``action_code``'s inverse); ValueError if it names
    none in this variant."""
    name, *rest = code.split(".")
    obj: dict[str, Any] = {"action": name}
    if name == "take" and rest:
        obj["suit"] = rest[0]
    elif name == "bid" and variant is Variant.COINCHE and len(rest) == 2:
        obj["value"] = rest[0] if rest[0] == "capot" else int(rest[0])
        obj["suit"] = rest[1]
    elif name == "bid" and len(rest) == 1:
        obj["contract"] = rest[0]
    elif name == "play" and len(rest) == 1:
        obj["card"] = rest[0]
    elif rest:
        raise ValueError(f"bad action code {code!r}")
    try:
        return action_from_json(variant, obj)
    except (KeyError, TypeError) as e:
        raise ValueError(f"bad action code {code!r}") from e


def parse_record(obj: Any) -> GameRecord:
    """Check the record's shape (not its actions). Raises ReplayError with status 2."""
    def bad(reason: str, deal: int | None = None) -> ReplayError:
        return ReplayError(reason, deal=deal, status=2)

    if not isinstance(obj, Mapping):
        raise bad("a record is a JSON object")
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        raise bad(f"unknown format {fmt!r}: this program reads {FORMAT!r}")
    try:
        variant = Variant(str(obj.get("variant")))
    except ValueError:
        raise bad(f"unknown variant {obj.get('variant')!r}: use classic, coinche or "
                  "bulgarian") from None
    given = obj.get("options")
    if given is None:
        given = {}  # options may be omitted; any other non-object is an error
    elif not isinstance(given, Mapping):
        raise bad("options must be an object")
    try:
        options = Options.for_variant(variant, given)
    except InvalidOptions as e:
        raise bad(str(e)) from None
    players = obj.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != 4
                                or not all(isinstance(p, str) for p in players)):
        raise bad("players must be a list of four names")
    deals_json = obj.get("deals", [])
    if not isinstance(deals_json, list):
        raise bad("deals must be a list")
    deals: list[DealRecord] = []
    for i, d in enumerate(deals_json):
        if not isinstance(d, Mapping):
            raise bad("a deal must be an object", i)
        dealer = d.get("dealer")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer <= 3:
            raise bad("a deal's dealer must be a seat 0 to 3", i)
        if i and dealer != (deals[0].dealer + i) & 3:
            raise bad(f"dealer out of order: deal {i} must be dealt by seat "
                      f"{(deals[0].dealer + i) & 3}", i)
        deck_json = d.get("deck")
        if not isinstance(deck_json, list):
            raise bad("a deal's deck must be a list of 32 cards", i)
        try:
            deck = [parse_card(c) for c in deck_json]
        except ValueError as e:
            raise bad(f"deck: {e}", i) from None
        if len(deck) != 32 or len(set(deck)) != 32:
            raise bad("a deck must be the 32 cards, each once", i)
        actions = d.get("actions", [])
        if not isinstance(actions, list):
            raise bad("a deal's actions must be a list", i)
        deals.append(DealRecord(dealer, deck, list(actions)))
    return GameRecord(variant, options, players, deals,
                      dict(given) if isinstance(given, Mapping) else {})


def replay(record: GameRecord | Any) -> Match:
    """Replay a record through the rules. Raises ReplayError (status 1 or 2)."""
    rec = record if isinstance(record, GameRecord) else parse_record(record)
    first_dealer = rec.deals[0].dealer if rec.deals else 0
    match = Match(rec.variant, rec.options, first_dealer=first_dealer, players=rec.players)
    for i, d in enumerate(rec.deals):
        if match.is_over:
            raise ReplayError("the match is over: no more deals", deal=i,
                              action=0 if d.actions else None)
        if not match.needs_deal:
            raise ReplayError(f"deal {i - 1} stops before its end", deal=i - 1, status=2)
        deal = match.start_deal(d.deck)
        for j, raw in enumerate(d.actions):
            apply_json(match, deal, raw, deal_index=i, action_index=j)
    return match


def apply_json(match: Match, deal: Deal, raw: Any, *, deal_index: int | None = None,
               action_index: int | None = None) -> None:
    """Apply one JSON action (with its seat) or raise ReplayError saying where and why."""
    def fail(reason: str, rule: IllegalAction | None = None) -> ReplayError:
        return ReplayError(reason, deal=deal_index, action=action_index, rule=rule)

    if deal.is_over:
        raise fail("the match is over" if match.is_over else "this deal is over")
    try:
        if type(raw) is not dict and not isinstance(raw, Mapping):  # a dict told at once
            raise ValueError("an action must be an object")
        seat = _key(raw, "seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise ValueError("seat must be 0 to 3")
        action = action_from_json(match.variant, raw)
    except ValueError as e:
        raise fail(str(e)) from None
    if seat != deal.to_act:
        raise fail(f"it is seat {deal.to_act}'s turn, not seat {seat}'s")
    try:
        match.apply(action)
    except IllegalAction as e:
        raise fail(str(e), e) from None


def to_record(match: Match) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": FORMAT,
        "variant": match.variant.value,
        "options": match.options.to_json(match.variant),
    }
    if match.players is not None:
        out["players"] = list(match.players)
    out["deals"] = [
        {"dealer": d.dealer, "deck": [card_str(c) for c in d.deck],
         "actions": [action_to_json(seat, a) for seat, a in d.actions]}
        for d in match.deals
    ]
    return out


# ---- what `belote replay` prints ------------------------------------------------------------
def deal_summary(match: Match, index: int) -> dict[str, Any]:
    deal = match.deals[index]
    result = match.results[index] if index < len(match.results) else None
    tricks: list[dict[str, Any]] = [
        {"leader": t.leader, "cards": [card_str(c) for c in t.cards], "winner": t.winner}
        for t in deal.tricks]
    current = deal.current_trick()
    if current is not None:
        tricks.append({"leader": current.leader,
                       "cards": [card_str(c) for c in current.cards], "winner": None})
    anns = []
    for k, a in enumerate(deal.announcements):
        scored = deal.scored[k] if k < len(deal.scored) else False
        anns.append({"seat": a.seat, "cards": a.cards_text(), "points": a.points,
                     "scored": scored})
    return {
        "contract": deal.contract.to_json() if deal.contract else None,
        "tricks": tricks,
        "card_points": list(deal.won_points),
        "last_trick": deal.last_trick_team,
        "announcements": anns,
        "belote": list(result.belote if result else deal.belote_points()),
        "result": result.outcome.value if result else None,
        "score": list(result.score) if result else None,
        "hanging": result.hanging if result else match.hanging,
        "totals": list(result.totals) if result else list(match.totals),
    }


def replay_summary(match: Match) -> dict[str, Any]:
    return {"deals": [deal_summary(match, i) for i in range(len(match.deals))],
            "winner": match.winner}


def legal_summary(match: Match) -> dict[str, Any]:
    seat = match.to_act
    if seat is None:
        return {"seat": None, "actions": []}
    if match.needs_deal:
        # The next deal's first bidder: its calls do not depend on cards not yet dealt,
        # except classic's turned suit; list round one's calls.
        actions = _opening_calls(match)
    else:
        actions = match.legal_actions()
    return {"seat": seat, "actions": [action_to_json(None, a) for a in actions]}


def _opening_calls(match: Match) -> list[Action]:
    probe = Deal(match.variant, match.options, match.next_dealer, list(range(32)))
    return probe.legal_actions()

