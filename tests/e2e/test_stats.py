"""/belote leaderboard, stats, history and replay through the fake Discord: a match played to
the end moves the board and the stats; pages and periods; the replay's record file replays
the same with `belote replay`."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from belote_cli.cli import main as belote_main
from bot import answers, create_bot
from bot.controls import UNKNOWN_CONTROL
from db import MatchPlayer
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, open_table, play_out, seat_everyone

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def played(world: World, variant: str = "classic", **options: Any) -> int:
    fake, bot = world.fake, world.bot
    table_id, lobby = await open_table(world, world.members[0], variant=variant, **options)
    await seat_everyone(world, table_id, lobby, world.members[:4])
    start = await fake.click(bot, world.members[0], lobby, f"bt:start:{table_id}")
    assert start.responded
    assert await play_out(world, table_id, seed=3) > 0
    return table_id


async def test_a_match_played_to_the_end_moves_the_board_and_the_stats(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana = world.members[0]
    empty = await fake.slash(bot, ana, world.channel, "belote leaderboard")
    assert "no rated match yet" in empty.text
    table_id = await played(world, target=1)
    winner = await bot.service.db.results.winner_of(table_id)
    assert winner in (0, 1)
    board = await fake.slash(bot, ana, world.channel, "belote leaderboard", variant="classic")
    assert [a.filename.split(".")[0] for a in board.messages[-1].attachments] == ["leaderboard"]
    lines = [line for line in board.text.splitlines() if line[:2] in ("1.", "2.", "3.", "4.")]
    assert len(lines) == 4
    winners = {m.id for seat, m in enumerate(world.members[:4]) if seat & 1 == winner}
    # The winners rank first (the same rating for both partners), above 1000; losers below.
    for line in lines[:2]:
        rating = line.split("— ")[1].split(" (")[0]
        assert any(f"<@{u}>" in line for u in winners) and "," in rating  # 1,091
        assert int(rating.replace(",", "")) > 1000
    for line in lines[2:]:
        assert not any(f"<@{u}>" in line for u in winners)
    for seat, m in enumerate(world.members[:4]):
        stats = await fake.slash(bot, ana, world.channel, "belote stats", member=m)
        won = int(seat & 1 == winner)
        assert f"Matches: 1 · won {won} ({100 * won}%)" in stats.text, stats.text
        assert "Rating: " in stats.text and "none yet" not in stats.text
        assert [a.filename.split(".")[0] for a in stats.messages[-1].attachments] == ["rating"]
    pairs = await fake.slash(bot, ana, world.channel, "belote leaderboard", pairs=True)
    assert "no pair has played 5 rated matches together yet" in pairs.text
    week = await fake.slash(bot, ana, world.channel, "belote leaderboard", pairs=True,
                            period="week")
    assert week.text.count(" & ") == 2 and "of pairs: rating gained this week" in week.text
    history = await fake.slash(bot, ana, world.channel, "belote history")
    assert f"#{table_id} · " in history.text and ("· won" in history.text) == (winner == 0)
    opened = await fake.click(bot, world.members[1], history.message, f"rk:rp:{table_id}:0")
    assert opened.callback_type == 4 and not opened.ephemeral  # one request: no defer first
    assert f"**Match #{table_id}**" in opened.text


async def test_computers_count_in_stats_but_do_not_rate(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana = world.members[0]
    table_id, lobby = await open_table(world, ana, variant="classic", target=1, computers=True)
    await fake.click(bot, ana, lobby, f"bt:start:{table_id}")
    assert await play_out(world, table_id, seed=4) > 0
    board = await fake.slash(bot, ana, world.channel, "belote leaderboard")
    assert "no rated match yet" in board.text
    stats = await fake.slash(bot, ana, world.channel, "belote stats")
    assert "Matches: 1 · won" in stats.text and "none yet" in stats.text


async def record(world: World, users: tuple[int, int, int, int], winner: int) -> None:
    db = world.bot.service.db
    t = await db.tables.create(guild_id=world.guild.id, channel_id=world.channel.id,
                               host_id=users[0], variant="classic", options={}, private=False,
                               seed=1)
    await db.results.record_match(table_id=t.id, guild_id=world.guild.id, variant="classic",
                                  winner=winner, totals=(1001, 400), deals=4,
                                  players=[MatchPlayer(s, u, None) for s, u in enumerate(users)])


async def test_pages_turn_by_buttons_and_my_rank_shows_off_the_page(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    world = await make_world(fake_discord, database_path,
                             tuple(f"p{i:02d}" for i in range(16)))
    ids = [m.id for m in world.members]
    for i in range(0, 16, 4):  # four matches: 8 winners, 8 losers
        await record(world, (ids[i], ids[i + 1], ids[i + 2], ids[i + 3]), 0)
    loser = world.members[15]
    fake, bot = world.fake, world.bot
    first = await fake.slash(bot, loser, world.channel, "belote leaderboard")
    text = first.messages[-1].content
    assert "Page 1 of 2" in text and "10. " in text and "11. " not in text
    assert f"<@{loser.id}>: #16 — " in text  # off the page, shown below it
    nxt = await fake.click(bot, loser, first.messages[-1], label="Next")
    assert nxt.callback_type == 7  # one request: no defer first
    page2 = fake.message(first.messages[-1].id).content
    assert "Page 2 of 2" in page2 and "11. " in page2 and "16. " in page2
    assert f"<@{loser.id}>: #16" not in page2  # on the page now
    await fake.disconnect(bot)  # the buttons are persistent: they work after a restart
    world.bot = bot = await fake.start_bot(create_bot, database_path, computer_delay=0)
    restarted = fake.message(first.messages[-1].id)
    back = await fake.click(bot, loser, restarted, label="Previous")
    assert back.callback_type == 7 and "Page 1 of 2" in fake.message(restarted.id).content


async def test_periods_count_this_week_and_month(world: World) -> None:
    clock = Clock(T0)
    world.bot.service.db.results.clock = clock
    ana, bo, cy, dee = (m.id for m in world.members)
    await record(world, (ana, bo, cy, dee), 0)
    clock.now = T0 + timedelta(days=7)
    await record(world, (bo, ana, dee, cy), 0)  # bo and dee win this week
    fake, bot = world.fake, world.bot
    week = await fake.slash(bot, world.members[0], world.channel, "belote leaderboard",
                            period="week")
    assert "gained this week" in week.text
    first = next(line for line in week.text.splitlines() if line.startswith("1. "))
    assert f"<@{bo}>" in first or f"<@{dee}>" in first
    assert "— +" in first
    clock.now = T0 + timedelta(days=10)  # December: nothing yet this month
    month = await fake.slash(bot, world.members[0], world.channel, "belote leaderboard",
                             period="month")
    assert "no rated match yet" in month.text


async def test_replay_pages_and_its_file_replays_the_same(
        world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake, bot = world.fake, world.bot
    table_id = await played(world, "coinche", target=1)
    r = await fake.slash(bot, world.members[2], world.channel, "belote replay", match=table_id)
    message = r.messages[-1]
    names = sorted(a.filename for a in message.attachments)
    assert names[0] == f"belote-{table_id}.json" and names[1].startswith("deal")
    data = next(a.data for a in message.attachments if a.filename.endswith(".json"))
    path = tmp_path / "match.json"
    path.write_bytes(data)
    assert belote_main(["replay", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    live_winner = await bot.service.db.results.winner_of(table_id)
    assert summary["winner"] == live_winner
    deals = len(summary["deals"])
    assert f"deal 1 of {deals}" in message.content
    if deals > 1:
        await fake.click(bot, world.members[3], message, label="Next")
        assert f"deal 2 of {deals}" in fake.message(message.id).content
    missing = await fake.slash(bot, world.members[2], world.channel, "belote replay",
                               match=table_id + 99)
    assert missing.ephemeral and f"No finished match #{table_id + 99}" in missing.text


async def last_post(world: World, table_id: int) -> str:
    """The text of the last post in a table's thread (kept after the table is over)."""
    row = await world.bot.service.db.tables.get(table_id)
    assert row is not None and row.thread_id is not None
    return str(world.fake.messages(world.fake.channel(row.thread_id))[-1].content)


