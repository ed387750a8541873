"""The words on the images, by language. English is complete; another language only needs the
keys it translates: anything missing falls back to English."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

EN: Final[Mapping[str, str]] = {
    # variants and the header
    "variant.classic": "Classic Belote",
    "variant.coinche": "Coinche",
    "variant.bulgarian": "Bulgarian Belot",
    "deal": "Deal {n}",
    "target": "to {n}",
    "held": "Held: {n}",
    "team": "{a} & {b}",
    # seats and turns
    "dealer": "D",
    "to_play": "to play",
    "to_bid": "to bid",
    "cards_left": "{n}",
    # bids and contracts
    "pass": "Pass",
    "take": "Take",
    "take_suit": "Take {suit}",
    "capot": "Capot",
    "contre": "Contre",
    "surcontre": "Surcontre",
    "double": "Double",
    "redouble": "Redouble",
    "trump.NT": "No trumps",
    "trump.AT": "All trumps",
    "contract": "Contract",
    "high_bid": "Highest bid",
    "turned": "Turned card",
    "last_trick": "Last trick",
    "tricks": "Tricks {a} – {b}",
    "bidding": "Bidding",
    "banner.first": "Waiting for the first deal",
    "banner.deal_over": "Deal {n}: {result}",
    "you": "you",
    # announcements
    "belote": "Belote",
    "rebelote": "Rebelote",
    "ann.tierce": "Tierce",
    "ann.quarte": "Quarte",
    "ann.quinte": "Quinte",
    "ann.run": "Run of {n}",
    "ann.carre": "Carré of {rank}",
    "ann.ranks.9": "nines",
    "ann.ranks.T": "tens",
    "ann.ranks.J": "jacks",
    "ann.ranks.Q": "queens",
    "ann.ranks.K": "kings",
    "ann.ranks.A": "aces",
    "ann.scored": "scored",
    "ann.not_scored": "not scored",
    # the hand
    "your_hand": "{name}'s hand",
    "your_turn": "Your turn: play a highlighted card",
    "your_bid": "Your turn to bid",
    "trump_is": "Trump: {trump}",
    # the deal sheet
    "sheet.title": "Deal {n}",
    "sheet.passed_title": "Deal {n}: everybody passed",
    "sheet.card_points": "Card points",
    "sheet.last_trick": "Last trick (+10)",
    "sheet.announcements": "Announcements",
    "sheet.belote": "Belote",
    "sheet.capot": "Capot",
    "sheet.valat": "Valat",
    "sheet.raw": "Points before rounding",
    "sheet.rounded": "Divided by 10, rounded",
    "sheet.held_created": "Held for the next deal",
    "sheet.collected": "Held points collected",
    "sheet.hanging": "Still held",
    "sheet.deal_score": "Deal score",
    "sheet.totals": "Totals",
    "result.made": "Made",
    "result.failed": "Failed",
    "result.litige": "Litige",
    "result.hanging": "Hanging",
    "result.passed": "Passed",
    "by": "by {name}",
    # the match result and the leaderboard
    "match.over": "Match over",
    "match.wins": "{team} win",
    "match.draw": "No winner",
    "match.deals": "Deals",
    "board.rank": "#",
    "board.name": "Player",
    "board.rating": "Rating",
    "board.games": "Games",
    "board.wins": "Wins",
    "board.empty": "No games played yet",
}

CATALOGUE: Final[Mapping[str, Mapping[str, str]]] = {"en": EN}


class Labels:
    """``labels("deal", n=3)`` -> "Deal 3" in the language asked for (English as fallback)."""

    __slots__ = ("_table", "language")

    def __init__(self, language: str = "en") -> None:
        self.language = language if language in CATALOGUE else "en"
        self._table = CATALOGUE[self.language]

    def __call__(self, key: str, **values: object) -> str:
        text = self._table.get(key)
        if text is None:
            text = EN[key]  # a missing key in English is a bug: let it raise
        return text.format(**values) if values else text
