"""The bot under load: many tables playing at once through the fake Discord (tests/fakediscord).

    python bench/bench_bot.py [--tables 200] [--rounds 40] [--rate-limits]

Each round, the player to act at every table clicks at the same moment. Reports:
- click-to-acknowledgement latency (p50/p99), measured by the fake Discord on its own thread;
- REST calls per action (bids and cards) and per card played, and how many count against
  Discord's global rate limit (interaction callbacks and webhooks do not);
- event-loop lag p99 (a 10 ms sleeper's overshoot while the load runs);
- memory per live table (tracemalloc over restoring every table from the database).
Targets (issue 4): p99 ack <= 100 ms, <= 3 calls per card with <= 2 global, lag p99 <= 25 ms,
<= 200 KB per table.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import create_bot
from bot.components import button_id, encode_action, select_id
from bot.service import TableService
from game.actions import CoincheBid, Play
from game.players import RandomPlayer
from game.view import table_view
from tests.fakediscord import FakeDiscord


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def lag_sampler(samples: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append(time.perf_counter() - t - 0.01)


async def run(tables: int, rounds: int, rate_limits: bool) -> None:
    fake = FakeDiscord().start()
    fake.install()
    fake.keep_upload_bytes = False
    fake.rate_limits = rate_limits
    tmp = tempfile.mkdtemp()
    db_path = Path(tmp) / "bench.sqlite3"
    guild = fake.add_guild("Bench")
    bot = await fake.start_bot(create_bot, db_path, computer_delay=0)
    variants = ("classic", "coinche", "bulgarian")
    ids: list[int] = []
    members = {}
    for t in range(tables):
        channel = guild.add_text_channel(f"t{t}")
        four = [guild.add_member(f"p{t}_{i}") for i in range(4)]
        for m in four:
            members[m.id] = m
        r = await fake.slash(bot, four[0], channel, "belote new", variant=variants[t % 3])
        live = bot.service.table_of(guild.id, four[0].id)
        assert live is not None, r.text
        lobby = fake.message(live.row.message_id)
        for seat in (1, 2, 3):
            await fake.click(bot, four[seat], lobby, button_id("sit", live.id, seat))
        await fake.click(bot, four[0], lobby, button_id("start", live.id))
        ids.append(live.id)
    print(f"{tables} tables open and dealt", flush=True)

    rng = RandomPlayer(1)
    latencies: list[float] = []
    lag: list[float] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(lag_sampler(lag, stop))
    mark = fake.mark()
    cards = 0

    async def turn(table_id: int) -> bool:
        live = bot.service.live.get(table_id)
        if live is None:
            return False
        seat = live.match.to_act
        s = live.seats[seat]
        action = rng.choose(table_view(live.match, seat))
        code = encode_action(action)
        message = fake.message(s.dm_message_id)
        if isinstance(action, CoincheBid):
            result = await fake.select(bot, members[s.user_id], message,
                                       select_id("bid", table_id, live.seq, action.suit), [code])
        else:
            result = await fake.click(bot, members[s.user_id], message,
                                      button_id("act", table_id, live.seq, code))
        if result.latency is not None:
            latencies.append(result.latency)
        return isinstance(action, Play)

    started = time.perf_counter()
    for _ in range(rounds):
        played = await asyncio.gather(*(turn(t) for t in ids))
        cards += sum(played)
    elapsed = time.perf_counter() - started
    stop.set()
    await sampler
    requests = fake.requests_to(since=mark)
    rest = len(requests)
    global_rest = sum(1 for r in requests if r.counts_against_global_limit)
    card_mark_note = "(bids and cards together)"

    # Memory: restore every open table into a fresh service from the same database.
    open_now = len(bot.service.live)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    again = TableService(bot.service.db)
    restored = await again.restore()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    per_table = grown / max(1, len(restored))

    print(f"rounds: {rounds}, clicks: {len(latencies)}, cards played: {cards}, "
          f"in {elapsed:.1f} s ({len(latencies) / elapsed:.0f} clicks/s)")
    print(f"click-to-ack: p50 {pct(latencies, .5) * 1000:.1f} ms, "
          f"p99 {pct(latencies, .99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms")
    print(f"REST calls per action: {rest / max(1, len(latencies)):.2f} "
          f"({global_rest / max(1, len(latencies)):.2f} against the global limit) "
          f"{card_mark_note}")
    by_route: dict[str, int] = {}
    for r in requests:
        key = f"{r.method} {r.route}"
        by_route[key] = by_route.get(key, 0) + 1
    for key, n in sorted(by_route.items(), key=lambda kv: -kv[1]):
        print(f"    {n / max(1, len(latencies)):.2f} per action  {key}")
    print(f"event-loop lag: p50 {pct(lag, .5) * 1000:.1f} ms, p99 {pct(lag, .99) * 1000:.1f} ms")
    print(f"memory per live table: {per_table / 1024:.1f} KB "
          f"({len(restored)} tables restored; {open_now} still open)")
    await fake.close_bots()
    fake.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--rate-limits", action="store_true",
                        help="apply Discord's rate limits in the fake (slower, realistic)")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.rounds, args.rate_limits))


if __name__ == "__main__":
    main()
