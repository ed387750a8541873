"""Arena: whole matches between two computer levels, seats rotated, the same deals for both.

Matches come in pairs with the same seed: level A sits at seats 0 and 2 in the first and at 1
and 3 in the second, and the i-th deal of both matches is dealt from the same deck. Each match
is one line of JSON appended to --out, so a long run can be done in parts (--start) and merged
with --report. Prints the win rate of A with a 95% Wilson interval, and how often each level
made the contracts it took.

    python bench/arena.py --variant classic --a hard --b easy --matches 400 --jobs 2 \
        --out bench/results/arena_classic_hard_easy.jsonl
    python bench/arena.py --report bench/results/arena_classic_hard_easy.jsonl
    python bench/arena.py --variant coinche --a hard --b hard_v1 --deals 200 --out d.jsonl
    python bench/arena.py --paired new.jsonl old.jsonl   # two builds of A, deck by deck
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: bench.hard_v1

from bench.hard_v1 import level_player
from game.actions import Action
from game.contract import Contract
from game.match import Match
from game.players import Player, RandomPlayer, play_deal
from game.rules import Trump, Variant
from game.scoring import Outcome
from game.view import Stage, TableView, table_view

LEVEL_CHOICES = ["easy", "easy_bids", "hard", "hard_easy_bids", "hard_v1", "random"]


class EasyPlayBidSearch:
    """The easy level's play with the hard level's bidding: tunes the bidding quickly."""

    def __init__(self, seed: int) -> None:
        from game.ai.easy import EasyPlayer
        from game.ai.hard import HardPlayer

        self.easy, self.hard = EasyPlayer(seed), HardPlayer(seed)

    def choose(self, view: TableView) -> Action:
        return (self.hard if view.stage is Stage.BIDDING else self.easy).choose(view)


class HardPlayEasyBids:
    """The hard level's play with the easy level's bidding: what the bid search adds to hard."""

    def __init__(self, seed: int) -> None:
        from game.ai.easy import EasyPlayer
        from game.ai.hard import HardPlayer

        self.easy, self.hard = EasyPlayer(seed), HardPlayer(seed)

    def choose(self, view: TableView) -> Action:
        return (self.easy if view.stage is Stage.BIDDING else self.hard).choose(view)


def player(level: str, seed: int) -> Player:
    if level == "random":
        return RandomPlayer(seed)
    if level == "easy_bids":
        return EasyPlayBidSearch(seed)
    if level == "hard_easy_bids":
        return HardPlayEasyBids(seed)
    return level_player(level, seed)


def contract_level(contract: Contract) -> str:
    """The row of the contracts table: the coinche value, the bulgarian contract, the suit."""
    if contract.value is not None:
        return "capot" if contract.value >= 250 else str(contract.value)
    if contract.trump is Trump.NO_TRUMPS:
        return "no trumps"
    if contract.trump is Trump.ALL_TRUMPS:
        return "all trumps"
    return "suit"


def play_single(job: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """One deal (dealer and deck from ``seed``) with level A on team ``a_team``."""
    variant, a, b, seed, a_team = job
    levels = [a if seat & 1 == a_team else b for seat in range(4)]
    players = [player(levels[s], seed * 4 + s) for s in range(4)]
    match = Match(variant, {"target": 10**5}, first_dealer=seed & 3)
    deal = match.start_deal(match.new_deck(seed))
    times: dict[str, dict[str, list[float]]] = {lv: {"bid": [], "play": []} for lv in (a, b)}
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        view = table_view(match, seat)
        t = time.perf_counter()
        action = players[seat].choose(view)
        ms = (time.perf_counter() - t) * 1000
        kind = "bid" if view.stage is Stage.BIDDING else "play"
        if kind == "bid" or len(view.legal_cards) > 1:
            times[levels[seat]][kind].append(round(ms, 2))
        match.apply(action, seat)
    result = match.results[-1]
    c = result.contract
    return {"variant": variant, "a": a, "b": b, "seed": seed, "a_team": a_team,
            "a_minus_b": result.score[a_team] - result.score[1 - a_team],
            "taker": levels[c.seat] if c is not None else None,
            "contract": contract_level(c) if c is not None else None,
            "doubled": c.multiplier if c is not None else None,
            "made": result.outcome is Outcome.MADE if c is not None else None,
            "times": times}


def mean_ci(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0, -math.inf, math.inf)
    m = statistics.fmean(xs)
    half = z * statistics.stdev(xs) / math.sqrt(n)
    return (m, m - half, m + half)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def report_deals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A's points per deal over B, paired by seed (both seatings of one deck)."""
    by_seed: dict[int, list[int]] = {}
    for r in rows:
        by_seed.setdefault(r["seed"], []).append(r["a_minus_b"])
    # A deal counts once per seating; a pair's mean is one observation.
    pairs = [sum(v) / 2 for v in by_seed.values() if len(v) == 2]
    m, lo, hi = mean_ci(pairs)
    a, b = rows[0]["a"], rows[0]["b"]
    contracts: dict[str, dict[str, list[int]]] = {}
    times: dict[str, dict[str, list[float]]] = {}
    for r in rows:
        if r["taker"] is not None:
            acc = contracts.setdefault(r["taker"], {}).setdefault(r["contract"], [0, 0, 0])
            acc[0] += 1
            acc[1] += bool(r["made"])
            acc[2] += r["doubled"] > 1
        for lv, kinds in r["times"].items():
            for kind, xs in kinds.items():
                times.setdefault(lv, {}).setdefault(kind, []).extend(xs)
    return {
        "variant": rows[0]["variant"], "a": a, "b": b, "deals": len(rows), "pairs": len(pairs),
        "a_points_per_deal_over_b": round(m, 1), "ci95": [round(lo, 1), round(hi, 1)],
        "passed_out": sum(1 for r in rows if r["taker"] is None),
        "contracts": {lv: {k: {"taken": t, "made": md, "doubled": dbl}
                           for k, (t, md, dbl) in sorted(per.items())}
                      for lv, per in contracts.items()},
        "taken_made": {lv: [sum(v[0] for v in per.values()), sum(v[1] for v in per.values())]
                       for lv, per in contracts.items()},
        "decision_ms_p50_p95": {lv: {k: [round(percentile(xs, 0.5), 1),
                                         round(percentile(xs, 0.95), 1)]
                                     for k, xs in kinds.items()}
                                for lv, kinds in times.items()},
    }


