"""This process of bench_bot: the fake Discord's tables and the people who play at them
(each thinks, then clicks an enabled control of their hand), and what each request was."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from typing import Any, cast

import discord

from tests.fakediscord import FakeDiscord, FakeMember, FakeMessage, InteractionResult
from tests.fakediscord.remote import RemoteBot

from .figures import VARIANTS


async def scrape_metrics(port: int, every: float, stop: asyncio.Event) -> list[int]:
    """Read /metrics every ``every`` seconds, as Prometheus would (more often: its default is
    15 s), until ``stop``; the size of each answer."""
    import aiohttp

    sizes: list[int] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as s:
        while not stop.is_set():
            async with s.get(f"http://127.0.0.1:{port}/metrics") as r:
                assert r.status == 200
                sizes.append(len(await r.read()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
    return sizes


# ---- this process: the fake Discord and the players --------------------------------------
class Table:
    def __init__(self, table_id: int, message_id: int, humans: list[FakeMember]) -> None:
        self.id = table_id
        self.message_id = message_id
        self.humans = humans
        self.hand_message: dict[int, int] = {}  # member id -> their DM hand message
        self.old = False  # past its first 15 minutes (--old-tables): no token edits its message
        self.last_seq = -1
        self.clicked_at: float | None = None  # the last click (for the next person's hand)
        # Every click the table message has not shown yet: when it came, and what the table
        # message said then. Each is timed on its own, so a click followed by another before
        # the table changed (the ones that waited longest) is counted too.
        self.unshown: list[tuple[float, str]] = []


def controls(message: FakeMessage, table_id: int) -> list[dict[str, Any]]:
    """The enabled action controls (cards, bids) this table's hand message shows."""
    prefixes = (f"bt:act:{table_id}:", f"bs:bid:{table_id}:")
    return [c for c in message.walk_components()
            if c.get("type") in (2, 3) and not c.get("disabled")
            and str(c.get("custom_id", "")).startswith(prefixes)]


