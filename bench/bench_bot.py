"""The bot under load: many tables playing at once through the fake Discord (tests/fakediscord).

    python bench/bench_bot.py [--tables 200] [--seconds 60] [--think 1 4]    # realistic load
    python bench/bench_bot.py --burst --rounds 30                             # stress case

The bot runs in a process of its own (as in production, where Discord's servers are elsewhere):
it gets its gateway events over a loopback socket and makes its REST calls to the fake over HTTP
(tests/fakediscord/remote.py). The fake Discord and the users' clicks run in this process.

Realistic load: every table has four people (with --mixed, every other table has one person
and three computers). When a player's DM shows their controls enabled
(their turn), they think for a uniform random time (--think, 1 to 4 s) and click a random enabled
control (a card, a bid button, a value in a bid menu); a forced card (their only legal one) they
leave to the bot, which plays it after its beat. With --computers N, N seats per table are
computers at their normal delay (COMPUTER_DELAY, 1 s). Burst (--burst): every table's player
clicks at the same instant, round after round: a stress figure, not normal play.

Reports, over the measured period:
- click-to-acknowledgement latency p50/p99/max: from the click's dispatch to the fake receiving
  the interaction callback (measured in this process; the bot cannot stall its clock, and this
  process's own garbage collection is held off while measuring: see --fake-gc), and the part
  of it inside the bot (from the click's event reaching it to its answer leaving) beside the
  answer's own request, and two parts of the inside: the action itself (the table's lock, the
  rules, the database; with its write to the log, the database's queue included, and how long
  every database call waited for the database's lock) and the new hand's image for the answer
  (the worker's queue and drawing);
- REST calls per card played and per action (bids and cards), how many count against Discord's
  global rate limit (interaction callbacks and webhooks do not), and the breakdown by kind;
- CPU time per action of the bot process, of its render worker processes and of this process
  (the fake and the players), and the bot's event-loop lag p50/p99 (a 10 ms sleeper), with its
  garbage collections (how many of each generation, and the longest pause of each);
- memory per live table: its state (tracemalloc while restoring every table from the database)
  and the hand images the bot keeps for its seats;
- calls counted against the global limit per second (mean and the busiest second), 429
  answers, and the bot's global budget (bot/budget.py): how many calls waited for their turn;
- from a click to the table message showing a change (the players' process watches it every
  20 ms; every click timed on its own, one the table message did not show before the next click
  included), and to the next person's hand showing their controls (tables of four people only:
  elsewhere the next person comes after computers), p50/p99; and, measured inside the bot, from
  each change of a table to the first edit of its message Discord accepted that shows it (by
  the log's sequence number: a message that changed may still show an older state); and the
  table message's figure again for the clicks after the first --settle seconds (30): at the
  start every person's first turn is an edit of their hand by the bot (no token of theirs yet);
- with --slow-callbacks MS: how busy the bot's event loop was (every callback timed), and the
  callbacks that held it longer than MS milliseconds, by coroutine (wall and CPU time);
- the longest garbage collection: its generation, wall and CPU time, and what it freed.
With --analysis: the servers' ``analysis`` setting on, and the bot's analysis worker (the
double-dummy solver, service/analysis.py, in its own process at niceness 19) kept busy for the
whole measured period on a shipped record's deal (tests/cli's classic one), job after job, as a
bot whose matches keep ending would keep it: the clicks' figures are then measured beside it,
and the deals it analysed and its CPU are reported.
With --answer-delay MIN MAX the fake Discord answers each request late (a slow Discord: see the
README's figures); the players' figures are measured when the fake receives a request, the
bot's own ("from a change ... Discord accepted") when the answer is back, late answer included.
A click deferred by the bot (interaction callback type 6: acknowledged, its answer completed
through the token) counts as answered, not refused.
Every table is started by a click on its message, whose token then edits that message for 15
minutes, outside the global limit; a run is shorter than that. --old-tables [SHARE] measures
tables past it (all, or that share of them): their tokens are forgotten before the clicks
start, and each of their table edits is a message edit under the global limit.
Targets (issue 4): ack p99 <= 100 ms; <= 3 calls per card, <= 2 global; lag p99 <= 25 ms;
<= 200 KB per table.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import io
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_load.bot_side import child
from bench.bot_load.figures import budget_limit, busiest, pct
from bench.bot_load.players import Players, kind_of, open_tables, scrape_metrics
from tests.fakediscord import FakeDiscord
from tests.fakediscord.remote import RemoteBot


async def run(args: argparse.Namespace) -> dict[str, float]:
    fake = FakeDiscord().start()
    fake.install()
    fake.keep_upload_bytes = False
    # The limits are off while the tables open: they are what is measured, the opening is
    # not, and its few hundred new DM channels (one bucket for the whole bot, 5 in 5 s in
    # the fake) would hold it to one new player a second. The bot's own budget still paces it.
    fake.rate_limits = False
    guild = fake.add_guild("Bench")
    channels = [guild.add_text_channel(f"t{t}") for t in range(args.tables)]
    db_path = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    argv = [sys.executable, __file__, "--child", str(db_path),
            "--computer-delay", str(args.computer_delay)]
    if args.profile:
        argv += ["--profile", args.profile]
    if args.slow_callbacks is not None:
        argv += ["--slow-callbacks", str(args.slow_callbacks)]
    if args.with_metrics:
        argv += ["--with-metrics"]
    remote = await RemoteBot.spawn(fake, argv)
    t0 = time.perf_counter()
    tables = await open_tables(fake, remote, guild, channels, args.computers, args.mixed)
    mix = "half of four people, half of one person and three computers" if args.mixed \
        else f"{4 - args.computers} people per table"
    print(f"{len(tables)} tables open and dealt in {time.perf_counter() - t0:.0f} s ({mix})",
          flush=True)

    if args.old_tables:
        old = set(await remote.call("forget_table_tokens", args.old_tables))
        for t in tables:
            t.old = t.id in old
        print(f"{len(old)} tables past their first 15 minutes (their Start click's token "
              "forgotten)")
    fake.rate_limits = args.rate_limits
    if args.answer_delay:
        low, high = args.answer_delay
        fake.answer_delay = functools.partial(random.Random(2).uniform, low, high)
    players = Players(fake, remote, seed=1)
    cards_before = await remote.call("cards")
    mark = fake.mark()
    if not args.fake_gc:
        # This process stands in for Discord's servers, and it keeps every request and every
        # version of every message: its full garbage collections grew to 100-250 ms pauses,
        # during which no answer of the bot's is received, and they were counted as the
        # bot's latency. What the setup made is frozen, and collection waits for the end.
        gc.collect()
        gc.freeze()
        gc.disable()
    if args.analysis:
        await remote.call("analysis_start")
    await remote.call("start")
    started = time.perf_counter()
    here = time.process_time()
    stop_watching = asyncio.Event()
    watcher = asyncio.create_task(players.watch_tables(tables, stop_watching))
    port = await remote.call("web_port") if args.with_metrics else None
    stop_scraping = asyncio.Event()
    scraper = asyncio.create_task(scrape_metrics(port, 1.0, stop_scraping)) \
        if port is not None else None
    if args.burst:
        await players.burst(tables, args.rounds)
        load = f"burst: every table clicks at once, {args.rounds} rounds"
    else:
        until = started + args.seconds
        await asyncio.gather(*(players.realistic(t, until, tuple(args.think)) for t in tables))
        load = (f"realistic: think time uniform {args.think[0]:g}-{args.think[1]:g} s, "
                f"{args.seconds:g} s")
    clicked_for = time.perf_counter() - started
    stop_scraping.set()
    scrapes = await scraper if scraper is not None else []
    await remote.settle(600)
    measured_for = time.perf_counter() - started
    stop_watching.set()
    await watcher
    probe = await remote.call("finish")
    here = time.process_time() - here
    analysed = await remote.call("analysis_finish") if args.analysis else None
    gc.enable()
    cards_after = await remote.call("cards")
    requests = fake.requests_to(since=mark)

    played = {k: cards_after.get(k, 0) - cards_before.get(k, 0) for k in cards_after}
    cards = played.get("play", 0)
    deals = played.pop("<deals>", 0)
    actions = sum(played.values())
    acked = [r.latency for r, _ in players.clicks if r.latency is not None]
    lost = len(players.clicks) - len(acked)
    # 7 answered with the new hand; 6 deferred (acknowledged in time, answer completed via
    # the token): both answered. Anything else is the bot saying no.
    refused = sum(1 for r, _ in players.clicks if r.callback_type not in (6, 7, None))
    deferred = sum(1 for r, _ in players.clicks if r.callback_type == 6)
    rest = len(requests)
    glob = sum(1 for r in requests if r.counts_against_global_limit)
    late = f"; answers {args.answer_delay[0]}-{args.answer_delay[1]} s late" \
        if args.answer_delay else ""
    print(f"load: {load}; {len(tables)} tables{late}")
    print(f"clicks: {len(players.clicks)} in {clicked_for:.1f} s "
          f"({len(players.clicks) / clicked_for:.0f}/s); actions applied: {actions} "
          f"(cards {cards}, new deals {deals}); unanswered {lost}, refused {refused}, "
          f"deferred {deferred}")
    if scrapes:
        print(f"metrics on: /metrics read {len(scrapes)} times (every second), "
              f"{scrapes[-1] / 1024:.1f} KB at the end")
    if acked:
        print(f"click-to-ack: p50 {pct(acked, .5) * 1000:.1f} ms, "
              f"p99 {pct(acked, .99) * 1000:.1f} ms, max {max(acked) * 1000:.1f} ms")
    # A bid and a card cost the same calls; dividing by cards alone would charge the bids'
    # calls to the cards, so the per-action figure is the cost of one card (or bid).
    print(f"REST calls per action (a card or a bid): {rest / max(1, actions):.2f} "
          f"({glob / max(1, actions):.2f} against the global limit); all calls over cards "
          f"played only: {rest / max(1, cards):.2f} ({glob / max(1, cards):.2f} global)")
    seconds = Counter(int(r.at) for r in requests if r.counts_against_global_limit)
    print(f"global-limited calls per second: {glob / max(1e-9, measured_for):.1f} mean over "
          f"{measured_for:.0f} s, {max(seconds.values(), default=0)} in the busiest second "
          f"(Discord's limit: 50); 429 answers: "
          f"{sum(1 for r in requests if r.status == 429)}; the bot's budget let "
          f"{probe['budget_taken']} calls through, {probe['budget_waited']} of them after "
          f"waiting their turn, {probe['budget_held']} global 429s held it")
    arrived = [r.at for r in requests if r.counts_against_global_limit]
    print(f"busiest rolling second of global-limited calls: {busiest(probe['sent'])} as the "
          f"bot's budget let them leave (its limit: {budget_limit()}), {busiest(arrived)} as "
          f"the fake Discord received them")
    if probe["inside"]:
        print(f"inside the bot, from a click's event to its answer leaving: p50 "
              f"{pct(probe['inside'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['inside'], .99) * 1000:.1f} ms; the answer's request: p50 "
              f"{pct(probe['answer'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['answer'], .99) * 1000:.1f} ms")
        print(f"  of it, the action (the table's lock, the rules, the database): p50 "
              f"{pct(probe['acting'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['acting'], .99) * 1000:.1f} ms (its write to the log, waiting for the "
              f"database included: p50 {pct(probe['logging'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['logging'], .99) * 1000:.1f} ms; of any database call, the wait for "
              f"the database's lock: p50 {pct(probe['lock_waits'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['lock_waits'], .99) * 1000:.1f} ms, {len(probe['lock_waits'])} "
              f"calls); the new hand's image: p50 "
              f"{pct(probe['hand_images'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['hand_images'], .99) * 1000:.1f} ms (of a hand job, in the hand "
              f"worker's pipe and process until its answer is read: p50 "
              f"{pct(probe['hand_worker'], .5) * 1000:.1f} ms, p99 "
              f"{pct(probe['hand_worker'], .99) * 1000:.1f} ms, {len(probe['hand_worker'])} "
              "jobs)")
    if probe["trips"]:
        trips = Counter(probe["trips"])
        print(f"trips to the database's thread: {trips.total() / max(1, actions):.2f} per "
              f"action ({trips.total()} in all)")
        for key, n in trips.most_common(12):
            print(f"    {n / max(1, actions):.3f} per action  {key} ({n})")
    limited = [r for r in requests if r.status == 429]
    if limited:
        routes = Counter(
            f"{r.method} {r.route}"
            f"{' (global)' if isinstance(r.response, dict) and r.response.get('global') else ''}"
            for r in limited)
        print("429 answers by route: " + ", ".join(f"{k}: {n}" for k, n in routes.most_common()))
    if players.to_table:
        print(f"click to the table message showing it: p50 "
              f"{pct(players.to_table, .5) * 1000:.0f} ms, p99 "
              f"{pct(players.to_table, .99) * 1000:.0f} ms ({len(players.to_table)} clicks; "
              f"{sum(len(t.unshown) for t in tables)} not shown yet when the run ended)")
        if probe["table_shown"]:
            print(f"    from a change (inside the bot) to the first edit showing it: p50 "
                  f"{pct(probe['table_shown'], .5) * 1000:.0f} ms, p99 "
                  f"{pct(probe['table_shown'], .99) * 1000:.0f} ms "
                  f"({len(probe['table_shown'])} changes; {probe['never_shown']} not shown "
                  "when the run ended)")
        for people, waits in sorted(players.to_table_by_people.items(), reverse=True):
            print(f"    at tables of {people} {'person' if people == 1 else 'people'}: p50 "
                  f"{pct(waits, .5) * 1000:.0f} ms, p99 {pct(waits, .99) * 1000:.0f} ms "
                  f"({len(waits)} clicks)")
        if len(players.to_table_by_age) > 1:
            for past, waits in sorted(players.to_table_by_age.items()):
                print(f"    at tables {'past' if past else 'in'} their first 15 minutes: p50 "
                      f"{pct(waits, .5) * 1000:.0f} ms, p99 {pct(waits, .99) * 1000:.0f} ms "
                      f"({len(waits)} clicks)")
        # The run's first seconds carry every person's first turn at their table, each an
        # edit of their hand by the bot (no click token of theirs yet) at the acting player's
        # priority: a start of the whole server at once, measured apart from what follows.
        later = [w for at, w in zip(players.to_table_when, players.to_table, strict=True)
                 if at >= started + args.settle]
        if later:
            print(f"    clicks after the first {args.settle:.0f} s: p50 "
                  f"{pct(later, .5) * 1000:.0f} ms, p99 {pct(later, .99) * 1000:.0f} ms "
                  f"({len(later)} clicks)")
        # The players' figure compares the message's text: a click after which the table
        # reads the same again (a person who led, the computers' run, the person to lead
        # again) counts until the next different text. The bot's figure (by the log's
        # sequence number) has no such blind spot.
        settled = [w for at, w in zip(probe["table_changed"], probe["table_shown"], strict=True)
                   if at >= args.settle]
        if settled:
            print(f"    changes after the first {args.settle:.0f} s (inside the bot): p50 "
                  f"{pct(settled, .5) * 1000:.0f} ms, p99 {pct(settled, .99) * 1000:.0f} ms "
                  f"({len(settled)} changes)")
    if players.to_hand:
        print(f"click to the next person's hand showing their controls: p50 "
              f"{pct(players.to_hand, .5) * 1000:.0f} ms, p99 "
              f"{pct(players.to_hand, .99) * 1000:.0f} ms ({len(players.to_hand)} clicks)")
    by_kind = Counter(kind_of(fake, r) for r in requests)
    for key, n in by_kind.most_common():
        print(f"    {n / max(1, cards):.3f} per card, {n / max(1, actions):.3f} per action"
              f"  {key} ({n})")
    errors = Counter(r.error_code or r.status for r in requests if r.status >= 400)
    if errors:
        print(f"    refused by the fake: {dict(errors)}")
    per = 1000 / max(1, actions)
    print(f"CPU per action: bot process {probe['cpu'] * per:.1f} ms "
          f"({probe['cpu'] / probe['wall'] * 100:.0f}% of a core), its render workers "
          f"{probe['workers'] * per:.1f} ms ({probe['workers'] / probe['wall'] * 100:.0f}%), "
          f"fake Discord and players {here * per:.1f} ms "
          f"({here / probe['wall'] * 100:.0f}%); {os.cpu_count()} cores")
    if analysed is not None:
        print(f"analysis worker (niceness 19) beside it: {analysed['deals']} deals analysed, "
              f"{analysed['cpu']:.0f} s of CPU ({analysed['cpu'] / probe['wall'] * 100:.0f}% "
              "of a core)")
    print(f"bot process event-loop lag: "
          f"p50 {probe['lag_p50'] * 1000:.1f} ms, p99 {probe['lag_p99'] * 1000:.1f} ms, "
          f"max {probe['lag_max'] * 1000:.1f} ms; garbage collections of the young, middle "
          f"and oldest (full) generations: {'/'.join(map(str, probe['gc_by_generation']))}, "
          f"the longest pause of each "
          f"{'/'.join(f'{t * 1000:.0f}' for t in probe['gc_max_by_generation'])} ms")
    if probe["gc_longest"]:
        generation, wall, cpu, collected = probe["gc_longest"]
        print(f"  the longest collection: generation {generation}, {wall * 1000:.0f} ms "
              f"({cpu * 1000:.0f} ms of it on the processor), {collected} objects freed")
    if probe["slow_callbacks"]:
        clock = probe["slow_callbacks"]
        slow = sorted(clock["slow"].items(), key=lambda kv: -kv[1][1])
        print(f"bot event loop: {clock['count']} callbacks, {clock['busy']:.1f} s of them "
              f"({clock['busy'] / probe['wall'] * 100:.0f}% of the time); over "
              f"{clock['threshold'] * 1000:g} ms: {sum(v[0] for _, v in slow)} callbacks, "
              f"{sum(v[1] for _, v in slow):.2f} s (CPU {sum(v[2] for _, v in slow):.2f} s)")
        for key, (n, w, c, longest) in slow[:25]:
            print(f"    {int(n):5d} x, {w * 1000:7.0f} ms (CPU {c * 1000:6.0f} ms), longest "
                  f"{longest * 1000:4.0f} ms  {key}")
    memory = await remote.call("memory")
    print(f"memory per live table: {(memory['per_table'] + memory['images_per_table']) / 1024:.1f}"
          f" KB: {memory['per_table'] / 1024:.1f} KB of table state ({memory['restored']} "
          f"tables restored; {memory['open']} still open) and "
          f"{memory['images_per_table'] / 1024:.1f} KB of kept hand images (they saved "
          f"{memory['image_hits']} of {memory['image_hits'] + memory['image_misses']} hand "
          "images since the start)")
    if args.profile:
        out = io.StringIO()
        pstats.Stats(args.profile, stream=out).sort_stats("cumulative").print_stats(40)
        print(out.getvalue())
    await fake.close_bots()
    fake.close()
    return {"ack_p99": pct(acked, .99) if acked else 0.0, "cpu_per_action": probe["cpu"] * per,
            "lag_p99": probe["lag_p99"], "actions": actions}


async def metrics_ab(args: argparse.Namespace) -> None:
    """The same load with metrics off and on, alternately (a shared machine's load drifts),
    each round a fresh fake and bot; then the figures side by side."""
    results: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    for n in range(args.metrics_ab):
        for on in (False, True):
            print(f"---- round {n + 1}, metrics {'on' if on else 'off'}", flush=True)
            args.with_metrics = on
            results[on].append(await run(args))
    print("---- metrics off / on (each round's figure; median of the rounds)")
    for key, label, scale, unit in (("ack_p99", "click-to-ack p99", 1000, "ms"),
                                    ("cpu_per_action", "bot CPU per action", 1, "ms"),
                                    ("lag_p99", "event-loop lag p99", 1000, "ms")):
        row = []
        for on in (False, True):
            values = [r[key] * scale for r in results[on]]
            row.append(f"{statistics.median(values):.1f} {unit} "
                       f"({', '.join(f'{v:.1f}' for v in values)})")
        print(f"{label}: off {row[0]}; on {row[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long the realistic load runs")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 4.0),
                        metavar=("MIN", "MAX"), help="a person's think time, seconds")
    parser.add_argument("--settle", type=float, default=30.0, metavar="SECONDS",
                        help="also report the table message's figure for clicks after the "
                             "first SECONDS of the run (once everyone has had a turn)")
    parser.add_argument("--burst", action="store_true",
                        help="stress: every table's player clicks at the same instant")
    parser.add_argument("--rounds", type=int, default=30, help="rounds of the burst")
    parser.add_argument("--computers", type=int, default=0, choices=range(4),
                        help="computer seats per table")
    parser.add_argument("--mixed", action="store_true",
                        help="every other table: one person and three computers")
    parser.add_argument("--computer-delay", type=float, default=1.0)
    parser.add_argument("--rate-limits", action="store_true",
                        help="apply Discord's rate limits in the fake")
    parser.add_argument("--answer-delay", type=float, nargs=2, metavar=("MIN", "MAX"),
                        help="a slow Discord: each answer leaves a uniform random MIN to MAX "
                             "seconds after its request was done (counted when it arrived)")
    parser.add_argument("--old-tables", type=float, nargs="?", const=1.0, default=0.0,
                        metavar="SHARE",
                        help="this share of the tables (all without SHARE) is past its "
                             "first 15 minutes: no click's token edits their message (each "
                             "of its edits counts against the global limit)")
    parser.add_argument("--analysis", action="store_true",
                        help="analysis on, its worker kept busy while measuring")
    parser.add_argument("--profile", help="cProfile the bot process into this file")
    parser.add_argument("--slow-callbacks", type=float, metavar="MS",
                        help="time every callback of the bot's event loop and list those "
                             "longer than MS milliseconds")
    parser.add_argument("--fake-gc", action="store_true",
                        help="let the fake Discord's process collect garbage while measuring "
                             "(its pauses then count as the bot's latency)")
    parser.add_argument("--with-metrics", action="store_true",
                        help="the bot serves /metrics (WEB_PORT), read every second")
    parser.add_argument("--metrics-ab", type=int, nargs="?", const=1, default=0,
                        metavar="ROUNDS",
                        help="run the load with metrics off then on, ROUNDS times each "
                             "(alternately), and print both figures side by side")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the bot's process: its database
    args = parser.parse_args()
    if args.child:
        child(args)
    elif args.metrics_ab:
        asyncio.run(metrics_ab(args))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
