"""The ``belote`` command: replay, legal, analyse and simulate (render is added by the rendering
package through the ``belote.commands`` entry point group, so this package imports no rendering
code).
It lives beside the rules core, not in it: the core does no I/O."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NoReturn, TextIO

from game.errors import BeloteError, IllegalAction
from game.match import Match
from game.players import Player, RandomPlayer, play_deal
from game.record import ReplayError, legal_summary, parse_record, replay, replay_summary, to_record
from game.rules import MAX_TARGET, Variant
from i18n import rule_reason


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"belote: {message}\n")


def _emit(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


# The largest record file read (docs/game-record.md, "Limits"): far above any real match;
# a bigger file is refused before it is parsed.
MAX_RECORD_BYTES = 16 * 1024 * 1024


def read_record_file(path: str) -> Any:
    """The JSON of a record file ('-' is standard input). Raises ReplayError (status 2)."""
    too_big = ReplayError(f"{path} is larger than the {MAX_RECORD_BYTES // (1024 * 1024)} MiB "
                          "a record file may be", status=2)
    try:
        if path == "-":
            # Read one past the limit: enough to know it is over, without reading it all.
            text = sys.stdin.read(MAX_RECORD_BYTES + 1)
            if len(text.encode("utf-8", "surrogateescape")) > MAX_RECORD_BYTES:
                raise too_big
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_RECORD_BYTES + 1)
            if len(data) > MAX_RECORD_BYTES:
                raise too_big
            text = data.decode("utf-8")
    except OSError as e:
        raise ReplayError(f"cannot read {path}: {e.strerror}", status=2) from None
    except UnicodeDecodeError:
        raise ReplayError(f"{path} is not UTF-8 text", status=2) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}",
                          status=2) from None
    except ValueError:
        # Python refuses to read an integer of more than 4,300 digits (its int limit): no
        # count in a record comes near it.
        raise ReplayError("not a valid record: a number longer than 4,300 digits",
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


def _cmd_analyse(args: argparse.Namespace) -> int:
    from game.analysis.review import analyse_match, deal_json  # the solver, only when asked

    match = load_match(args.file)
    if args.deal is not None:
        if not 0 <= args.deal < len(match.deals):
            raise ReplayError(f"no deal {args.deal}: the record has {len(match.deals)} "
                              f"deal{'s' if len(match.deals) != 1 else ''}", status=2)
        if not match.deals[args.deal].is_over:
            raise ReplayError(f"deal {args.deal} is not over: only finished deals are "
                              "analysed", deal=args.deal, status=2)
        wanted = [args.deal]
    else:
        wanted = [i for i, d in enumerate(match.deals) if d.is_over]
    _emit({"deals": [deal_json(a) for a in analyse_match(match, wanted)]}, sys.stdout)
    return 0


def make_player(kind: str, seed: int) -> Player:
    if kind == "random":
        return RandomPlayer(seed)
    from game.ai import make_ai  # the computer players; imported only when asked for

    player: Player = make_ai(kind, seed)
    return player


def match_seed(seed: int, index: int) -> int:
    """The deck seed of the simulation's match ``index``: the first uses ``seed`` itself, the
    next ones a seed derived from it, so every match is dealt its own cards."""
    if index == 0:
        return seed
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def simulate(variant: Variant, deals: int, seed: int, kinds: Sequence[str],
             target: int = MAX_TARGET) -> dict[str, Any]:
    """Play ``deals`` deals; a match that is won is followed by a new one (one record each)."""
    players = [make_player(k, seed * 4 + i) for i, k in enumerate(kinds)]
    options = {"target": target}
    matches = [Match(variant, options)]
    played = 0
    started = time.perf_counter()
    while played < deals:
        if matches[-1].is_over:
            matches.append(Match(variant, options))
        play_deal(matches[-1], players, match_seed(seed, len(matches) - 1))
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
        "target": target,
        "matches": len(matches),
        "totals": totals,
        "outcomes": outcomes,
        "seconds": round(elapsed, 3),
        "deals_per_second": round(played / elapsed) if elapsed > 0 else None,
        "records": [to_record(m) for m in matches],
    }


def record_paths(path: str, count: int) -> list[str]:
    """Where ``--record PATH`` writes ``count`` records: PATH for the first match, then PATH
    with -2, -3, ... before its extension (sim.json, sim-2.json, ...)."""
    p = Path(path)
    return [path] + [str(p.with_name(f"{p.stem}-{i}{p.suffix}")) for i in range(2, count + 1)]


def _check_writable(path: str) -> None:
    """Refuse a record path that cannot be written before spending time on the simulation."""
    p = Path(path)
    if p.is_dir():
        raise ReplayError(f"cannot write {path}: it is a directory", status=2)
    if not p.parent.is_dir():
        raise ReplayError(f"cannot write {path}: no directory {str(p.parent)!r}", status=2)


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.record:
        _check_writable(args.record)
    kinds = ["random"] * 4 if args.players == "random" else [args.level or "easy"] * 4
    result = simulate(Variant(args.variant), args.deals, args.seed, kinds, args.target)
    records = result.pop("records")
    if args.record:
        paths = record_paths(args.record, len(records))
        for path, record in zip(paths, records, strict=True):
            try:
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(record, f, indent=1)
            except OSError as e:
                raise ReplayError(f"cannot write {path}: {e.strerror}", status=2) from None
        result["records"] = paths
    _emit(result, sys.stdout)
    return 0


# Option types: argparse prints an ArgumentTypeError's message as it is, after the option's name.
def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return value


def _target(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_TARGET:
        raise argparse.ArgumentTypeError(
            f"a whole number from 1 to {MAX_TARGET}, not {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="belote", description="Belote game records: replay, legal actions, "
                     "analysis, simulation, rendering.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("replay", help="check a record against the rules and print every deal")
    p.add_argument("file", help="the record (JSON), or - for standard input")
    p.set_defaults(run=_cmd_replay)
    p = sub.add_parser("legal", help="print the seat to act and its legal actions")
    p.add_argument("file", help="the record (JSON), or - for standard input")
    p.set_defaults(run=_cmd_legal)
    p = sub.add_parser("analyse", help="the double-dummy analysis of every finished deal: "
                       "its par, and the value of every legal card at each card played")
    p.add_argument("file", help="the record (JSON), or - for standard input")
    p.add_argument("--deal", type=_whole, default=None, metavar="N",
                   help="only deal N (0 is the first)")
    p.set_defaults(run=_cmd_analyse)
    p = sub.add_parser("simulate", help="play deals between computer players")
    p.add_argument("--variant", required=True, choices=[v.value for v in Variant])
    p.add_argument("--deals", type=_positive, default=100, metavar="N",
                   help="how many deals to play (default 100)")
    p.add_argument("--seed", type=_whole, default=0, metavar="S",
                   help="the seed of the decks and the players (default 0)")
    p.add_argument("--target", type=_target, default=MAX_TARGET, metavar="T",
                   help=f"the match target; a won match is followed by a new one "
                   f"(default {MAX_TARGET})")
    p.add_argument("--players", choices=["random", "ai"], default=None,
                   help="random legal moves, or the computer players (default random, "
                   "ai when --level is given)")
    p.add_argument("--level", choices=["easy", "hard"], default=None,
                   help="the computer players' level (implies --players ai; default easy)")
    p.add_argument("--record", metavar="FILE",
                   help="write each match's game record: FILE, then FILE-2, FILE-3... "
                   "before the extension when the deals span several matches")
    p.set_defaults(run=_cmd_simulate)
    for ep in entry_points(group="belote.commands"):
        register: Callable[[Any], None] = ep.load()
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "simulate":
        # --level names the computers' level, so alone it means computers of that level.
        if args.level is not None and args.players == "random":
            parser.error("--level is the level of computer players: it goes with --players ai "
                         "(or leave --players out)")
        if args.players is None:
            args.players = "ai" if args.level is not None else "random"
    try:
        code: int = args.run(args)
    except ReplayError as e:
        if e.rule is not None:  # the rules refused an action: the catalogue says why
            e.reason = rule_reason(e.rule)
        _emit(e.to_json(), sys.stdout)
        return e.status
    except IllegalAction as e:
        _emit({"error": {"deal": None, "action": None, "reason": rule_reason(e)}}, sys.stdout)
        return 2
    except BeloteError as e:
        _emit({"error": {"deal": None, "action": None, "reason": str(e)}}, sys.stdout)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
