"""The modules a source file imports by absolute name (``import x.y``, ``from x.y import z``),
for the tests that check what a package may not reach (the rules core no I/O, the service no
Discord). Relative imports stay inside the package, so they are not listed."""

from __future__ import annotations

import ast


def imported(tree: ast.AST) -> list[str]:
    """Every module the tree imports by absolute name, type-only imports included."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def imports_of(tree: ast.AST, packages: set[str]) -> list[str]:
    """``imports x.y`` for each module of ``packages`` (by their first name) the tree imports."""
    return [f"imports {n}" for n in imported(tree) if n.split(".")[0] in packages]
