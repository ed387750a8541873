"""The live table page on a process that does not run the table: two bot processes, one shard
each, over one PostgreSQL (tests/e2e/test_shards.py's set-up), both serving the pages. The
table of a server in shard 1 lives in shard 1's process; its page asked of shard 0's process is
read from the database and follows each move made at the owner, one poll after it (the poll's
interval on the injected clock, which the test moves), and never shows a card of a hand; a
lobby's seats follow too; the end of the match ends the stream and the polling; a wrong token
or table stays 404; a tournament's page there links its tables in play; a French "auto"
server's pages there are in French (the owner recorded its locale's language), in
Bulgarian once its preferred locale is changed, and in the language a moderator then chooses.

Every wait on the stream is bounded (2 s); nothing sleeps for timing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import discord
import pytest

from bot import create_bot
from bot.controls import button_id
from game.players import RandomPlayer
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord
from web.live import POLL

from .table_helpers import TABLE_SEED, World, open_table, start_table
from .test_shards import dm_turn
from .test_web import BASE, HOSTILE, get, site_of
from .test_web_live import hidden, stream
from .test_web_tournament import NAMES, settled


async def start_process(fake: FakeDiscord, url: str, shard: int) -> Any:
    return await fake.start_bot(create_bot, None, database_url=url, shard_count=2,
                                shards=str(shard), computer_delay=0, table_seed=TABLE_SEED,
                                web_port=0, web_base_url=BASE)


@pytest.fixture
async def two(fake_discord: FakeDiscord, postgres_url: str,
              table_clock: FakeClock) -> tuple[World, World]:
    """A server in shard 1 with four players and a moderator; the world of its owner (shard 1's
    process) and the same world seen through shard 0's process."""
    guild = fake_discord.add_guild("Cafe", shard=(1, 2))
    channel = guild.add_text_channel("belote")
    members = [guild.add_member(n) for n in ("ana", HOSTILE, "cy", "dee")]
    members.append(guild.add_member("mod", manage_guild=True))
    first = await start_process(fake_discord, postgres_url, 0)
    owner = await start_process(fake_discord, postgres_url, 1)
    return (World(fake_discord, owner, guild, channel, members),
            World(fake_discord, first, guild, channel, members))


async def tick(w: World, clock: FakeClock) -> None:
    """One poll interval passes (the click before it was answered once everything it made the
    owner do was done: its log and table message written); the poll it starts, a read of the
    database, runs to its end."""
    before = set(asyncio.all_tasks())
    clock.advance(POLL)
    await w.fake.settle(before)


async def test_a_move_at_the_owner_reaches_the_page_served_by_the_other_process(
        two: tuple[World, World], table_clock: FakeClock) -> None:
    owner, other = two
    table_id, _ = await start_table(owner, "classic", target=1)
    assert table_id not in other.bot.service.live  # shard 0's process does not run it
    live = owner.bot.service.live[table_id]
    root = await site_of(owner)
    status, html, headers, _ = await get(other, f"{root}table/{table_id}")
    assert status == 200 and headers["Cache-Control"] == "no-store"
    assert f"Table #{table_id}" in html and "South: ana" in html and "Deal 1" in html
    assert HOSTILE not in html and "&lt;script&gt;" in html
    for card in hidden(owner, table_id):
        assert card not in html
    token = root.split("/")[2]
    status, _, _, body = await get(other, f"/api/v1/{token}/table/{table_id}")
    api = json.loads(body)
    assert status == 200 and api["seq"] == live.seq and api["to_act"] == live.match.to_act

    poller = other.bot.live_poller
    rng, moves = RandomPlayer(3), 0
    async with stream(other, f"{root}table/{table_id}/events") as events:
        name, first, _ = await events.next()
        assert name == "state" and first["state"]["seq"] == live.seq
        assert poller.polled() == [table_id]
        # Nothing moved: the mark is read, the table not rebuilt, nothing sent.
        rebuilds = poller.rebuilds
        await tick(owner, table_clock)
        assert poller.rebuilds == rebuilds and poller.polls >= 1
        while table_id in owner.bot.service.live:
            assert (await dm_turn(owner, other.bot, table_id, rng)).callback_type == 7
            moves += 1
            await tick(owner, table_clock)
            name, event, raw = await events.next()
            state = event["state"]
            if table_id not in owner.bot.service.live:
                break
            assert name == "state" and state["seq"] == live.seq
            assert state["to_act"] == live.match.to_act
            assert state["scores"] == list(live.match.totals)
            for card in hidden(owner, table_id):
                assert card not in raw, card
            assert HOSTILE not in event["html"]
        assert name == "end" and event["state"]["status"] == "over"
        assert "win the match" in event["html"]
    assert moves > 8
    assert poller.polled() == []
    assert table_id not in other.bot.service.live  # shown, never run there
    # Once won, the page answers 404 there as at its owner.
    assert (await get(other, f"{root}table/{table_id}"))[0] == 404
    assert (await get(owner, f"{root}table/{table_id}"))[0] == 404


