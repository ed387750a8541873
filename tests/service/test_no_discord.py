"""The service talks to no Discord: nothing in service/ imports discord or the bot's Discord
side (bot/, cogs/, web/), not even for type hints, so the arrows cogs -> bot -> service hold by
construction, and importing the whole service loads no discord."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import service
from tests.imports import imports_of

SERVICE = Path(service.__file__).parent
FORBIDDEN = {"discord", "bot", "cogs", "web"}


def offences(source: str) -> list[str]:
    """The imports of this module's source that reach Discord or the bot."""
    return imports_of(ast.parse(source), FORBIDDEN)


def modules() -> list[str]:
    return sorted(".".join(p.relative_to(SERVICE.parent).with_suffix("").parts)
                  .removesuffix(".__init__") for p in SERVICE.rglob("*.py"))


def test_the_scan_sees_an_offence() -> None:
    assert offences("if TYPE_CHECKING:\n    from bot.sharding import Shards\n") == [
        "imports bot.sharding"]
    assert offences("import discord.ui\nfrom db import Database\n") == ["imports discord.ui"]


def test_no_module_of_the_service_imports_discord_or_the_bot() -> None:
    files = sorted(SERVICE.rglob("*.py"))
    assert len(files) > 20  # the scan sees the package
    found = [f"{f.relative_to(SERVICE.parent)}: {what}"
             for f in files for what in offences(f.read_text(encoding="utf-8"))]
    assert found == []


def test_importing_the_whole_service_loads_no_discord() -> None:
    names = modules()
    assert "service.tables.core" in names and "service.tournaments" in names
    probe = ("import importlib, sys\n"
             f"for name in {names!r}:\n"
             "    importlib.import_module(name)\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in "
             f"{sorted(FORBIDDEN)!r}))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=SERVICE.parent)
    assert out.stdout.strip() == "[]"
