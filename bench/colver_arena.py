"""Arena against colver: our `hard` against colver's IS-DD agent on twin deals of Contrée.

colver (https://github.com/Avo-k/colver, `pip install '.[arena]'`) is an open Contrée engine in
Rust whose IS-DD agent samples deals consistent with what its seat knows and solves each one
double-dummy. It is an optional dependency of this benchmark only, never of the bot.

Each twin is one deck played twice with the seats swapped: `hard` at seats 0 and 2 then at 1
and 3, colver's agent at the other two (the same deals as bench/arena.py --deals, whose report,
interval and JSON lines this reuses). Our rules core is the referee: it deals, checks every
action and scores the deal (coinche, closest options to colver's rules: see docs/benchmarks.md).
colver's seats decide from a colver ``Env`` into which the deal is replayed action by action
(cards, bids and seats mapped below); an action one side finds illegal and the other not stops
the run, and the card points each side counted are compared at the end of every deal.

    python bench/colver_arena.py --twins 100 --jobs 2 --out bench/results/colver.jsonl
    python bench/colver_arena.py --report bench/results/colver.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: bench.arena

from bench.arena import contract_level, player, read_rows, report_deals, run_jobs
from game.actions import CAPOT, Action, CoincheBid, Contre, Pass, Play, Surcontre
from game.cards import Card, Suit, cards_of
from game.deal import Deal
from game.match import Match
from game.rules import Variant
from game.scoring import Outcome
from game.view import Stage, table_view

# colver's IS-DD as the issue names it: its heuristic bidder, 20 sampled deals a card, and
# worlds drawn uniformly among those consistent with what the seat knows. Without the opt-in
# `[worlds] source = "uniform"` colver refuses to build the agent: its default world source is a
# GPU sidecar (a learned model) that this machine does not have.
COLVER_SPEC = """\
[bid]
strategy = "improved_v2"

[play]
method = "is_dd"
determinizations = 20