def report_paired(new: list[dict[str, Any]], old: list[dict[str, Any]]) -> dict[str, Any]:
    """Two builds of level A against the same B on the same decks (two deal files, e.g. a
    change and the code before it): A's points per deal, new minus old, paired by deck. Most
    decks play the same in both, so this is far tighter than comparing each run's interval."""
    def per_seed(rows: list[dict[str, Any]]) -> dict[int, float]:
        seats: dict[int, list[int]] = {}
        for r in rows:
            seats.setdefault(r["seed"], []).append(r["a_minus_b"])
        return {seed: sum(v) / 2 for seed, v in seats.items() if len(v) == 2}

    a, b = per_seed(new), per_seed(old)
    seeds = sorted(a.keys() & b.keys())
    if not seeds:
        return {"pairs": 0}
    m, lo, hi = mean_ci([a[s] - b[s] for s in seeds])
    both = set(seeds)
    return {"pairs": len(seeds), "played_differently": sum(1 for s in seeds if a[s] != b[s]),
            "new_minus_old_per_deal": round(m, 2), "ci95": [round(lo, 2), round(hi, 2)],
            "new": report_deals([r for r in new if r["seed"] in both]),
            "old": report_deals([r for r in old if r["seed"] in both])}


def read_rows(files: Iterable[str]) -> list[dict[str, Any]]:
    """The result lines of ``files`` (one JSON object a line), in order."""
    return [json.loads(line) for f in files for line in Path(f).read_text().splitlines()
            if line.strip()]