class Players:
    def __init__(self, fake: FakeDiscord, remote: RemoteBot, seed: int) -> None:
        self.fake = fake
        self.remote = remote
        # The fake's driver takes a discord.Client; it treats a RemoteBot as a connected bot.
        self.as_bot = cast(discord.Client, remote)
        self.rng = random.Random(seed)
        self.clicks: list[tuple[InteractionResult, str]] = []
        self.to_table: list[float] = []  # click -> the table message changed
        self.to_table_by_people: dict[int, list[float]] = {}  # the same, by people at the table
        self.to_table_by_age: dict[bool, list[float]] = {}  # the same, by Table.old
        self.to_table_when: list[float] = []  # when each of those clicks came
        self.to_hand: list[float] = []  # click -> the next person's controls (4 people)
        # Each hand message's controls, kept until an edit replaces its components: players
        # look every 20 ms, and walking 800 messages' components that often took a third of
        # this process's CPU, which the bot's process shares on a small machine.
        self._seen: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}

    def controls(self, message: FakeMessage, table_id: int) -> list[dict[str, Any]]:
        seen = self._seen.get(message.id)
        if seen is None or seen[0] is not message.components:
            seen = self._seen[message.id] = (message.components, controls(message, table_id))
        return seen[1]

    def turn(self, table: Table) -> tuple[FakeMember, int, int] | None:
        """(member, hand message id, seq) of the player whose controls are up, if any."""
        for m in table.humans:
            mid = table.hand_message.get(m.id)
            if mid is None:
                continue
            found = self.controls(self.fake.message(mid), table.id)
            if found:
                seq = int(found[0]["custom_id"].split(":")[3])
                if seq > table.last_seq:
                    return m, mid, seq
        return None

    def forced(self, table: Table, found: tuple[FakeMember, int, int]) -> bool:
        """Whether the hand's one enabled control is a card: the rules leave it alone, and
        the bot plays it by itself (autoplay, on by default)."""
        up = self.controls(self.fake.message(found[1]), table.id)
        return len(up) == 1 and ":play." in str(up[0]["custom_id"])

    def over(self, table: Table) -> bool:
        return "win the match" in self.fake.message(table.message_id).content

    async def wait_turn(self, table: Table, until: float) -> tuple[FakeMember, int, int] | None:
        while time.perf_counter() < until:
            found = self.turn(table)
            if found is not None:
                if table.clicked_at is not None and len(table.humans) == 4:
                    self.to_hand.append(time.perf_counter() - table.clicked_at)
                table.clicked_at = None
                return found
            if self.over(table):
                return None
            await asyncio.sleep(0.02)
        return None

    async def click(self, table: Table, member: FakeMember, mid: int, seq: int) -> None:
        """A random enabled control: a card, a bid button, or a value in a bid menu."""
        table.last_seq = seq
        table.clicked_at = time.perf_counter()
        table.unshown.append((table.clicked_at, self.fake.message(table.message_id).content))
        message = self.fake.message(mid)
        choice = self.rng.choice(controls(message, table.id))
        if choice["type"] == 3:
            value = self.rng.choice(choice["options"])["value"]
            r = await self.fake.select(self.as_bot, member, message, choice["custom_id"],
                                       [value], wait=False)
            self.clicks.append((r, "bid"))
        else:
            r = await self.fake.click(self.as_bot, member, message, choice["custom_id"],
                                      wait=False)
            self.clicks.append((r, "card" if ":play." in choice["custom_id"] else "bid"))

    async def watch_tables(self, tables: list[Table], stop: asyncio.Event) -> None:
        """Every 20 ms: the clicks whose table message changed since they came."""
        while not stop.is_set():
            now = time.perf_counter()
            for t in tables:
                if not t.unshown:
                    continue
                content = self.fake.message(t.message_id).content
                waiting = [(at, before) for at, before in t.unshown if before == content]
                if len(waiting) < len(t.unshown):
                    came = [at for at, before in t.unshown if before != content]
                    shown = [now - at for at in came]
                    self.to_table.extend(shown)
                    self.to_table_when.extend(came)
                    self.to_table_by_people.setdefault(len(t.humans), []).extend(shown)
                    self.to_table_by_age.setdefault(t.old, []).extend(shown)
                    t.unshown = waiting
            await asyncio.sleep(0.02)

    async def realistic(self, table: Table, until: float, think: tuple[float, float]) -> None:
        while True:
            found = await self.wait_turn(table, until)
            if found is None:
                return
            if self.forced(table, found):
                # Their only legal card: the bot plays it for them after its beat (0.8 s,
                # FORCED_DELAY), and a person sees it go rather than clicking it 1-4 s later
                # (such a click comes after the card was played: refused as out of date).
                table.last_seq = found[2]
                continue
            await asyncio.sleep(self.rng.uniform(*think))
            if time.perf_counter() >= until:
                return
            if self.turn(table) != found:
                continue  # the hand changed while they thought (sent again, a timer): look again
            await self.click(table, *found)

    async def burst(self, tables: list[Table], rounds: int) -> None:
        for _ in range(rounds):
            deadline = time.perf_counter() + 10
            turns = await asyncio.gather(*(self.wait_turn(t, deadline) for t in tables))
            pairs = zip(tables, turns, strict=True)
            await asyncio.gather(*(self.click(t, *found) for t, found in pairs if found))
            await self.remote.settle()


