"""The monitoring files that ship (deploy/): Grafana's dashboard asks only for metrics the bot
exposes, and Prometheus scrapes every bot process compose.yaml runs, on its WEB_PORT."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client import generate_latest

from bot import create_bot

ROOT = Path(__file__).resolve().parents[2]


def families(tmp_path: Path) -> dict[str, str]:
    """The bot's metric families as Prometheus reads them: name -> type."""
    bot = create_bot(str(tmp_path / "b.sqlite3"), web_port=0)
    assert bot.metrics is not None
    text = generate_latest(bot.metrics.registry).decode()
    return dict(re.findall(r"^# TYPE (\S+) (\S+)", text, re.M))


def exposed(tmp_path: Path) -> set[str]:
    out = set()
    for name, kind in families(tmp_path).items():
        out.add(name)
        if kind == "histogram":
            out |= {name + "_bucket", name + "_sum", name + "_count"}
    return out


def test_the_dashboard_asks_only_for_what_the_bot_exposes(tmp_path: Path) -> None:
    dashboard = json.loads((ROOT / "deploy/grafana/belote.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    exprs.append(dashboard["templating"]["list"][0]["query"])
    asked = {m for e in exprs for m in re.findall(r"\bbelote_[a-z_]+", e)}
    have = exposed(tmp_path)
    assert asked and asked <= have, asked - have
    # Every metric the bot exposes is described in docs/operations.md.
    documented = set(re.findall(r"`(belote_[a-z_]+)`", (ROOT / "docs/operations.md").read_text()))
    assert set(families(tmp_path)) <= documented


def test_prometheus_scrapes_every_bot_of_compose_on_its_port() -> None:
    compose = (ROOT / "compose.yaml").read_text()
    bots = set(re.findall(r"^  (bot-\d+):", compose, re.M))
    port = re.search(r'WEB_PORT: "(\d+)"', compose)
    assert bots and port is not None
    targets = re.findall(r'"([\w-]+):(\d+)"', (ROOT / "deploy/prometheus/prometheus.yml")
                         .read_text())
    assert {(b, port.group(1)) for b in bots} == set(targets)
    assert 'profiles: ["monitoring"]' in compose  # off by default