async def test_a_lobby_seen_from_the_other_process_follows_its_seats_and_bad_addresses_are_404(
        two: tuple[World, World], table_clock: FakeClock) -> None:
    owner, other = two
    table_id, lobby = await open_table(owner, owner.members[0], variant="bulgarian")
    root = await site_of(owner)
    async with stream(other, f"{root}table/{table_id}/events") as events:
        name, first, _ = await events.next()
        assert name == "state" and first["state"]["status"] == "lobby"
        assert [s["empty"] for s in first["state"]["seats"]] == [False, True, True, True]
        # A seat taken is no log entry: the table message shows it, which the mark follows.
        taken = await owner.fake.click(owner.bot, owner.members[2], lobby,
                                       button_id("sit", table_id, 2))
        assert taken.callback_type == 7, taken.text
        await tick(owner, table_clock)
        _, event, _ = await events.next()
        assert [s["name"] for s in event["state"]["seats"]][2] == "cy"
        assert "North: cy" in event["html"]
        # The host closes it: the stream ends, the table shown closed.
        ended = await owner.fake.slash(owner.bot, owner.members[0], owner.channel,
                                       "belote end", table=table_id)
        assert f"Table #{table_id} was ended" in ended.text
        await tick(owner, table_clock)
        name, event, _ = await events.next()
        assert name == "end" and event["state"]["status"] == "closed"
    token = root.split("/")[2]
    wrong = "A" * 22
    for path in (f"/s/{wrong}/table/{table_id}", f"/api/v1/{wrong}/table/{table_id}",
                 f"{root}table/{table_id}", f"{root}table/{table_id + 100}",
                 f"/api/v1/{token}/table/{table_id + 100}"):
        status, text, _, _ = await get(other, path)
        assert status == 404 and text == "404", path


async def test_a_tournament_seen_from_the_other_process_links_its_tables_in_play(
        fake_discord: FakeDiscord, postgres_url: str, table_clock: FakeClock) -> None:
    guild = fake_discord.add_guild("Cafe", shard=(1, 2))
    channel = guild.add_text_channel("belote")
    members = [guild.add_member(n) for n in NAMES]
    members.append(guild.add_member("mod", manage_guild=True))
    other = World(fake_discord, await start_process(fake_discord, postgres_url, 0), guild,
                  channel, members)
    owner = World(fake_discord, await start_process(fake_discord, postgres_url, 1), guild,
                  channel, members)
    r = await owner.fake.slash(owner.bot, members[-1], channel, "belote tournament new",
                               format="quick")
    assert r.message is not None
    for member in members[:8]:
        await owner.fake.click(owner.bot, member, r.message, "tn:join:1")
    await settled(owner)
    root = await site_of(owner)
    token = root.split("/")[2]
    status, _, _, body = await get(other, f"/api/v1/{token}/tournament/1")
    assert status == 200
    first = json.loads(body)["rounds"][0]["tables"]
    assert len(first) == 2 and all(t["live"] for t in first)  # in play, at the owner
    status, html, _, _ = await get(other, f"{root}tournament/1")
    for t in first:  # linked to their live page, which this process serves
        assert t["table"] not in other.bot.service.live
        assert f'href="{root}table/{t["table"]}"' in html
        assert (await get(other, f"{root}table/{t['table']}"))[0] == 200


async def test_an_auto_server_is_served_in_its_locale_language_by_the_other_process(
        fake_discord: FakeDiscord, postgres_url: str) -> None:
    guild = fake_discord.add_guild("Cafe", shard=(1, 2))
    guild.locale = "fr"  # its language setting stays "auto"
    channel = guild.add_text_channel("belote")
    members = [guild.add_member("mod", manage_guild=True)]
    other = World(fake_discord, await start_process(fake_discord, postgres_url, 0), guild,
                  channel, members)
    owner = World(fake_discord, await start_process(fake_discord, postgres_url, 1), guild,
                  channel, members)
    assert other.bot.get_guild(guild.id) is None  # no guild there: only what was recorded
    root = await site_of(owner)
    for w in (owner, other):
        status, html, _, _ = await get(w, root)
        assert status == 200 and '<html lang="fr">' in html and "Classements" in html
        assert "Belote classique" in html
    # Server Settings > Community: Bulgarian. The owner hears of it and records it.
    guild.set_locale("bg")
    await fake_discord.settle()
    assert owner.bot.get_guild(guild.id).preferred_locale is discord.Locale.bulgarian
    for w in (owner, other):
        status, html, _, _ = await get(w, root)
        assert status == 200 and '<html lang="bg">' in html and "Класации" in html
        assert "Classements" not in html
    # A locale the bot does not speak: English, there too.
    guild.set_locale("de")
    await fake_discord.settle()
    status, html, _, _ = await get(other, root)
    assert status == 200 and '<html lang="en">' in html and "Leaderboards" in html
    # A moderator chooses French at the owner (/belote config language): the other process,
    # which had read the settings for its pages before, follows at its next page.
    mod = members[0]
    result = await fake_discord.slash(owner.bot, mod, channel, "belote config", language="fr")
    assert result.responded
    assert (await owner.bot.guild_settings.get(guild.id)).language == "fr"
    status, html, _, _ = await get(other, root)
    assert status == 200 and '<html lang="fr">' in html and "Classements" in html