def play_match(job: tuple[str, str, str, int, int, int | None]) -> dict[str, Any]:
    """One match; ``a_team`` is the team (0: seats 0 and 2) that level A plays."""
    variant, a, b, seed, a_team, target = job
    levels = [a if seat & 1 == a_team else b for seat in range(4)]
    players = [player(levels[s], seed * 4 + s) for s in range(4)]
    match = Match(variant, {"target": target} if target else None)
    made: dict[str, list[int]] = {a: [0, 0], b: [0, 0]}  # level -> [made, taken]
    started = time.perf_counter()
    while not match.is_over and len(match.deals) < 200:
        result = play_deal(match, players, seed)
        if result.contract is not None:
            tally = made[levels[result.contract.seat]]
            tally[1] += 1
            tally[0] += result.outcome is Outcome.MADE
    winner = match.winner
    return {"variant": variant, "a": a, "b": b, "seed": seed, "a_team": a_team,
            "a_won": winner == a_team if winner is not None else None,
            "deals": len(match.deals), "totals": list(match.totals), "made": made,
            "seconds": round(time.perf_counter() - started, 2)}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def report(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    rows = list(rows)
    if rows and "a_minus_b" in rows[0]:
        return report_deals(rows)
    rows = [r for r in rows if r["a_won"] is not None]
    if not rows:
        return {"matches": 0}
    a, b = rows[0]["a"], rows[0]["b"]
    wins = sum(1 for r in rows if r["a_won"])
    lo, hi = wilson(wins, len(rows))
    made: dict[str, list[int]] = {}
    for r in rows:
        for level, (m, t) in r["made"].items():
            acc = made.setdefault(level, [0, 0])
            acc[0] += m
            acc[1] += t
    return {
        "variant": rows[0]["variant"], "a": a, "b": b, "matches": len(rows),
        "a_win_rate": round(wins / len(rows), 3),
        "ci95": [round(lo, 3), round(hi, 3)],
        "ci95_half_width_points": round((hi - lo) * 50, 1),
        "deals_per_match": round(sum(r["deals"] for r in rows) / len(rows), 1),
        "contracts_made": {lv: {"made": m, "taken": t, "rate": round(m / t, 3) if t else None}
                           for lv, (m, t) in made.items()},
        "seconds_per_match": round(sum(r["seconds"] for r in rows) / len(rows), 2),
    }



def run_jobs(work: Callable[[Any], dict[str, Any]], jobs: list[Any], processes: int,
             out_path: str | None) -> list[dict[str, Any]]:
    """Play ``jobs`` on ``processes`` processes, each row appended to ``out_path`` as it comes
    (a long run stopped half way keeps what it played), with a count on stderr."""
    rows: list[dict[str, Any]] = []
    out = open(out_path, "a", encoding="utf-8") if out_path else None  # noqa: SIM115
    try:
        with Pool(processes) as pool:
            for row in pool.imap_unordered(work, jobs):
                rows.append(row)
                if out:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                print(f"\r{len(rows)}/{len(jobs)}", end="", file=sys.stderr, flush=True)
    finally:
        if out:
            out.close()
    print(file=sys.stderr)
    return rows

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--variant", choices=[v.value for v in Variant])
    ap.add_argument("--a", default="hard", choices=LEVEL_CHOICES)
    ap.add_argument("--b", default="easy", choices=LEVEL_CHOICES)
    ap.add_argument("--matches", type=int, default=40, help="matches (pairs of two)")
    ap.add_argument("--deals", type=int, default=0,
                    help="play this many single deals (pairs of two) instead of matches")
    ap.add_argument("--start", type=int, default=0, help="first seed (to run in parts)")
    ap.add_argument("--target", type=int, default=None, help="match target (variant default)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="append one JSON line per match to this file")
    ap.add_argument("--report", nargs="*", metavar="FILE", help="summarise result files")
    ap.add_argument("--paired", nargs=2, metavar=("NEW", "OLD"),
                    help="two deal files of two builds of A against the same B on the same "
                         "seeds: the difference, deck by deck")
    args = ap.parse_args(argv)
    if args.paired is not None:
        new, old = args.paired
        print(json.dumps(report_paired(read_rows([new]), read_rows([old])), indent=1))
        return 0
    if args.report is not None:
        print(json.dumps(report(read_rows(args.report)), indent=1))
        return 0
    if not args.variant:
        ap.error("--variant is required to play")
    n = args.deals or args.matches
    jobs: list[Any] = [
        (args.variant, args.a, args.b, seed, a_team) if args.deals else
        (args.variant, args.a, args.b, seed, a_team, args.target)
        for seed in range(args.start, args.start + (n + 1) // 2) for a_team in (0, 1)][:n]
    work = play_single if args.deals else play_match
    print(json.dumps(report(run_jobs(work, jobs, args.jobs, args.out)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
