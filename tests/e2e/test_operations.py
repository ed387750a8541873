"""What an operator reads, through the fake Discord: /metrics counts exactly the requests
Discord saw (by kind and status, with injected 429s, 5xx and an outage), /readyz says 503
while Discord is down and 200 once it is back, and no label names a member or a token."""

from __future__ import annotations

import io
import json
import logging
import re
import sys
from collections import Counter
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.logjson import use_json_lines
from bot.logs import setup_logging
from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord
from tests.fakediscord.recording import RecordedRequest

from .failing_discord import ManualClock, clocked_world, delivered
from .table_helpers import World, play_turn, start_one_deal_table

pytestmark = pytest.mark.usefixtures("instant_discord_retries")

CHANNEL_MESSAGES = re.compile(r"/channels/(\d+)/messages(/\d+)?")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: ManualClock) -> World:
    return await clocked_world(fake_discord, database_path, clock, web_port=0)


async def get(w: World, path: str) -> tuple[int, str]:
    # A connection closed after each request: no keep-alive task outlives the request.
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as s, \
            s.get(f"http://127.0.0.1:{w.bot.web.port}{path}") as r:
        return r.status, await r.text()


async def scrape(w: World) -> dict[str, list[tuple[dict[str, str], float]]]:
    status, text = await get(w, "/metrics")
    assert status == 200
    samples: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


def seen_by_discord(fake: FakeDiscord) -> Counter[tuple[str, str]]:
    """The fake's own record, in the metric's kinds: what each request was, by its answer."""
    out: Counter[tuple[str, str]] = Counter()
    for r in fake.requests:
        out[(kind_of(fake, r), status_of(r))] += 1
    return out


def kind_of(fake: FakeDiscord, r: RecordedRequest) -> str:
    if r.path.startswith("/interactions/"):
        return "interaction_answer"
    if r.path.startswith("/webhooks/"):
        return "token_edit" if r.method == "PATCH" else "followup"
    if r.path == "/users/@me/channels":
        return "dm"
    found = CHANNEL_MESSAGES.fullmatch(r.path)
    if found is not None and r.method in ("POST", "PATCH"):
        if fake.channel(int(found.group(1))).type == 1:
            return "dm"
        return "message_edit" if r.method == "PATCH" else "post"
    return "other"


def status_of(r: RecordedRequest) -> str:
    if r.status == 0:
        return "error"  # the connection was dropped: no answer
    if r.status == 429:
        return "429"
    return {2: "2xx", 4: "4xx", 5: "5xx"}[r.status // 100]


def counted(samples: dict[str, list[tuple[dict[str, str], float]]]) -> Counter[tuple[str, str]]:
    out: Counter[tuple[str, str]] = Counter()
    for labels, value in samples.get("belote_discord_requests_total", []):
        if value:
            out[(labels["kind"], labels["status"])] += int(value)
    return out


def value(samples: dict[str, list[tuple[dict[str, str], float]]], name: str,
          **labels: str) -> float:
    return sum(v for got, v in samples.get(name, [])
               if all(got.get(k) == want for k, want in labels.items()))


async def test_metrics_count_what_discord_saw_through_failures_and_an_outage(
        world: World, clock: ManualClock) -> None:
    fake, bot = world.fake, world.bot
    assert (await get(world, "/healthz"))[0] == 200
    status, body = await get(world, "/readyz")
    assert status == 200, body
    table_id = await start_one_deal_table(world)
    rng = RandomPlayer(3)
    for _ in range(4):
        await play_turn(world, table_id, rng)
    await delivered(world, clock)
    during_play = await scrape(world)
    assert counted(during_play) == seen_by_discord(fake)
    assert value(during_play, "belote_open_tables", state="playing", variant="classic") == 1
    assert value(during_play, "belote_actions_total", variant="classic") >= 4
    clicks = [i for i in fake.interactions() if i.type == 3 and i.callback_at is not None]
    assert value(during_play, "belote_answer_seconds_count", kind="click") == len(clicks)

    # Edits answered 429 and 5xx (discord.py tries a 5xx again itself), then an outage.
    fake.faults.fail("PATCH", None, status=429, times=2)
    fake.faults.fail("PATCH", None, status=503, times=3)
    for _ in range(2):
        await play_turn(world, table_id, rng)
        await delivered(world, clock)  # the next hand shows its turn, sent again
    outage = fake.faults.start_outage()
    await play_turn(world, table_id, rng)
    await fake.settle()
    assert bot.delivery.jobs.down
    status, body = await get(world, "/readyz")
    assert status == 503 and "Discord is failing" in body, body
    down = await scrape(world)
    assert value(down, "belote_discord_down") == 1
    assert value(down, "belote_discord_outages_total") == 1
    fake.faults.end_outage()
    await delivered(world, clock)
    status, body = await get(world, "/readyz")
    assert status == 200, body

    after = await scrape(world)
    seen = seen_by_discord(fake)
    assert counted(after) == seen
    assert seen[("token_edit", "429")] + seen[("message_edit", "429")] == 2
    assert sum(n for (_, s), n in seen.items() if s == "5xx") >= 3 + outage.failed
    assert value(after, "belote_discord_down") == 0
    # No label holds an id (a member, a channel, a message) or a token: kinds, states, shards.
    _, text = await get(world, "/metrics")
    assert fake.token not in text
    assert not re.search(r'="[^"]*\d{6,}[^"]*"', text)
    assert all(not i.token or i.token not in text for i in fake.interactions())


async def test_no_web_server_without_a_port(fake_discord: FakeDiscord,
                                            database_path: Path, clock: ManualClock) -> None:
    w = await clocked_world(fake_discord, database_path, clock)
    assert w.bot.web is None and w.bot.metrics is None


# A card as the game record writes it (JH, TS) or as a hand shows it (J♥, 10♠).
CARD = re.compile(r"(?<![\w.])(?:[789TJQKA][CDHS]|(?:10|[789JQKAVDR])[♣♦♥♠])(?!\w)")


async def test_json_log_lines_parse_and_show_no_hand(world: World, clock: ManualClock,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """LOG_LEVEL=DEBUG LOG_FORMAT=json, as bot/__main__.py sets them up."""
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    quieted = {name: logging.getLogger(name).level
               for name in ("discord.http", "discord.gateway", "aiosqlite")}
    monkeypatch.setattr(sys, "stderr", stream)
    setup_logging("DEBUG", world.fake.token)
    use_json_lines(1, "0")
    try:
        table_id = await start_one_deal_table(world)
        rng = RandomPlayer(4)
        for _ in range(8):
            await play_turn(world, table_id, rng)
        world.fake.faults.fail("PATCH", None, status=403)  # an INFO line about the table
        await play_turn(world, table_id, rng)
        await delivered(world, clock)
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name, was in quieted.items():
            logging.getLogger(name).setLevel(was)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) > 20
    for line in lines:
        assert {"time", "level", "logger", "message", "guild", "table", "shard"} <= set(line)
        assert not CARD.search(line["message"]), line
        assert world.fake.token not in json.dumps(line)
    about = [line for line in lines if line["table"] == table_id]
    assert about and all(line["guild"] == str(world.guild.id) for line in about)
    # A line that says which table it is about is tagged with it (the refused token's).
    said = [line for line in lines if line["message"].startswith(f"table {table_id}:")]
    assert said and all(line["table"] == table_id for line in said), said