async def open_tables(fake: FakeDiscord, remote: RemoteBot, guild: Any, channels: list[Any],
                      computers: int, mixed: bool = False, at_once: int = 50) -> list[Table]:
    """/belote new, sit, (computers), start: through the bot, ``at_once`` tables at a time.

    Each step waits for its own answer only (the lobby posted, the click answered), not for
    the whole bot to be idle: a bot opening many tables is never idle, and waiting for it
    after every click made the opening of 200 tables take ten minutes. Once all are started,
    the bot settles once and each person's hand is looked up."""
    # A server allows 50 open tables by default: a moderator raises it to the most it takes.
    mod = guild.add_member("bench-mod", manage_guild=True)
    await fake.slash(remote, mod, channels[0], "belote config",  # type: ignore[arg-type]
                     max_tables_server=1000, wait=False)
    await remote.settle(600)
    gate = asyncio.Semaphore(at_once)

    async def until(ready: Callable[[], Any], what: str) -> Any:
        deadline = time.perf_counter() + 600
        while not (found := ready()):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"opening the tables: {what} never happened")
            await asyncio.sleep(0.02)
        return found

    async def click(who: Any, lobby: Any, custom_id: str) -> None:
        r = await fake.click(remote, who, lobby, custom_id, wait=False)  # type: ignore
        await until(lambda: r.responded, f"an answer to {custom_id}")
        if r.callback_type not in (6, 7):
            raise RuntimeError(f"opening the tables: {custom_id} refused: {r.text}")

    def lobby_of(channel: Any) -> Any:
        return next((m for th in fake.threads(channel) for m in fake.messages(th)
                     if any(c.startswith("bt:sit:") for c in m.custom_ids)), None)

    async def one(t: int) -> tuple[int, Any, list[Any]]:
        async with gate:
            channel = channels[t]
            cpus = 3 if mixed and t % 2 else computers
            people = [guild.add_member(f"p{t}_{i}") for i in range(4 - cpus)]
            await fake.slash(remote, people[0], channel, "belote new",  # type: ignore[arg-type]
                             variant=VARIANTS[t % 3], wait=False)
            lobby = await until(lambda: lobby_of(channel), f"the lobby of table {t}")
            table_id = int(next(c for c in lobby.custom_ids
                                if c.startswith("bt:sit:")).split(":")[2])
            for seat, who in enumerate(people[1:], start=1):
                await click(who, lobby, f"bt:sit:{table_id}:{seat}")
            for seat in range(4 - cpus, 4):
                await click(people[0], lobby, f"bt:cpu:{table_id}:{seat}")
            await click(people[0], lobby, f"bt:start:{table_id}")
            return table_id, lobby, people

    opened = await asyncio.gather(*(one(t) for t in range(len(channels))))
    await remote.settle(600)  # every hand sent
    out = []
    for table_id, lobby, people in opened:
        table = Table(table_id, lobby.id, people)
        for m in people:
            dms = [d for d in fake.dm_messages(m) if any(
                c.startswith((f"bt:act:{table_id}:", f"bs:bid:{table_id}:"))
                for c in d.custom_ids) or f"table #{table_id}" in d.content]
            if dms:
                table.hand_message[m.id] = dms[-1].id
        out.append(table)
    return out


def kind_of(fake: FakeDiscord, r: Any) -> str:
    """A short name for what a request did."""
    if r.route.startswith("/interactions/"):
        body = r.json if isinstance(r.json, dict) else {}
        return f"interaction callback type {body.get('type')}"
    edited = fake.edited_message(r)
    if r.route.startswith("/webhooks/") and edited is not None:
        message = fake.message(edited)
        where = "DM hand" if fake.channel(message.channel_id).guild is None else \
            "private hand" if message.ephemeral else "table message"
        return f"edit {where} through a click's token"
    if r.route.startswith("/webhooks/"):
        return f"webhook {r.method} (ephemeral/follow-up)"
    if r.route == "/channels/{channel_id}/messages/{message_id}" and r.method == "PATCH":
        cid = int(r.path.split("/")[2])
        dm = fake.channel(cid).guild is None
        return "edit DM hand" if dm else "edit table message"
    if r.route == "/channels/{channel_id}/messages" and r.method == "POST":
        cid = int(r.path.split("/")[2])
        return "new DM message" if fake.channel(cid).guild is None else "post in thread"
    return f"{r.method} {r.route}"
