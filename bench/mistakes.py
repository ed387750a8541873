"""Look for known classes of play mistakes of a computer level in self-play deals.

Four players of one level (``--level``) play seeded deals; every card choice with a choice is
checked for:

- ``ruff_partner``: void in the suit led, the partner sure to win the trick with a plain card
  (no opponent still to play can hold a higher card of the suit or a trump), and the player
  trumps with its only trump although it could discard;
- ``ten_ruffed``: a plain ten or ace given (led or followed) to a trick an opponent then wins
  by trumping, when a card of fewer points was legal and an opponent still to play was known
  to be void in the suit and could hold a trump.

Prints the counts per variant and the first positions found (deal seed, trick, seat, hand, the
deal's actions so far in the record's short notation), so a position test can be built from
them; ``--positions`` prints every one.

``--judge LEVEL`` asks another computer, in each position where ``--level`` made a mistake,
what it would play there (the same view, the same seed), and counts the positions where it
makes the same mistake (``judge_ruff_partner``, ``judge_ten_ruffed``): a ten it would give is
counted as a mistake of its own, whether or not the trick would then be ruffed.

``--driver LEVEL`` (say ``easy``, which is instant) plays the deals instead, and ``--level`` is
asked only where one of the mistakes is possible: far more positions for the same time, for the
rare ``ruff_partner``. There the ten is counted when given, the trick's end is not seen.

    python bench/mistakes.py --deals 40 --level hard
    python bench/mistakes.py --deals 300 --level hard_v1 --judge hard
    python bench/mistakes.py --deals 3000 --driver easy --level hard_v1 --judge hard
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: bench.hard_v1

from bench.hard_v1 import level_player
from game.actions import Play
from game.ai.easy import play_rules, trick_state
from game.ai.knowledge import Knowledge, read_knowledge
from game.ai.position import PlayRules
from game.cards import SUIT_MASKS, Card, Rank, card_str, to_set
from game.match import Match
from game.players import Player
from game.record import action_code
from game.rules import Variant
from game.view import Stage, TableView, table_view

LEVELS = ["easy", "hard", "hard_v1"]
KINDS = ("ruff_partner", "ten_ruffed")


def ruffs_partner(view: TableView, rules: PlayRules, k: Knowledge, card: Card) -> bool:
    """Whether ``card`` ruffs, with the seat's only trump, a trick the partner is sure to win
    with a plain card, when a discard was legal."""
    seat = k.seat
    tm = rules.trump_suit_mask
    trick, win_card, win_index = trick_state(rules, view)
    legal = to_set(view.legal_cards)
    return bool(
        trick and tm and not tm >> trick[0] & 1 and not k.hand & SUIT_MASKS[trick[0] >> 3]
        and not (len(trick) - win_index) & 1 and not tm >> win_card & 1
        and tm >> card & 1 and (k.hand & tm).bit_count() == 1 and legal & ~tm
        and all(not k.possible(o) & (rules.above[win_card] | tm)
                for o in ((seat + i) & 3 for i in range(1, 4 - len(trick)))))


def gives_ten(view: TableView, rules: PlayRules, k: Knowledge, card: Card) -> bool:
    """Whether ``card`` is a plain ten or ace given while a card of fewer points was legal and
    an opponent still to play is known to lack the suit led and may hold a trump."""
    seat = k.seat
    tm = rules.trump_suit_mask
    trick = list(view.trick.cards) if view.trick is not None else []
    led = (trick[0] if trick else card) >> 3
    after = [(seat + i) & 3 for i in range(1, 4 - len(trick))]
    void_ruffer = any(
        (s ^ seat) & 1 and not k.possible(s) & SUIT_MASKS[led] and k.possible(s) & tm
        for s in after)
    return bool(not tm >> card & 1 and (card & 7) in (Rank.TEN, Rank.ACE) and void_ruffer
                and any(rules.points[c] < rules.points[card] for c in view.legal_cards))


def scan(variant: Variant, level: str, deals: int, seed: int, judge: str | None = None,
         driver: str | None = None) -> dict[str, Any]:
    counts = {"decisions": 0, "asked": 0, **dict.fromkeys(KINDS, 0)}
    if judge is not None:
        counts.update({f"judge_{kind}": 0 for kind in KINDS})
    found: list[dict[str, Any]] = []
    tests = {"ruff_partner": ruffs_partner, "ten_ruffed": gives_ten}

    def judged(kind: str, view: TableView, record: dict[str, Any], rules: PlayRules,
               k: Knowledge) -> None:
        counts[kind] += 1
        if judge is not None:
            seat = k.seat
            card = _card(level_player(judge, record["deal_seed"] * 4 + seat), view)
            record["judged"] = card_str(card)
            if tests[kind](view, rules, k, card):
                counts[f"judge_{kind}"] += 1
                record["judge_also"] = True
        found.append({"kind": kind, **record})

    for d in range(seed, seed + deals):
        players = [level_player(level, d * 4 + s) for s in range(4)]
        drivers = players if driver is None else [level_player(driver, d * 4 + s)
                                                  for s in range(4)]
        match = Match(variant, {"target": 10**5}, first_dealer=d & 3)
        deal = match.start_deal(match.new_deck(d))
        codes: list[str] = []
        # (trick no, seat, record, view, knowledge): tens given, judged when the trick ends.
        pending: list[tuple[int, int, dict[str, Any], TableView, Knowledge]] = []
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = table_view(match, seat)
            action = drivers[seat].choose(view)
            if view.stage is Stage.PLAY and len(view.legal_cards) > 1:
                counts["decisions"] += 1
                rules = play_rules(view)
                k = read_knowledge(view, rules)
                if driver is None:
                    card = action.card  # type: ignore[union-attr]
                else:
                    # Ask the level only where it could make one of the mistakes.
                    if not any(test(view, rules, k, c) for test in tests.values()
                               for c in view.legal_cards):
                        card = -1
                    else:
                        counts["asked"] += 1
                        card = _card(players[seat], view)
                record = {"variant": variant.value, "deal_seed": d, "trick": len(view.tricks),
                          "seat": seat, "hand": " ".join(map(card_str, view.hand)),
                          "on_table": " ".join(map(card_str, view.trick.cards))
                          if view.trick is not None else "",
                          "played": card_str(card) if card >= 0 else "",
                          "actions": " ".join(codes)}
                if card >= 0 and ruffs_partner(view, rules, k, card):
                    judged("ruff_partner", view, record, rules, k)
                if card >= 0 and gives_ten(view, rules, k, card):
                    if driver is None:
                        pending.append((len(view.tricks), seat, record, view, k))
                    else:
                        judged("ten_ruffed", view, record, rules, k)
            match.apply(action, seat)
            codes.append(action_code(action))
            for item in pending[:]:
                no, s, record, v, k = item
                if len(deal.tricks) > no:
                    pending.remove(item)
                    t = deal.tricks[no]
                    w = t.winner
                    assert w is not None
                    win = t.cards[(w - t.leader) & 3]
                    r = k.rules
                    led_trump = r.trump_suit_mask >> t.cards[0] & 1
                    if (w ^ s) & 1 and r.trump_suit_mask >> win & 1 and not led_trump:
                        judged("ten_ruffed", v, record, r, k)
    return {"variant": variant.value, "level": level, "judge": judge, "driver": driver,
            "deals": deals, **counts, "examples": found[:6], "positions": found}


def _card(player: Player, view: TableView) -> Card:
    action = player.choose(view)
    assert isinstance(action, Play)
    return action.card


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", default="hard", choices=LEVELS,
                    help="the computer whose mistakes are looked for")
    ap.add_argument("--judge", choices=LEVELS,
                    help="also ask this computer in each position found, and count its mistakes")
    ap.add_argument("--driver", choices=LEVELS,
                    help="this computer plays the deals; --level is asked where it could err")
    ap.add_argument("--positions", action="store_true", help="print every position found")
    ap.add_argument("--variant", choices=[v.value for v in Variant], action="append")
    args = ap.parse_args()
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    for v in args.variant or [v.value for v in Variant]:
        out = scan(Variant(v), args.level, args.deals, args.seed, args.judge, args.driver)
        if args.positions:
            del out["examples"]
        else:
            del out["positions"]
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
