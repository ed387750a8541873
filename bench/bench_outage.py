"""Recovery after a Discord outage: how long from Discord answering again to every table and hand
showing the newest state, and the requests it took, within Discord's rate limits.

    python bench/bench_outage.py [--tables 200] [--outage 60]

Every table has one person (South) and three computers (acting at once), so each person is to
act when the outage starts. Discord then fails every request with a 503 for --outage seconds
(real ones: the bot's probes and turn timers run on the real clock here). During it, every
person clicks a card or a bid: the service applies it, the computers answer, and nothing of it
reaches Discord. Then Discord answers again, with its rate limits on (50 requests per second
globally, 5 per 5 s per channel), and the bot brings every table message and every person's DM
up to date on its own.

Reports: the time from Discord back to the last table and hand showing the newest state (what
the fake Discord holds, compared with what the bot would show), the requests sent in that time
by answer (200, 429, 503) and by kind, the busiest second of calls counted against the global
limit, how many calls the bot's global budget (bot/budget.py) held back, and the bot's INFO
line about the recovery.
Target (issue 18): under 10 s for 200 tables after a 60 s outage.

The fake Discord runs on a thread of this process (not in a process of its own as in
bench_bot.py): its answers compete with the bot for the interpreter, so the figure errs high.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import create_bot, layout, messages
from bot.bot import BeloteBot
from bot.controls import button_id, encode_action, select_id
from game.actions import CoincheBid
from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord

WAITING = re.compile(r"Waiting for [^\n]*")


class Recovery(logging.Handler):
    """Keeps the bot's outage lines."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if "Discord answered again" in text or "Discord is failing" in text:
            self.lines.append(text)


