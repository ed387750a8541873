"""Double-dummy analysis speed: a first-trick position's value, and a whole deal's analysis.

    python bench/bench_analysis.py                # plain Python
    python bench/bench_analysis.py --compiled     # also the mypyc build of setup.py's COMPILED
    python bench/bench_analysis.py --cards 12     # endings only (12 cards left): a quick check
    python bench/bench_analysis.py --players easy # deals bid and played by easy computers

For each variant, seeded deals are bid and played with random legal calls and cards (or, with
``--players easy``, by four easy computers); then:

- **first trick**: the value of the position before the opening lead (32 cards), in both
  measures (card points, and the deal's score), from a fresh solver;
- **whole deal**: ``analyse_deal`` (the par of the deck, every card played with the value of
  each legal card in both measures, every call against par), from a fresh solver, with the
  nodes and time spent at each trick's cards.

Times are the process's CPU time. Both builds must find the same values: the script checks it.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("classic", "coinche", "bulgarian")


def played_match(variant: str, seed: int, players: str = "random") -> Any:
    """A match with one finished deal that has a contract, seeded: bid and played with random
    legal calls and cards (``players="random"``), or by four easy computers (``"easy"``)."""
    import random

    from game.actions import PLAYS, Pass
    from game.ai import make_ai
    from game.deal import Phase
    from game.match import Match
    from game.view import table_view

    rng = random.Random(seed)
    while True:
        match = Match(variant)
        deal = match.start_deal(match.new_deck(rng.randrange(1 << 30)))
        if players == "easy":
            ais = [make_ai("easy", rng.randrange(1 << 30)) for _ in range(4)]
            while deal.to_act is not None:
                seat = deal.to_act
                deal.apply(ais[seat].choose(table_view(match, seat)))
            if deal.contract is None:
                continue
            return match
        while deal.phase is Phase.BIDDING:
            calls = deal.legal_actions()
            bids = [a for a in calls if not isinstance(a, Pass)]
            deal.apply(rng.choice(bids) if bids and rng.random() < 0.3 else rng.choice(calls))
        if deal.contract is None:
            continue
        while deal.to_act is not None:
            legal = [c for c in range(32) if deal.legal_cards() >> c & 1]
            deal.apply(PLAYS[rng.choice(legal)])
        return match


class _Timer:
    """Told by analyse_deal when the par is known and as each card is analysed: the time and
    the nodes spent on the par and on each trick's cards."""

    def __init__(self, solver: Any) -> None:
        self.solver = solver
        self.last = time.process_time()
        self.nodes = solver.nodes
        self.par = 0.0
        self.cards = 0
        self.per_trick: list[list[Any]] = [[0, 0.0] for _ in range(8)]

    def __call__(self, decision: object) -> None:
        now = time.process_time()
        if decision is None:
            self.par = now - self.last
        else:
            trick = self.per_trick[self.cards // 4]
            trick[0] += self.solver.nodes - self.nodes
            trick[1] += now - self.last
            self.cards += 1
        self.nodes = self.solver.nodes
        self.last = now


def measure(deals: int, seed: int, cards: int, players: str) -> dict[str, Any]:
    from game.actions import Play
    from game.analysis.review import analyse_deal
    from game.analysis.situation import situation_of
    from game.analysis.solver import Solver
    from game.deal import Deal

    out: dict[str, Any] = {}
    for variant in VARIANTS:
        rows = []
        for i in range(deals):
            match = played_match(variant, seed * 1000 + i, players)
            done = match.deals[0]
            fresh = Deal(match.variant, match.options, done.dealer, done.deck)
            actions = done.actions
            j = 0
            while not (isinstance(actions[j][1], Play) and
                       sum(h.bit_count() for h in fresh.hands) <= cards):
                fresh.apply(actions[j][1])
                j += 1
            sit = situation_of(fresh, announced=done.announced_points())
            solver = Solver()
            t = time.process_time()
            points = solver.card_points(sit, 0)
            score = solver.score(sit, 0)
            first = time.process_time() - t
            first_nodes = solver.nodes
            row: dict[str, Any] = {"contract": done.contract.describe() if done.contract
                                   else None, "first": round(first, 3),
                                   "first_nodes": first_nodes, "values": [points, score]}
            if cards == 32:
                solver = Solver()
                timer = _Timer(solver)
                t = time.process_time()
                analysis = analyse_deal(match, 0, solver, timer)
                row["whole"] = round(time.process_time() - t, 3)
                row["whole_nodes"] = analysis.nodes
                row["par_time"] = round(timer.par, 3)
                row["per_trick"] = [[n, round(s, 3)] for n, s in timer.per_trick]
                row["values"].append(sum(d.chosen.cost for d in analysis.decisions))
            rows.append(row)
        out[variant] = rows
    return out


def compiled_modules() -> list[str]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    return list(next(ast.literal_eval(node.value) for node in tree.body
                     if isinstance(node, ast.Assign)
                     and getattr(node.targets[0], "id", "") == "COMPILED"))


def inner(env_path: str, args: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": env_path}
    res = subprocess.run([sys.executable, __file__, "--inner", "--deals", str(args.deals),
                          "--seed", str(args.seed), "--cards", str(args.cards),
                          "--players", args.players],
                         cwd=env_path, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(res.stdout)
    return result


def compiled_run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "game", Path(tmp) / "game",
                        ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run([sys.executable, "-m", "mypyc", *compiled_modules()], cwd=tmp,
                       check=True, stdout=subprocess.DEVNULL)
        return inner(tmp, args)


def report(build: str, result: dict[str, Any], cards: int) -> None:
    for variant in VARIANTS:
        rows = result[variant]
        firsts = [r["first"] for r in rows]
        line = (f"{build:8} {variant:10} {'first trick' if cards == 32 else f'{cards} cards'}: "
                f"{min(firsts):.2f}-{max(firsts):.2f} s, "
                f"{sum(r['first_nodes'] for r in rows) // len(rows)} nodes")
        if cards == 32:
            wholes = [r["whole"] for r in rows]
            pars = [r["par_time"] for r in rows]
            line += (f"; whole deal {min(wholes):.1f}-{max(wholes):.1f} s "
                     f"(par {min(pars):.1f}-{max(pars):.1f} s), "
                     f"{sum(r['whole_nodes'] for r in rows) // len(rows)} nodes")
        print(line + f" [{'; '.join(str(r['contract']) for r in rows)}]")
        if cards == 32:
            per = [[sum(r["per_trick"][t][0] for r in rows) // len(rows),
                    sum(r["per_trick"][t][1] for r in rows) / len(rows)] for t in range(8)]
            print(f"{'':8} {'':10} per trick (nodes / s, mean): " +
                  " ".join(f"{n}/{s:.2f}" for n, s in per))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="deals per variant (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cards", type=int, default=32,
                        help="analyse from the first position with this many cards left "
                        "(32: the whole deal and its par)")
    parser.add_argument("--players", choices=("random", "easy"), default="random",
                        help="who bids and plays the deals analysed: random legal calls and "
                        "cards (the default), or four easy computers (contracts as a table "
                        "bids them)")
    parser.add_argument("--compiled", action="store_true", help="also measure the mypyc build")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        print(json.dumps(measure(args.deals, args.seed, args.cards, args.players)))
        return
    results = {"python": inner(str(ROOT), args)}
    if args.compiled:
        results["mypyc"] = compiled_run(args)
        for v in VARIANTS:
            if [r["values"] for r in results["python"][v]] != \
                    [r["values"] for r in results["mypyc"][v]]:
                raise SystemExit(f"the compiled build valued {v} differently: a bug")
    for build, result in results.items():
        report(build, result, args.cards)
    print("(process CPU time on one core; the same values in every build)")


if __name__ == "__main__":
    main()
