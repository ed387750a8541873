"""A stand-in for the analysis worker's job (game.analysis.review.record_deal_json) that answers
at once, for the end-to-end tests of what players see: the real solver takes seconds a deal,
and its values are checked in tests/game/analysis and tests/cli. It runs in the real worker
process, through the real pool and runner; only the values are made up, deterministically:
every card decision offers the card played and the lowest other legal card, the other one
best, the played card costing ``COSTS[action % len(COSTS)]`` in score and half in points.

``BELOTE_TEST_ANALYSIS_HANG=<deal>`` (read in the worker): that deal's job never answers, so
a test can stop the bot in the middle of a match's analysis.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from game.actions import Play
from game.analysis.review import par_call
from game.cards import card_str, cards_of
from game.deal import Deal
from game.record import action_to_json, replay

COSTS = (0, 0, 20, 0, 7, 0, 0, 45)


def deal_json(record: dict[str, Any], index: int) -> dict[str, Any]:
    if os.environ.get("BELOTE_TEST_ANALYSIS_HANG") == str(index):
        threading.Event().wait()  # never answers: the bot is stopped meanwhile
    match = replay(record)
    done = match.deals[index]
    fresh = Deal(match.variant, match.options, done.dealer, done.deck)
    decisions: list[dict[str, Any]] = []
    for i, (seat, action) in enumerate(done.actions):
        if isinstance(action, Play):
            legal = list(cards_of(fresh.legal_cards()))
            others = [c for c in legal if c != action.card]
            cost = COSTS[i % len(COSTS)] if others else 0
            options = [{"card": card_str(action.card), "points": 50 - cost // 2,
                        "score": 100 - cost, "cost": cost, "cost_points": cost // 2}]
            if others:
                options.append({"card": card_str(others[0]), "points": 50, "score": 100,
                                "cost": 0, "cost_points": 0})
            decisions.append({"action": i, "seat": seat, "played": card_str(action.card),
                              "options": options})
        else:
            call = par_call(match.variant, done.contract)
            cost = 30 if action != call and done.contract is not None and \
                (seat & 1) == done.contract.team else 0
            decisions.append({
                "action": i, "seat": seat, "played": action_to_json(None, action),
                "options": [{"bid": action_to_json(None, action), "score": 10, "cost": cost},
                            {"bid": action_to_json(None, call), "score": 10 + cost,
                             "cost": 0}]})
        fresh.apply(action)
    contract = done.contract
    return {"deal": index,
            "par": {"contract": None if contract is None else contract.to_json(),
                    "score": 40, "points": 100},
            "decisions": decisions}
