"""``belote render FILE -o OUT.png [--seat N] [--language en|fr|bg]``: the table after a
record's last action, every word and rank letter on it in the language asked for.

Registered in the ``belote.commands`` entry point group; errors come back as the other
subcommands' JSON error objects (belote_cli/cli.py reads and replays the record).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from belote_cli.cli import load_match
from game.record import ReplayError
from game.view import table_view
from i18n import DEFAULT_LANGUAGE, languages

from . import render_table
from .style import Style


def _seat(text: str) -> int:
    try:
        seat = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seat is 0, 1, 2 or 3, not {text!r}") from None
    if not 0 <= seat <= 3:
        raise argparse.ArgumentTypeError(f"a seat is 0, 1, 2 or 3, not {seat}")
    return seat


def run(args: argparse.Namespace) -> int:
    match = load_match(args.file)
    view = table_view(match, args.seat)
    data, ext = render_table(view, Style(four_colour=args.four_colour), language=args.language)
    try:
        with open(args.output, "wb") as f:
            f.write(data)
    except OSError as e:
        raise ReplayError(f"cannot write {args.output}: {e.strerror}", status=2) from None
    summary = {"output": args.output, "format": ext, "bytes": len(data), "seat": args.seat,
               "language": args.language}
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("render", help="draw the table after the record's last action")
    p.add_argument("file", help="the record (JSON), or - for standard input")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png",
                   help="where to write the image (PNG)")
    p.add_argument("--seat", type=_seat, default=None, metavar="N",
                   help="draw it as seat N sees it, with that player's hand")
    p.add_argument("--four-colour", action="store_true",
                   help="the four-colour deck (clubs green, diamonds blue)")
    p.add_argument("--language", default=DEFAULT_LANGUAGE, choices=languages(),
                   help="the language of every word and rank letter on the image "
                        f"({', '.join(languages())}; default {DEFAULT_LANGUAGE})")
    p.set_defaults(run=run)