[worlds]
source = "uniform"
"""

# Our coinche defaults are colver's rules of play: no announcements but belote, and a player who
# cannot over-trump an opponent's trump may discard (no forced under-trump). Over 300 random
# deals (9600 cards) both engines gave the same legal cards at every turn with these options;
# with must_undertrump they differed at 29 (tests/bench/test_colver_arena.py checks it).
OPTIONS: dict[str, Any] = {"target": 10**5, "announcements": False, "must_undertrump": False}

# Cards. Ours: suit * 8 + rank, suits clubs diamonds hearts spades, ranks 7 8 9 10 J Q K A.
# colver's: suit * 8 + rank, suits spades hearts diamonds clubs, ranks 7 8 9 J Q K 10 A.
_RANK_TO_COLVER = (0, 1, 2, 6, 3, 4, 5, 7)
_RANK_FROM_COLVER = tuple(_RANK_TO_COLVER.index(r) for r in range(8))
PASS_, COINCHE, SURCOINCHE = 0, 41, 42  # colver's bidding actions besides the bids


def to_colver_card(card: Card) -> int:
    return (3 - (card >> 3)) * 8 + _RANK_TO_COLVER[card & 7]


def from_colver_card(card: int) -> Card:
    return (3 - (card >> 3)) * 8 + _RANK_FROM_COLVER[card & 7]


def to_colver_suit(suit: Suit) -> int:
    return 3 - int(suit)


def to_colver_action(action: Action) -> int:
    """colver's action number for one of ours: 0 pass, 1-36 the bids 80..160 (value-major,
    suits spades hearts diamonds clubs), 37-40 capot, 41 coinche, 42 surcoinche, 0-31 cards."""
    if isinstance(action, Play):
        return to_colver_card(action.card)
    if isinstance(action, Pass):
        return PASS_
    if isinstance(action, Contre):
        return COINCHE
    if isinstance(action, Surcontre):
        return SURCOINCHE
    if isinstance(action, CoincheBid):
        s = to_colver_suit(action.suit)
        if action.value == CAPOT:
            return 37 + s
        return 1 + (action.value - 80) // 10 * 4 + s
    raise ValueError(f"no colver action for {action.describe()}")


def from_colver_action(action: int, bidding: bool) -> Action:
    if not bidding:
        return Play(from_colver_card(action))
    if action == PASS_:
        return Pass()
    if action == COINCHE:
        return Contre()
    if action == SURCOINCHE:
        return Surcontre()
    suit = Suit(3 - (action - 1) % 4)
    value = CAPOT if action >= 37 else 80 + (action - 1) // 4 * 10
    return CoincheBid(value, suit)


class RuleMismatch(AssertionError):
    """An action one referee takes and the other refuses: the two rule sets differ there."""


class ColverTable:
    """colver's view of one deal of ours: an ``Env`` dealt the same hands, colver's agents at
    their seats, and every action of the deal replayed into it."""

    def __init__(self, deal: Deal, seats: tuple[int, ...], seed: int) -> None:
        import colver

        self.colver = colver
        hands = [sorted(to_colver_card(c) for c in cards_of(deal.hands[s])) for s in range(4)]
        self.env = colver.Env.deal_with_hands(deal.dealer, hands)
        self.agents = {s: colver.Agent(COLVER_SPEC, s, seed * 4 + s) for s in seats}
        for agent in self.agents.values():
            agent.init_deal(self.env)
        self.determinizations: list[int] = []

    def _step(self, action: int) -> None:
        env = self.env
        if action not in env.legal_actions():
            raise RuleMismatch(
                f"colver refuses {self.colver.Env.action_name(action, env.phase())} at seat "
                f"{env.current_player()} (legal: "
                f"{[self.colver.Env.action_name(a, env.phase()) for a in env.legal_actions()]})")
        for agent in self.agents.values():  # every seat's action, before it is applied
            agent.observe(env, action)
        env.step(action)

    def _forced_passes(self, seat: int | None) -> None:
        """colver gives a turn to pass (the only legal action) to seats ours skips: after a
        coinche, the coincher's partner. Take them until it is ``seat``'s turn (None: until
        the auction is over)."""
        env = self.env
        while env.phase() == 0 and env.current_player() != seat and env.legal_actions() == [0]:
            self._step(PASS_)

    def apply_forced_passes(self) -> None:
        """Once our auction is over: colver's passes left in its auction."""
        if self.env.phase() == 0:
            self._forced_passes(None)

    def apply(self, seat: int, action: Action, bidding: bool) -> None:
        """Replay our ``seat``'s ``action`` into colver."""
        if bidding:
            self._forced_passes(seat)
        else:
            self.apply_forced_passes()
        if self.env.current_player() != seat:
            raise RuleMismatch(f"seat {seat} acts, colver expects seat {self.env.current_player()}")
        self._step(to_colver_action(action))

    def decide(self, seat: int, bidding: bool) -> tuple[Action, float]:
        """colver's agent's decision for ``seat`` (its turn in our deal): ours, and its ms."""
        if bidding:
            self._forced_passes(seat)
        else:
            self.apply_forced_passes()
        decision = self.agents[seat].decide(self.env)
        if decision.get("determinizations"):
            self.determinizations.append(int(decision["determinizations"]))
        return (from_colver_action(int(decision["action"]), self.env.phase() == 0),
                float(decision.get("elapsed_ms", 0.0)))

    def card_points(self) -> tuple[int, int]:
        ns, ew = self.env.get_points()
        return (int(ns), int(ew))

    def score(self) -> tuple[float, float]:
        ns, ew = self.env.rewards()
        return (float(ns), float(ew))


def same_card_points(ours: list[int] | tuple[int, ...] | None,
                     theirs: list[int] | tuple[int, ...] | None) -> bool:
    """Whether both referees counted the same card points: colver counts a team that took
    every trick 252 (100 for the last trick instead of 10, as our capot scores it)."""
    if ours is None or theirs is None:
        return ours is None and theirs is None
    swept = [252 if p == 162 and q == 0 else p for p, q in (ours, ours[::-1])]
    return list(theirs) in (list(ours), swept)


