"""The ``belote`` command: replay, legal and simulate (render is added by the rendering package
through the ``belote.commands`` entry point group, so the rules core imports nothing of ours)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any, NoReturn, TextIO

from .errors import BeloteError
from .match import Match
from .players import Player, RandomPlayer, play_deal
from .record import ReplayError, legal_summary, parse_record, replay, replay_summary, to_record
from .rules import Variant


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"belote: {message}\n")


def _emit(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def read_record_file(path: str) -> Any:
    """The JSON of a record file ('-' is standard input). Raises ReplayError (status 2)."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise ReplayError(f"cannot read {path}: {e.strerror}", status=2) from None
    except UnicodeDecodeError:
        raise ReplayError(f"{path} is not UTF-8 text", status=2) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}",
                          status=2) from None
    except RecursionError:
        raise ReplayError("not valid JSON: nested too deeply", status=2) from None


def load_match(path: str) -> Match:
    return replay(parse_record(read_record_file(path)))


def _cmd_replay(args: argparse.Namespace) -> int:
    _emit(replay_summary(load_match(args.file)), sys.stdout)
    return 0


def _cmd_legal(args: argparse.Namespace) -> int:
    _emit(legal_summary(load_match(args.file)), sys.stdout)
    return 0


def make_player(kind: str, seed: int) -> Player:
    if kind == "random":
        return RandomPlayer(seed)
    from .ai import make_ai  # the computer players; imported only when asked for

    player: Player = make_ai(kind, seed)
    return player


def simulate(variant: Variant, deals: int, seed: int, kinds: Sequence[str]) -> dict[str, Any]:
    players = [make_player(k, seed * 4 + i) for i, k in enumerate(kinds)]
    match = Match(variant, {"target": 10**5} if deals > 0 else None)
    matches = [match]
    played = 0
    started = time.perf_counter()
    while played < deals:
        if match.is_over:
            match = Match(variant, {"target": 10**5})
            matches.append(match)
        play_deal(match, players, seed)
        played += 1
    elapsed = time.perf_counter() - started
    outcomes: dict[str, int] = {}
    for m in matches:
        for r in m.results:
            outcomes[r.outcome.value] = outcomes.get(r.outcome.value, 0) + 1
    totals = [sum(m.totals[t] for m in matches) for t in (0, 1)]
    return {
        "variant": variant.value,
        "players": list(kinds),
        "deals": played,
        "seed": seed,
        "totals": totals,
        "outcomes": outcomes,
        "seconds": round(elapsed, 3),
        "deals_per_second": round(played / elapsed) if elapsed > 0 else None,
        "records": [to_record(m) for m in matches],
    }


def _cmd_simulate(args: argparse.Namespace) -> int:
    kinds = ["random"] * 4 if args.players == "random" else [args.level] * 4
    result = simulate(Variant(args.variant), args.deals, args.seed, kinds)
    records = result.pop("records")
    if args.record:
        record: Any = records[0] if len(records) == 1 else records
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
    _emit(result, sys.stdout)
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="belote", description="Belote game records: replay, legal actions, "
                     "simulation, rendering.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("replay", help="check a record against the rules and print every deal")
    p.add_argument("file", help="the record (JSON), or - for standard input")
    p.set_defaults(run=_cmd_replay)
    p = sub.add_parser("legal", help="print the seat to act and its legal actions")
    p.add_argument("file", help="the record (JSON), or - for standard input")
    p.set_defaults(run=_cmd_legal)
    p = sub.add_parser("simulate", help="play deals between computer players")
    p.add_argument("--variant", required=True, choices=[v.value for v in Variant])
    p.add_argument("--deals", type=_positive, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", choices=["random", "ai"], default="random")
    p.add_argument("--level", choices=["easy", "hard"], default="easy",
                   help="the computer players' level with --players ai")
    p.add_argument("--record", metavar="FILE", help="write the game record(s) there")
    p.set_defaults(run=_cmd_simulate)
    for ep in entry_points(group="belote.commands"):
        register: Callable[[Any], None] = ep.load()
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except ReplayError as e:
        _emit(e.to_json(), sys.stdout)
        return e.status
    except BeloteError as e:
        _emit({"error": {"deal": None, "action": None, "reason": str(e)}}, sys.stdout)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
