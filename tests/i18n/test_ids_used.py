"""Every message id the bot and the cogs ask for by name is in the English catalogue, and each
such call gives every parameter its message uses (a typo would reach a player as a crash)."""

from __future__ import annotations

import ast
from pathlib import Path

from i18n import parameters, texts

ROOT = Path(__file__).resolve().parents[2]
AREAS = ("commands.", "belote.", "delivery.", "errors.", "rule.", "cards.", "web.")


def asked() -> list[tuple[str, str, frozenset[str] | None]]:
    """(where, id, keyword names given; None when ``**params`` may give more) of each call
    whose first argument is a written message id of our areas."""
    found: list[tuple[str, str, frozenset[str] | None]] = []
    for package in ("service", "bot", "cogs", "i18n", "belote_cli", "web"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and \
                        first.value.startswith(AREAS) and " " not in first.value:
                    spread = any(k.arg is None for k in node.keywords)
                    names = None if spread else frozenset(k.arg for k in node.keywords if k.arg)
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", first.value, names))
    return found


def test_every_message_asked_for_exists_with_its_parameters() -> None:
    english = texts("en")
    calls = asked()
    assert len(calls) > 30  # the scan sees the calls
    for where, message_id, names in calls:
        message = english.get(message_id)
        assert message is not None, f"{where}: {message_id} is not in the catalogue"
        text = message if isinstance(message, str) else message[-1]
        if names is not None:
            assert parameters(text) <= names, f"{where}: {message_id} needs {parameters(text)}"
