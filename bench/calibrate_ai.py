"""Fit the bidding evaluator's weights (game/ai/evaluate.py) on playouts of random deals.

For each contract kind and number of cards known when bidding, deal random hands, give the
contract to one seat, play the deal out with the rule-of-thumb policy for every seat, and regress
the taking team's points (card points, last trick, belote) on the features of the cards the
taker knew. Prints WEIGHTS ready to paste, and the error of the fit.

    python bench/calibrate_ai.py --deals 20000
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from game.ai.evaluate import features, kind_of
from game.ai.policy import position_card
from game.ai.position import PlayRules, Position
from game.cards import Rank
from game.contract import Contract
from game.rules import Options, Trump, Variant

CASES = (("suit", 5, Variant.BULGARIAN), ("suit", 6, Variant.CLASSIC),
         ("suit", 8, Variant.COINCHE), ("nt", 5, Variant.BULGARIAN),
         ("at", 5, Variant.BULGARIAN))
KQ = (1 << Rank.KING) | (1 << Rank.QUEEN)


def belote(hands: list[int], team: int, trump: Trump) -> int:
    suits = range(4) if trump is Trump.ALL_TRUMPS else [] if trump is Trump.NO_TRUMPS \
        else [int(trump)]
    return sum(20 for s in suits for seat in (team, team + 2)
               if hands[seat] >> (s * 8) & KQ == KQ)


def sample(kind: str, known: int, variant: Variant, rng: random.Random) -> tuple[
        tuple[float, ...], float]:
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[k * 8:k * 8 + 8]) for k in range(4)]
    if kind == "suit":
        trump = Trump(rng.randrange(4))
    else:
        trump = Trump.NO_TRUMPS if kind == "nt" else Trump.ALL_TRUMPS
    taker = rng.randrange(4)
    seen = sum(1 << c for c in deck[taker * 8:taker * 8 + known])
    rules = PlayRules.of(variant, Options.for_variant(variant), Contract(taker, trump, 80))
    pos = Position(rules, hands, rng.randrange(4), [], (0, 0), (0, 0), 0)
    while not pos.is_over:
        pos.play(position_card(pos))
    team = taker & 1
    pts = pos.points[team] + belote(hands, team, trump)
    return features(seen, trump), float(pts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for kind, known, variant in CASES:
        xs, ys = [], []
        for _ in range(args.deals):
            x, y = sample(kind, known, variant, rng)
            xs.append(x)
            ys.append(y)
        a, b = np.array(xs), np.array(ys)
        w, *_ = np.linalg.lstsq(a, b, rcond=None)
        resid = b - a @ w
        assert kind == kind_of(Trump.NO_TRUMPS if kind == "nt" else
                               Trump.ALL_TRUMPS if kind == "at" else Trump.CLUBS)
        print(f'    ("{kind}", {known}): ({", ".join(f"{v:.1f}" for v in w)}),'
              f'  # rmse {resid.std():.1f}, mean {b.mean():.1f}')


if __name__ == "__main__":
    main()
