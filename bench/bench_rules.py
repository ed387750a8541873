"""Rules core speed: random complete deals per second per variant, and one legal-cards call.

    python bench/bench_rules.py              # plain Python (as in development and CI)
    python bench/bench_rules.py --compiled   # also the mypyc build (BELOTE_MYPYC=1 pip install .)
    python bench/bench_rules.py --baseline f32bc99   # beside an older build, in one run

Times are the process's CPU time (the same as wall time on an idle machine, and still fair on a
shared one). A deal is dealt from a seeded shuffle, bid with uniformly random legal calls, played
with uniformly random legal cards and scored, through the public Match API. Both builds must reach
the same totals from the same seed: the script checks it. With --baseline REV the game package
of an older commit is measured in the same run (alternating with the current one, best of
three each, so the load of the machine touches both alike), and must score the same too.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def random_deals(variant: str, deals: int, seed: int) -> tuple[float, list[int]]:
    """(seconds, summed totals) for ``deals`` random deals, new matches as matches end."""
    import random

    from game.actions import PLAYS
    from game.deal import Phase
    from game.match import Match

    rnd = random.Random(seed).random
    match = Match(variant)
    sums = [0, 0]
    started = time.process_time()
    for _ in range(deals):
        if match.is_over:
            sums[0] += match.totals[0]
            sums[1] += match.totals[1]
            match = Match(variant)
        deal = match.start_deal(match.new_deck(seed))
        apply = match.apply
        while deal.phase is Phase.BIDDING:
            calls = deal.legal_actions()
            apply(calls[int(rnd() * len(calls))])
        while deal.to_act is not None:
            legal = deal.legal_cards()
            k = int(rnd() * legal.bit_count())
            while k:  # drop the k lowest cards: a uniform pick without building a list
                legal &= legal - 1
                k -= 1
            apply(PLAYS[(legal & -legal).bit_length() - 1])
    elapsed = time.process_time() - started
    return elapsed, [sums[0] + match.totals[0], sums[1] + match.totals[1]]


def legal_call_time(samples: int, seed: int) -> float:
    """Median seconds of one ``Deal.legal_cards()`` over positions spread through the play."""
    import random

    from game.deal import Phase
    from game.match import Match

    rng = random.Random(seed)
    # Time the call at every card of fresh random deals.
    times = []
    match = Match("classic", {"target": 10**5})
    for _ in range(samples // 32 + 1):
        deal = match.start_deal(match.new_deck(seed))
        while deal.phase is Phase.BIDDING:
            match.apply(rng.choice(deal.legal_actions()))
        while deal.to_act is not None:
            call = deal.legal_cards
            n = 2000
            t = time.process_time()
            for _ in range(n):
                call()
            times.append((time.process_time() - t) / n)
            match.apply(rng.choice(deal.legal_actions()))
    return statistics.median(times)


def run(deals: int, seed: int) -> dict[str, object]:
    out: dict[str, object] = {}
    for variant in ("classic", "coinche", "bulgarian"):
        best = None
        totals: list[int] = []
        for _ in range(3):  # best of three: the machine's noise only ever slows a run down
            elapsed, totals = random_deals(variant, deals, seed)
            best = elapsed if best is None else min(best, elapsed)
        assert best is not None
        out[variant] = {"deals_per_second": round(deals / best), "totals": totals}
    out["legal_cards_us"] = round(legal_call_time(600, seed) * 1e6, 3)
    return out


def compiled_run(deals: int, seed: int) -> dict[str, object]:
    # The same module list as the opt-in compiled install (read, not imported: importing
    # setup.py would run setup()).
    tree = ast.parse((ROOT / "setup.py").read_text())
    compiled_modules = next(ast.literal_eval(node.value) for node in tree.body
                            if isinstance(node, ast.Assign)
                            and getattr(node.targets[0], "id", "") == "COMPILED")

    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "game", Path(tmp) / "game",
                        ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run([sys.executable, "-m", "mypyc", *compiled_modules], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        env = {**os.environ, "PYTHONPATH": tmp}
        res = subprocess.run([sys.executable, __file__, "--inner", "--deals", str(deals),
                              "--seed", str(seed)], cwd=tmp, env=env, check=True,
                             capture_output=True, text=True)
        result: dict[str, object] = json.loads(res.stdout)
        return result


def baseline_run(rev: str, deals: int, seed: int) -> dict[str, object]:
    """The plain-Python figures of ``rev``'s game package, in a separate process."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", rev, "game"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = {**os.environ, "PYTHONPATH": tmp}
        res = subprocess.run([sys.executable, __file__, "--inner", "--deals", str(deals),
                              "--seed", str(seed)], cwd=tmp, env=env, check=True,
                             capture_output=True, text=True)
        result: dict[str, object] = json.loads(res.stdout)
        return result


def current_run(deals: int, seed: int) -> dict[str, object]:
    """The plain-Python figures of this checkout, in a separate process like the baseline."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, __file__, "--inner", "--deals", str(deals),
                          "--seed", str(seed)], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True)
    result: dict[str, object] = json.loads(res.stdout)
    return result


def best_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out = dict(runs[0])
    for v in ("classic", "coinche", "bulgarian"):
        out[v] = max((r[v] for r in runs), key=lambda x: x["deals_per_second"])
    out["legal_cards_us"] = min(r["legal_cards_us"] for r in runs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--compiled", action="store_true", help="also measure the mypyc build")
    parser.add_argument("--baseline", metavar="REV",
                        help="also measure the game package of this git revision")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        import game.deal

        compiled = not game.deal.__file__ or not game.deal.__file__.endswith(".py")
        print(json.dumps({"compiled": compiled, **run(args.deals, args.seed)}))
        return
    sys.path.insert(0, str(ROOT))
    results: dict[str, dict[str, Any]]
    if args.baseline:
        now: list[dict[str, Any]] = []
        then: list[dict[str, Any]] = []
        for _ in range(3):
            then.append(baseline_run(args.baseline, args.deals, args.seed))
            now.append(current_run(args.deals, args.seed))
        results = {"python": best_of(now), "baseline": best_of(then)}
        for v in ("classic", "coinche", "bulgarian"):
            if results["python"][v]["totals"] != results["baseline"][v]["totals"]:
                raise SystemExit(f"{args.baseline} scored {v} differently: behaviour changed")
    else:
        results = {"python": run(args.deals, args.seed)}
    if args.compiled:
        results["mypyc"] = compiled_run(args.deals, args.seed)
        for v in ("classic", "coinche", "bulgarian"):
            same = results["python"][v]["totals"] == results["mypyc"][v]["totals"]
            if not same:
                raise SystemExit(f"the compiled build scored {v} differently: a bug")
    print(f"{'build':8} {'classic':>10} {'coinche':>10} {'bulgarian':>10}  legal_cards")
    for build, r in results.items():
        row = [r[v]["deals_per_second"] for v in ("classic", "coinche", "bulgarian")]
        print(f"{build:8} " + " ".join(f"{x:>10}" for x in row)
              + f"  {r['legal_cards_us']} us")
    print("(random complete deals per second on one core; the same totals in every build)")


if __name__ == "__main__":
    main()
