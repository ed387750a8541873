"""A restart with many open tables: how long until the bot is ready and has sent what it must,
and the REST calls it took, when nothing changed while it was down.

    python bench/bench_restart.py [--tables 1000]

Every table has one person (South) and three computers (acting at once), opened and started
through the fake Discord (tests/fakediscord) in this process, so every table message and hand
was confirmed by Discord before the stop. The bot then stops and starts again on the same
database. Reports: the time from the new bot's start to it being connected with every table
restored, and to it having nothing left to do (settled); the REST calls from the start, per
table, by kind (what counts against Discord's global limit, and the command sync and login
calls every start makes); how many images it rendered.
With --turn-timer, each person's turn has a deadline: a restart keeps the deadlines still far
enough ahead (nothing to edit), and gives anew those that passed or came near.
Target (issue 13): ready in under 5 s with 1,000 tables, under 0.1 REST calls per table.

The fake Discord runs on a thread of this process: its answers compete with the bot for the
interpreter, so the figures err high.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_outage import open_tables
from bot import create_bot
from service.tables.state import TURN_TIMERS
from tests.fakediscord import FakeDiscord


async def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    fake = FakeDiscord().start()
    fake.install()
    fake.keep_upload_bytes = False
    fake.settle_timeout = 1200
    fake.callback_deadline = 30.0  # while opening tables: the first images are slow to warm
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        guild = fake.add_guild("Bench")
        bot = await fake.start_bot(create_bot, path, computer_delay=0)
        t = time.monotonic()
        tables = await open_tables(fake, bot, guild, args.tables, args.turn_timer)
        await fake.settle()
        print(f"{len(tables)} tables open in {time.monotonic() - t:.0f} s")
        await fake.disconnect(bot)

        fake.rate_limits = True
        mark = fake.mark()
        start = time.monotonic()
        profile = cProfile.Profile() if args.profile else None
        if profile is not None:  # the bot's thread only: the fake Discord's is not counted
            profile.enable()
        bot = await fake.start_bot(create_bot, path, computer_delay=0)
        ready = time.monotonic() - start
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        await fake.settle()
        settled = time.monotonic() - start
        requests = fake.requests_to(since=mark)
        glob = [r for r in requests if r.counts_against_global_limit]
        uploads = sum(len(r.files) for r in requests)
        n = len(bot.service.live)
        timed = sum(1 for live in bot.service.live.values() if live.deadline is not None)
        print(f"restart with {n} open tables ({timed} with a turn deadline running): connected "
              f"and restored in {ready:.2f} s, settled in {settled:.2f} s")
        print(f"REST calls: {len(requests)} ({len(requests) / max(1, n):.3f} per table), "
              f"{len(glob)} against the global limit; {uploads} images uploaded; "
              f"429 answers: {sum(1 for r in requests if r.status == 429)}")
        for kind, count in Counter(f"{r.method} {r.route}" for r in requests).most_common():
            print(f"  {count:5d}  {kind}")
        await fake.close_bots()
    fake.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--turn-timer", type=int, choices=TURN_TIMERS, metavar="SECONDS",
                        help="give each person a turn timer (the restart comes before the first "
                             "deadline is near only if the tables open quickly enough)")
    parser.add_argument("--profile", metavar="FILE",
                        help="write a cProfile of the restart (until ready) to FILE")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