def play_twin_half(job: tuple[int, int]) -> dict[str, Any]:
    """One deal (dealer and deck from ``seed``) with `hard` on team ``a_team``: a row of
    bench/arena.py's deal format, plus what colver counted and scored."""
    seed, a_team = job
    a, b = "hard", "colver"
    levels = [a if seat & 1 == a_team else b for seat in range(4)]
    ours = {s: player(a, seed * 4 + s) for s in range(4) if levels[s] == a}
    match = Match(Variant.COINCHE, OPTIONS, first_dealer=seed & 3)
    deal = match.start_deal(match.new_deck(seed))
    table = ColverTable(deal, tuple(s for s in range(4) if levels[s] == b), seed)
    times: dict[str, dict[str, list[float]]] = {lv: {"bid": [], "play": []} for lv in (a, b)}
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        view = table_view(match, seat)
        bidding = view.stage is Stage.BIDDING
        t = time.perf_counter()
        if levels[seat] == a:
            action = ours[seat].choose(view)
            ms = (time.perf_counter() - t) * 1000
        else:
            action, ms = table.decide(seat, bidding)
        table.apply(seat, action, bidding)
        if bidding or len(view.legal_cards) > 1:
            times[levels[seat]]["bid" if bidding else "play"].append(round(ms, 2))
        match.apply(action, seat)
    result = match.results[-1]
    c = result.contract
    colver_score = table.score()
    return {"variant": "coinche", "a": a, "b": b, "seed": seed, "a_team": a_team,
            "a_minus_b": result.score[a_team] - result.score[1 - a_team],
            "taker": levels[c.seat] if c is not None else None,
            "contract": contract_level(c) if c is not None else None,
            "doubled": c.multiplier if c is not None else None,
            "made": result.outcome is Outcome.MADE if c is not None else None,
            "card_points": list(result.card_points) if c is not None else None,
            "colver_card_points": list(table.card_points()) if c is not None else None,
            "colver_a_minus_b": colver_score[a_team] - colver_score[1 - a_team],
            "colver_determinizations_min": min(table.determinizations, default=None),
            "times": times}


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """bench/arena.py's deal report, per twin (both plays summed) as well as per deal, and the
    same figure under colver's own scoring."""
    out = report_deals(rows)
    out["twins"] = out.pop("pairs")
    lo, hi = out["ci95"]
    per = out["a_points_per_deal_over_b"]
    out["a_points_per_twin_over_b"] = round(2 * per, 1)
    out["ci95_twin"] = [round(2 * lo, 1), round(2 * hi, 1)]
    theirs = report_deals([{**r, "a_minus_b": r["colver_a_minus_b"]} for r in rows])
    out["under_colver_scoring"] = {"a_points_per_twin_over_b":
                                   round(2 * theirs["a_points_per_deal_over_b"], 1),
                                   "ci95_twin": [round(2 * x, 1) for x in theirs["ci95"]]}
    out["card_points_disagree"] = sum(
        1 for r in rows if not same_card_points(r["card_points"], r["colver_card_points"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--twins", type=int, default=10, help="twin deals (two plays each)")
    ap.add_argument("--start", type=int, default=0, help="first seed (to run in parts)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="append one JSON line per deal to this file")
    ap.add_argument("--report", nargs="*", metavar="FILE", help="summarise result files")
    args = ap.parse_args(argv)
    if args.report is not None:
        print(json.dumps(report(read_rows(args.report)), indent=1))
        return 0
    jobs = [(seed, a_team) for seed in range(args.start, args.start + args.twins)
            for a_team in (0, 1)]
    print(json.dumps(report(run_jobs(play_twin_half, jobs, args.jobs, args.out)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
