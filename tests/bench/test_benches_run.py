"""Every benchmark the README's figures come from still runs, at a tiny size: a bench that
rots (a probe that met a changed attribute, a PostgreSQL connection it did not expect) is found
here rather than by the next person reproducing a figure. What each checks is what its report
must say at any size: no click lost or refused, no 429, scores alike in every build; the
figures themselves are for the benchmarks to report, not for a test to time."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> str:
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_bench_rules_runs_and_scores_alike() -> None:
    out = run("bench/bench_rules.py", "--deals", "30")
    assert "python" in out and "the same totals in every build" in out


def test_bench_analysis_values_endings() -> None:
    out = run("bench/bench_analysis.py", "--deals", "1", "--cards", "9")
    for variant in ("classic", "coinche", "bulgarian"):
        assert re.search(rf"python +{variant} +9 cards: [\d.]+-[\d.]+ s, \d+ nodes", out), out
    assert "the same values in every build" in out


def test_bench_analysis_takes_deals_the_easy_computers_bid() -> None:
    out = run("bench/bench_analysis.py", "--deals", "1", "--cards", "9", "--players", "easy")
    for variant in ("classic", "coinche", "bulgarian"):
        # Each line names the contract of the deal analysed.
        assert re.search(rf"python +{variant} +9 cards: .* nodes \[[^]]+\]", out), out


def test_bench_render_draws_every_language() -> None:
    out = run("bench/bench_render.py", "--runs", "2")
    for language in ("en", "fr", "bg"):
        assert f"table (seat)    {language}" in out


def clicks(out: str) -> int:
    found = re.search(r"(\d+) clicks?[ ,:]|clicks: (\d+) in", out)
    assert found is not None, out
    return int(found.group(1) or found.group(2))


def test_bench_bot_loses_no_click_and_gets_no_429() -> None:
    # Seeded players think 1-4 s: in 6 s each of the two tables' first players clicks.
    out = run("bench/bench_bot.py", "--tables", "2", "--seconds", "6", "--mixed",
              "--rate-limits", "--answer-delay", "0.01", "0.02", "--old-tables", "0.5")
    assert clicks(out) >= 2 and "unanswered 0, refused 0" in out
    assert "429 answers: 0" in out and "memory per live table" in out
    # One table's message through its Start click's token, the other's as a message.
    assert "1 tables past their first 15 minutes" in out
    assert "edit table message through a click's token" in out and "edit table message (" in out


def test_bench_bot_compares_metrics_off_and_on() -> None:
    out = run("bench/bench_bot.py", "--tables", "2", "--seconds", "4", "--metrics-ab")
    assert out.count("unanswered 0, refused 0") == 2
    assert "metrics on: /metrics read" in out
    assert re.search(r"click-to-ack p99: off [\d.]+ ms .*; on [\d.]+ ms", out), out
    assert "bot CPU per action: off" in out


def test_bench_restart_sends_almost_nothing() -> None:
    out = run("bench/bench_restart.py", "--tables", "2")
    assert "restart with 2 open tables" in out and "429 answers: 0" in out


def test_bench_outage_recovers() -> None:
    out = run("bench/bench_outage.py", "--tables", "2", "--outage", "2")
    assert "Discord answered again" in out


def test_bench_shards_on_postgresql_carries_clicks() -> None:
    out = run("bench/bench_shards.py", "--tables", "2", "--seconds", "6", "--processes", "2")
    assert clicks(out) >= 2 and "0 unanswered, 0 refused" in out and "429 answers: 0" in out


def test_bench_db_commits_on_sqlite_and_postgresql() -> None:
    out = run("bench/bench_db.py", "--tables", "2", "--actions", "5")
    assert "sqlite" in out and "postgresql" in out


def test_bench_stats_times_every_page() -> None:
    out = run("bench/bench_stats.py", "--matches", "300", "--players", "20", "--runs", "3")
    assert "leaderboard page" in out and "/belote stats" in out


def test_bench_live_reaches_every_viewer() -> None:
    out = run("bench/bench_live.py", "--viewers", "20", "--moves", "6", "--interval", "0")
    assert "moves missed 0" in out and "20 viewers, 6 moves" in out


def test_bench_web_serves_the_board_and_the_match_pages() -> None:
    out = run("bench/bench_web.py", "--matches", "300", "--players", "20", "--runs", "5",
              "--deals", "3")
    assert "match page: 3 deals" in out
    for page in ("board page, players, all time", "board page, pairs, this week",
                 "match page, first view (nothing kept)",
                 "match page (replay at a random step)"):
        assert re.search(rf"{re.escape(page)} +median +[\d.]+ ms +p99 +[\d.]+ ms", out), out


def test_bench_mistakes_judges_another_level() -> None:
    # Easy plays 60 deals; hard_v1 is asked where it could err, hard where hard_v1 erred.
    out = json.loads(run("bench/mistakes.py", "--deals", "60", "--variant", "coinche",
                         "--driver", "easy", "--level", "hard_v1", "--judge", "hard",
                         "--positions"))
    assert out["asked"] > 0 and out["ten_ruffed"] == len(
        [p for p in out["positions"] if p["kind"] == "ten_ruffed"]) > 0
    assert all("judged" in p and p["actions"] for p in out["positions"])
    assert out["judge_ten_ruffed"] < out["ten_ruffed"]