async def test_the_match_result_says_how_to_open_its_replay_and_analysis(world: World) -> None:
    # The result is the thread's last post before it is archived and locked, where a button
    # would be greyed out: the line names the command, which works from the channel.
    fake, bot = world.fake, world.bot
    table_id = await played(world, target=1)
    result = await last_post(world, table_id)
    assert result.splitlines()[-1].endswith(f"`/belote replay match:{table_id}`"), result
    r = await fake.slash(bot, world.members[2], world.channel, "belote replay", match=table_id)
    assert not r.ephemeral and "deal 1 of" in r.messages[-1].content
    assert "Analysis" in [b["label"] for b in r.messages[-1].buttons]


async def test_a_french_tables_result_names_the_replay_command_in_french(world: World) -> None:
    table_id = await played(world, target=1, language="fr")
    result = await last_post(world, table_id)
    assert "**Analyse**" in result and f"`/belote revoir partie:{table_id}`" in result, result


async def test_a_french_server_reads_its_leaderboard_and_stats_in_french(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    # Posted for everybody, the board, its page buttons, stats and history speak the server's
    # language (its setting, here French), as its tables do.
    world = await make_world(fake_discord, database_path,
                             tuple(f"p{i:02d}" for i in range(16)))
    fake, bot = world.fake, world.bot
    await bot.guild_settings.change(world.guild.id, {"language": "fr"}, [])
    ids = [m.id for m in world.members]
    for i in range(0, 16, 4):
        await record(world, (ids[i], ids[i + 1], ids[i + 2], ids[i + 3]), 0)
    p00 = world.members[0]
    board = await fake.slash(bot, p00, world.channel, "belote leaderboard")
    text = board.messages[-1].content
    assert "Classement" in text and "Page 1 sur 2" in text, text
    nxt = await fake.click(bot, p00, board.messages[-1], label="Suivant")
    assert nxt.callback_type == 7 and "Page 2 sur 2" in fake.message(board.messages[-1].id).content
    stats = await fake.slash(bot, p00, world.channel, "belote stats")
    assert "Parties" in stats.text and "gagnées" in stats.text, stats.text
    history = await fake.slash(bot, p00, world.channel, "belote history")
    assert "Dernières parties de" in history.text and "gagnée" in history.text, history.text


async def test_forged_stats_buttons_are_answered_as_unknown(world: World) -> None:
    """The template checks only the characters: wrong parts get the unknown-control answer,
    privately, and nothing else happens."""
    fake, bot, ana = world.fake, world.bot, world.members[0]
    forged = ("rk:lb:nope:all:0:0", "rk:lb:classic:all:0", "rk:rp:abc", "rk:rp:1:2:3")
    view = discord.ui.View(timeout=None)  # as a modified client could send them
    for custom_id in forged:
        view.add_item(discord.ui.Button(label=custom_id, custom_id=custom_id))
    old = await bot.get_partial_messageable(world.channel.id).send("old", view=view)
    for custom_id in forged:
        mark = fake.mark()
        r = await fake.click(bot, ana, old.id, custom_id)
        assert r.callback_type == 4 and r.ephemeral, custom_id
        assert r.content == UNKNOWN_CONTROL and not r.rejected, custom_id
        assert len(fake.requests_to(since=mark)) == 1, custom_id


async def test_a_slow_page_is_acknowledged_then_shown(
        fake_discord: FakeDiscord, database_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page button's answer is armed as the click arrives: a page slow to make (the
    database, the image) is deferred first, then the same message shows it."""
    world = await make_world(fake_discord, database_path,
                             tuple(f"p{i:02d}" for i in range(16)))
    ids = [m.id for m in world.members]
    for i in range(0, 16, 4):
        await record(world, (ids[i], ids[i + 1], ids[i + 2], ids[i + 3]), 0)
    fake, bot, someone = world.fake, world.bot, world.members[3]
    board = (await fake.slash(bot, someone, world.channel, "belote leaderboard")).answer
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    nxt = await fake.click(bot, someone, board, label="Next")
    assert nxt.callback_type == 6  # deferred, then edited
    assert "Page 2 of 2" in fake.message(board.id).content
    assert not nxt.rejected and not nxt.followups