def enabled(components: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for c in components:
        if "custom_id" in c and not c.get("disabled"):
            out.append(c["custom_id"])
        out += enabled(c.get("components", []))
    return out


def stale(fake: FakeDiscord, bot: Any, live: Any) -> list[str]:
    """What the fake Discord shows of this table that is not its newest state."""
    out = []
    view = live.view()
    table = fake.message(live.row.message_id)
    if table.content != messages.table_text(live, view):
        out.append(f"table {live.id}")
    s = live.seats[0]
    hand = live.view(0)
    dm = fake.message(s.dm_message_id)
    controls = layout.hand_controls(live, hand)
    want = enabled(controls.to_components()) if controls is not None else []
    if WAITING.sub("", dm.content) != WAITING.sub("", messages.hand_text(live, hand)) or \
            enabled(dm.components) != want:
        out.append(f"hand {live.id}")
    return out


async def open_tables(fake: FakeDiscord, bot: Any, guild: Any, n: int,
                      turn_timer: int | None = None) -> list[tuple[int, Any]]:
    """``n`` started tables of one person and three computers (``turn_timer``: the person's
    seconds to act, if any)."""
    # A server allows 50 open tables by default: this one, the most the setting takes.
    await bot.guild_settings.change(guild.id, {"max_tables_server": 1000})
    channels = [guild.add_text_channel(f"belote-{i}") for i in range((n + 4) // 5)]
    people = [guild.add_member(f"p{t}") for t in range(n)]
    timer: dict[str, Any] = {} if turn_timer is None else {"turn_timer": turn_timer}

    # Twenty channels at a time: all 200 of 1,000 tables at once overran the bot on 2 cores
    # (start clicks answered past Discord's deadline).
    gate = asyncio.Semaphore(20)

    async def open_in(channel: Any, here: list[Any]) -> None:
        async with gate:
            for person in here:
                r = await fake.slash(bot, person, channel, "belote new", variant="classic",
                                     target=501, computers=True, **timer)
                assert r.callback_type == 5, r.text
                live = bot.service.table_of(guild.id, person.id)
                r = await fake.click(bot, person, fake.message(live.row.message_id),
                                     button_id("start", live.id))
                assert r.callback_type in (6, 7), r.text  # 6: deferred on a busy machine

    # Channels side by side: one after another, each table waited for its channel's message
    # edits (one a second, bot/pacing.py), and 1,000 tables took most of an hour.
    await asyncio.gather(*(open_in(channel, people[i * 5:i * 5 + 5])
                           for i, channel in enumerate(channels)))
    return [(bot.service.table_of(guild.id, p.id).id, p) for p in people]


async def click_during_outage(fake: FakeDiscord, bot: Any, table_id: int, person: Any,
                              rng: RandomPlayer) -> bool:
    live = bot.service.live[table_id]
    if live.match.to_act != 0:
        return False
    action = rng.choose(live.view(0))
    code = encode_action(action)
    dm = fake.message(live.seats[0].dm_message_id)
    if isinstance(action, CoincheBid):
        await fake.select(bot, person, dm, select_id("bid", table_id, live.seq, action.suit),
                          [code], wait=False)
    else:
        await fake.click(bot, person, dm, button_id("act", table_id, live.seq, code),
                         wait=False)
    return True


async def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    recovery = Recovery()
    logging.getLogger("bot.outbox").addHandler(recovery)
    logging.getLogger("bot.outbox").setLevel(logging.INFO)
    fake = FakeDiscord().start()
    fake.install()
    fake.keep_upload_bytes = False
    fake.settle_timeout = 600
    fake.callback_deadline = 30.0  # while opening tables: the first images are slow to warm
    fake.settle_ignores.append(lambda task: any(b.delivery.jobs.parked(task)
                                                for b in list(fake._bots)
                                                if isinstance(b, BeloteBot)))
    with tempfile.TemporaryDirectory() as tmp:
        guild = fake.add_guild("Bench")
        bot = await fake.start_bot(create_bot, Path(tmp) / "bench.sqlite3", computer_delay=0)
        t = time.monotonic()
        tables = await open_tables(fake, bot, guild, args.tables)
        await fake.settle()
        print(f"{len(tables)} tables open in {time.monotonic() - t:.0f} s")
        fake.callback_deadline = 3.0  # Discord's: answers retried past it are refused

        rng = RandomPlayer(args.seed)
        outage = fake.faults.start_outage()
        down = time.monotonic()
        clicked = 0
        for table_id, person in tables:
            clicked += await click_during_outage(fake, bot, table_id, person, rng)
        await asyncio.sleep(max(0.0, args.outage - (time.monotonic() - down)))
        lives = [bot.service.live[t] for t, _ in tables if t in bot.service.live]
        moved = sum(1 for live in lives if live.seq)  # every table changed during it
        print(f"outage: {args.outage:.0f} s, {clicked} clicks applied during it, "
              f"{outage.failed} requests failed")

        fake.rate_limits = args.rate_limits
        mark = fake.mark()
        budget = bot.delivery.jobs.budget
        taken, waited = budget.taken, budget.waited
        fake.faults.end_outage()
        back = time.monotonic()
        while True:
            if not bot.delivery.jobs.pending() and not bot.delivery.jobs.down:
                left = [x for live in lives for x in stale(fake, bot, live)]
                if not left:
                    break
            if time.monotonic() - back > args.limit:
                left = [x for live in lives for x in stale(fake, bot, live)]
                print(f"NOT RECOVERED after {args.limit:.0f} s: {len(left)} stale: {left[:10]}")
                break
            await asyncio.sleep(0.05)
        took = time.monotonic() - back
        requests = fake.requests_to(since=mark)
        by_status = Counter(r.status for r in requests)
        by_kind = Counter(f"{r.method} {r.route}" for r in requests)
        print(f"recovered: {len(lives)} tables ({moved} changed), {took:.1f} s from Discord "
              f"back to every table and hand showing the newest state")
        print(f"requests: {len(requests)} ({dict(sorted(by_status.items()))}); by kind:")
        for kind, count in by_kind.most_common():
            print(f"  {count:5d}  {kind}")
        per_second = Counter(int(r.at - back) for r in requests if r.counts_against_global_limit)
        print(f"global-limited requests: {max(per_second.values(), default=0)} in the busiest "
              f"second; the bot's budget let {budget.taken - taken} through, "
              f"{budget.waited - waited} of them after waiting their turn")
        for line in recovery.lines:
            print(f"bot: {line}")
        await fake.close_bots()
    fake.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--outage", type=float, default=60.0, help="seconds Discord is down")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=120.0,
                        help="give up when not recovered after this many seconds")
    parser.add_argument("--no-rate-limits", dest="rate_limits", action="store_false",
                        help="Discord's rate limits off after the outage")
    args = parser.parse_args()
    random.seed(args.seed)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
