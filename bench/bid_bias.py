"""How far the hard level's bid search misjudges a taker, measured against the arena.

The search values a contract by playing it out on sampled deals with the rule-of-thumb policy
for all four seats (game/ai/bidsearch.py). This compares that value with what such contracts
really score in the arena:

- the model: over seeded deals, the first seat to speak; where the easy level's rule bids
  (the rule the first hard level, ``hard_v1``, bids by), the search's value of that contract;
- the arena: in result files of ``bench/arena.py`` where ``hard_v1`` plays, the points per
  deal its team gained over the other when it took the contract.

The difference is the model's bias for a taker. Bulgarian, measured 2026-11: model -0.62 (242
contracts of 300 deals), arena +1.51 (319 contracts taken by hard_v1 against hard, 388 deals):
the playouts undervalue a taker by about 2 points a deal. Shifting the bid margin by that much
(BID_MARGIN -2 instead of 1) did not help: on the same 120 pairs of deals hard took 56
contracts instead of 38, but the extra ones lost (-0.07 +- 1.46 per deal against the margin
of 1). The bias is not uniform: the search ranks the contracts near the margin poorly.

Nor is it the same for every kind of contract (printed by kind). Bulgarian, 2026-11-28, 2,000
deals against the arena files of that day (hard against hard_v1, 1,300 pairs of seeds from
30,000): suits
model +0.40 (1,325), arena +0.74 (2,727), bias -0.34; no trumps -0.25 (69) against +4.31
(351), bias -4.56; all trumps -4.46 (216) against +0.30 (1,293), bias -4.76. The playouts judge
suit contracts about right and undervalue the taker of no trumps and all trumps by some 5
points a deal. Lowering those two margins by that much made hard worse in the arena (-1.18
[-2.19, -0.16] per deal over 353 pairs): the contracts the search picks as its best are the
ones its playouts overrate, so this bias, measured over a simple rule's openings, is no
correction for the search's own choices (README).

    python bench/bid_bias.py --variant bulgarian --deals 300 --arena bulgarian.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root

from game.actions import CoincheBid
from game.ai import bidsearch
from game.ai.auction import choose_bid
from game.ai.inference import bid_trump
from game.cards import Suit
from game.contract import Contract
from game.match import Match
from game.rules import Trump, Variant
from game.view import table_view


def kind_of(trump: Trump) -> str:
    """A contract's kind as the arena's result files name it."""
    return {Trump.NO_TRUMPS: "no trumps", Trump.ALL_TRUMPS: "all trumps"}.get(trump, "suit")


def model_values(variant: Variant, deals: int, start: int) -> list[tuple[str, float]]:
    """The search's value of each contract the easy rule opens with, first seat to speak,
    with the contract's kind."""
    values: list[tuple[str, float]] = []
    for seed in range(start, start + deals):
        match = Match(variant, first_dealer=0)
        match.start_deal(match.new_deck(seed))
        view = table_view(match, 1)
        action = choose_bid(view)
        turned = Suit(view.turned_card >> 3) if view.turned_card is not None else None
        trump = bid_trump(action, turned)  # the search's own reading of a call
        if trump is None:
            continue  # a pass
        value = action.value if isinstance(action, CoincheBid) else None
        search = bidsearch.BidSearch(view, random.Random(seed), bidsearch.BidBudget())
        outcomes = search.outcomes([(1, trump)])
        values.append((kind_of(trump),
                       search.value(Contract(1, trump, value), outcomes[(1, trump)])))
    return values


def arena_values(files: list[str]) -> list[tuple[str, float]]:
    """Per deal that ``hard_v1`` took in the arena: the contract's kind and its team's points
    over the other's."""
    out: list[tuple[str, float]] = []
    for name in files:
        for line in Path(name).read_text().splitlines():
            row = json.loads(line)
            if row.get("taker") != "hard_v1":
                continue
            sign = 1 if row["a"] == "hard_v1" else -1
            out.append((row["contract"], sign * row["a_minus_b"]))
    return out


def mean(values: list[tuple[str, float]], kind: str | None = None) -> tuple[int, float]:
    """How many values (of this kind, or all) and their mean (0 if none)."""
    picked = [v for k, v in values if kind is None or k == kind]
    return len(picked), statistics.mean(picked) if picked else 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", choices=[v.value for v in Variant], default="bulgarian")
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--start", type=int, default=50000)
    p.add_argument("--arena", nargs="*", default=[], help="arena result files with hard_v1")
    args = p.parse_args()
    model = model_values(Variant(args.variant), args.deals, args.start)
    n, m = mean(model)
    print(f"model: {n} contracts of {args.deals} deals, mean value {m:+.2f}")
    if not args.arena:
        return
    real = arena_values(args.arena)
    n, r = mean(real)
    print(f"arena: {n} contracts taken by hard_v1, mean {r:+.2f} per deal; the model's bias "
          f"for a taker {m - r:+.2f}, margin about {m - r:+.1f}")
    # The bias is not the same for every kind of contract: by kind, where both sides have some.
    for kind in sorted({k for k, _ in model} & {k for k, _ in real}):
        (nm, km), (nr, kr) = mean(model, kind), mean(real, kind)
        print(f"  {kind}: model {km:+.2f} ({nm}), arena {kr:+.2f} ({nr}), bias {km - kr:+.2f}")

if __name__ == "__main__":
    main()
