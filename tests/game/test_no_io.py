"""The rules core does no I/O: nothing in game/ reads or writes files, streams, sockets or the
network, or imports the parts of the project that do (the command line lives in belote_cli/)."""

from __future__ import annotations

import ast
from pathlib import Path

import game
from tests.imports import imports_of

GAME = Path(game.__file__).parent
IO_MODULES = {"sys", "os", "io", "pathlib", "subprocess", "socket", "shutil", "logging",
              "argparse", "tempfile", "importlib", "asyncio", "urllib", "http", "sqlite3",
              "aiosqlite", "discord", "PIL", "bot", "db", "cogs", "rendering", "belote_cli"}
IO_CALLS = {"print", "open", "input", "breakpoint", "exec", "eval", "__import__"}


def offences(source: str) -> list[str]:
    """What in this module's source does I/O or imports what does."""
    tree = ast.parse(source)
    found = imports_of(tree, IO_MODULES)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in IO_CALLS:
            found.append(f"calls {node.func.id}()")
        if isinstance(node, ast.Attribute) and node.attr in ("stdin", "stdout", "stderr"):
            found.append(f"uses .{node.attr}")
    return found


def test_game_does_no_io() -> None:
    files = sorted(GAME.rglob("*.py"))
    assert len(files) > 10  # the scan sees the package
    found = [f"{f.relative_to(GAME.parent)}: {what}"
             for f in files for what in offences(f.read_text(encoding="utf-8"))]
    assert found == []


def test_the_scan_sees_io() -> None:
    source = ("import sys\nfrom pathlib import Path\nfrom .cards import Card\n"
              "print(1)\nsys.stdout.write('x')\nwith open('f') as f: pass\n")
    assert sorted(offences(source)) == ["calls open()", "calls print()", "imports pathlib",
                                        "imports sys", "uses .stdout"]
