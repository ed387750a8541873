"""Paired A/B of the hard level's bidding: one setting against another, the play by ``easy``.

Both teams bid by search (game/ai/bidsearch.py) and play by the easy rules of thumb; team A bids
with one value of a bid-search setting, team B with another. Each deck is played twice with the
teams' seats swapped; prints A's points per deal over B with a 95% interval, and the contracts
each side took and made. Deals where both settings bid alike score 0, so small changes show.

    python bench/bid_ab.py --variant classic --margin 20 10 --deals 150 --start 1000
    python bench/bid_ab.py --variant bulgarian --announcements --deals 150 --start 1000
    python bench/bid_ab.py --variant bulgarian --b-easy --deals 150   # B: the easy rule
    python bench/bid_ab.py --variant bulgarian --trust 5 -1 --deals 150   # the prior, and none
    python bench/bid_ab.py --variant coinche --playouts 480 160 --deals 150   # more playouts
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root

from game.ai import bidsearch
from game.ai.easy import EasyPlayer
from game.ai.hard import HardPlayer
from game.cards import CardSet
from game.match import Match
from game.rules import Trump, Variant
from game.scoring import Outcome
from game.view import Stage, TableView, table_view


def _no_announcements(view: TableView, hands: list[CardSet], trump: Trump) -> tuple[int, int]:
    return (0, 0)


def run(variant: Variant, setting: Callable[[bool], None], start: int,
        deals: int, b_easy: bool = False,
        budgets: tuple[bidsearch.BidBudget, bidsearch.BidBudget] | None = None
        ) -> dict[str, object]:
    """``setting(True)`` sets team A's bidding, ``setting(False)`` team B's; with ``b_easy``
    team B bids by the hand evaluator's rule (the easy level's bidding) instead; ``budgets``:
    team A's bid budget and team B's (else both the default)."""
    diffs: list[float] = []
    taken = {"a": [0, 0], "b": [0, 0]}
    for seed in range(start, start + deals):
        pair = []
        for a_team in (0, 1):
            easy = [EasyPlayer(seed * 4 + s) for s in range(4)]
            hard = [HardPlayer(seed * 4 + s, bid_budget=None if budgets is None else
                               budgets[0 if s & 1 == a_team else 1]) for s in range(4)]
            match = Match(variant, {"target": 10**5}, first_dealer=seed & 3)
            deal = match.start_deal(match.new_deck(seed))
            while not deal.is_over:
                seat = deal.to_act
                assert seat is not None
                view = table_view(match, seat)
                if view.stage is Stage.BIDDING and b_easy and seat & 1 != a_team:
                    action = easy[seat].choose(view)
                elif view.stage is Stage.BIDDING:
                    setting(seat & 1 == a_team)
                    action = hard[seat].choose(view)
                else:
                    action = easy[seat].choose(view)
                match.apply(action, seat)
            r = match.results[-1]
            pair.append(r.score[a_team] - r.score[1 - a_team])
            if r.contract is not None:
                side = taken["a" if r.contract.seat & 1 == a_team else "b"]
                side[0] += 1
                side[1] += r.outcome is Outcome.MADE
        diffs.append(sum(pair) / 2)
    m = statistics.fmean(diffs)
    h = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return {"variant": variant.value, "deals": deals, "a_over_b": round(m, 2),
            "ci95": [round(m - h, 2), round(m + h, 2)], "taken_made": taken,
            "differing": sum(1 for d in diffs if d != 0)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--variant", choices=[v.value for v in Variant], required=True)
    ap.add_argument("--margin", type=float, nargs=2, metavar=("A", "B"),
                    help="BID_MARGIN of the variant for team A and team B")
    ap.add_argument("--trust", type=float, nargs=2, metavar=("A", "B"),
                    help="PRIOR_TRUST of the variant for team A and team B: the bid margin "
                         "negated is no prior (-1 in bulgarian); a variant without one gets it")
    ap.add_argument("--announcements", action="store_true",
                    help="A counts the announcements of the sampled deals, B does not")
    ap.add_argument("--b-easy", action="store_true",
                    help="B bids by the hand evaluator's rule, as the easy level does")
    ap.add_argument("--playouts", type=int, nargs=2, metavar=("A", "B"),
                    help="playouts a bid decision for team A and team B (at most a quarter "
                         "of them, and at least 40, a contract)")
    ap.add_argument("--start", type=int, default=1000)
    ap.add_argument("--deals", type=int, default=150)
    args = ap.parse_args()
    variant = Variant(args.variant)
    real = bidsearch.announced_points

    def setting(team_a: bool) -> None:
        if args.margin:
            bidsearch.BID_MARGIN[variant] = args.margin[0 if team_a else 1]
        if args.trust:
            bidsearch.PRIOR_TRUST[variant] = args.trust[0 if team_a else 1]
        if args.announcements:
            bidsearch.announced_points = real if team_a else _no_announcements

    if not (args.margin or args.trust or args.announcements or args.b_easy or args.playouts):
        ap.error("give --margin A B, --trust A B, --announcements, --b-easy or --playouts A B")
    budgets = None
    if args.playouts:
        a, b = (bidsearch.BidBudget(playouts=n, max_samples=max(40, n // 4))
                for n in args.playouts)
        budgets = (a, b)
    print(json.dumps(run(variant, setting, args.start, args.deals, args.b_easy, budgets)))


if __name__ == "__main__":
    main()
