"""Decision time of the computer players: p50, p95 and max per level and variant.

Four players of one level play whole deals; every call to ``choose`` is timed (the table view is
built outside the timing). "play" counts only the card choices with more than one legal card,
the ones the hard level searches; "bids" the calls of the bidding (searched too by hard). Run it
on an otherwise idle machine: one process, one core.

    python bench/bench_ai.py --deals 20
    python bench/bench_ai.py --deals 20 --level hard --variant bulgarian
    python bench/bench_ai.py --deals 20 --clock cpu   # on a busy machine: CPU time
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: bench.hard_v1

from bench.hard_v1 import level_player
from game.match import Match
from game.rules import Variant
from game.view import Stage, table_view


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(q * len(values)))]


def bench(variant: Variant, level: str, deals: int, seed: int,
          clock: str = "wall") -> dict[str, object]:
    now = time.process_time if clock == "cpu" else time.perf_counter
    players = [level_player(level, seed * 4 + s) for s in range(4)]
    match = Match(variant, {"target": 10**5})
    all_ms: list[float] = []
    play_ms: list[float] = []
    bid_ms: list[float] = []
    for d in range(deals):
        match.start_deal(match.new_deck(seed + d))
        deal = match.deal
        assert deal is not None
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = table_view(match, seat)
            t = now()
            action = players[seat].choose(view)
            ms = (now() - t) * 1000
            all_ms.append(ms)
            if view.stage is Stage.PLAY and len(view.legal_cards) > 1:
                play_ms.append(ms)
            elif view.stage is Stage.BIDDING:
                bid_ms.append(ms)
            match.apply(action, seat)

    def summary(xs: list[float]) -> dict[str, float]:
        return {"n": len(xs), "p50_ms": round(percentile(xs, 0.5), 2),
                "p95_ms": round(percentile(xs, 0.95), 2), "max_ms": round(max(xs), 2),
                "mean_ms": round(statistics.fmean(xs), 2)}

    return {"variant": variant.value, "level": level, "deals": deals, "clock": clock,
            "all_decisions": summary(all_ms), "searched_plays": summary(play_ms),
            "bids": summary(bid_ms)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", choices=["easy", "hard", "hard_v1"], action="append")
    ap.add_argument("--variant", choices=[v.value for v in Variant], action="append")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="cpu: the process's CPU time, for a machine shared with other work")
    args = ap.parse_args()
    for v in args.variant or [v.value for v in Variant]:
        for level in args.level or ["easy", "hard"]:
            print(json.dumps(bench(Variant(v), level, args.deals, args.seed, args.clock)))


if __name__ == "__main__":
    main()
