"""Look for known classes of play mistakes of a computer level in self-play deals.

Four players of one level play seeded deals; every card choice with a choice is checked for:

- ``ruff_partner``: void in the suit led, the partner sure to win the trick with a plain card
  (no opponent still to play can hold a higher card of the suit or a trump), and the player
  trumps with its only trump although it could discard;
- ``ten_ruffed``: a plain ten or ace given (led or followed) to a trick an opponent then wins
  by trumping, when a card of fewer points was legal and an opponent still to play was known
  to be void in the suit and could hold a trump.

Prints the counts per variant and the first positions found (deal seed, trick, seat, hand), so a
position test can be built from them.

    python bench/mistakes.py --deals 40 --level hard
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: bench.hard_v1

from bench.hard_v1 import level_player
from game.ai.easy import play_rules, trick_state
from game.ai.knowledge import read_knowledge
from game.cards import SUIT_MASKS, Rank, card_str, to_set
from game.match import Match
from game.rules import Variant
from game.view import Stage, table_view


def scan(variant: Variant, level: str, deals: int, seed: int) -> dict[str, Any]:
    counts = {"decisions": 0, "ruff_partner": 0, "ten_ruffed": 0}
    found: list[dict[str, Any]] = []
    for d in range(seed, seed + deals):
        players = [level_player(level, d * 4 + s) for s in range(4)]
        match = Match(variant, {"target": 10**5}, first_dealer=d & 3)
        deal = match.start_deal(match.new_deck(d))
        pending: list[tuple[int, int, dict[str, Any]]] = []  # (trick no, seat, record)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = table_view(match, seat)
            action = players[seat].choose(view)
            if view.stage is Stage.PLAY and len(view.legal_cards) > 1:
                counts["decisions"] += 1
                rules = play_rules(view)
                card = action.card  # type: ignore[union-attr]
                tm = rules.trump_suit_mask
                trick, win_card, win_index = trick_state(rules, view)
                legal = to_set(view.legal_cards)
                k = read_knowledge(view, rules)
                hand = to_set(view.hand)
                record = {"variant": variant.value, "deal_seed": d, "trick": len(view.tricks),
                          "seat": seat, "hand": " ".join(map(card_str, view.hand)),
                          "on_table": " ".join(map(card_str, trick)),
                          "played": card_str(card)}
                if trick and tm and not tm >> trick[0] & 1 and \
                        not hand & SUIT_MASKS[trick[0] >> 3] and \
                        not (len(trick) - win_index) & 1 and not tm >> win_card & 1 and \
                        tm >> card & 1 and (hand & tm).bit_count() == 1 and legal & ~tm and \
                        all(not k.possible(o) & (rules.above[win_card] | tm)
                            for o in ((seat + i) & 3 for i in range(1, 4 - len(trick)))):
                    counts["ruff_partner"] += 1
                    found.append({"kind": "ruff_partner", **record})
                rank = card & 7
                led = (trick[0] if trick else card) >> 3
                after = [(seat + i) & 3 for i in range(1, 4 - len(trick))]
                void_ruffer = any(
                    (s ^ seat) & 1 and not k.possible(s) & SUIT_MASKS[led] and k.possible(s) & tm
                    for s in after)
                if not tm >> card & 1 and rank in (Rank.TEN, Rank.ACE) and void_ruffer and any(
                        rules.points[c] < rules.points[card] for c in view.legal_cards):
                    pending.append((len(view.tricks), seat, record))
            match.apply(action, seat)
            for no, s, record in pending[:]:
                if len(deal.tricks) > no:
                    pending.remove((no, s, record))
                    t = deal.tricks[no]
                    w = t.winner
                    assert w is not None
                    win = t.cards[(w - t.leader) & 3]
                    led_trump = rules.trump_suit_mask >> t.cards[0] & 1
                    if (w ^ s) & 1 and rules.trump_suit_mask >> win & 1 and not led_trump:
                        counts["ten_ruffed"] += 1
                        found.append({"kind": "ten_ruffed", **record})
    return {"variant": variant.value, "level": level, "deals": deals, **counts,
            "examples": found[:6]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", default="hard", choices=["easy", "hard", "hard_v1"])
    ap.add_argument("--variant", choices=[v.value for v in Variant], action="append")
    args = ap.parse_args()
    for v in args.variant or [v.value for v in Variant]:
        print(json.dumps(scan(Variant(v), args.level, args.deals, args.seed), indent=1))


if __name__ == "__main__":
    main()
