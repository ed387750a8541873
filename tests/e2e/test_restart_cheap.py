"""A restart costs almost nothing: a table whose messages already show its state is neither
edited nor rendered again; only what Discord had not confirmed before the stop is sent.
(What each message shows is stored after Discord confirmed it: bot/digests.py, db/tables.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import create_bot, messages
from bot.controls import button_id
from game.players import RandomPlayer
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, open_table, play_turn, seat_everyone

EIGHT = ("ana", "bo", "cy", "dee", "eve", "fay", "gus", "hal")
MESSAGE = r"/channels/\{channel_id\}/messages/\{message_id\}"


async def two_tables(w: World) -> tuple[int, int]:
    """Two tables of four people, started, a few cards into their first deal."""
    ids = []
    for group in (w.members[:4], w.members[4:]):
        table_id, lobby = await open_table(w, group[0], variant="classic", target=1)
        await seat_everyone(w, table_id, lobby, group)
        await w.fake.click(w.bot, group[0], lobby, button_id("start", table_id))
        ids.append(table_id)
    for n in range(3):
        for table_id in ids:
            await play_turn(w, table_id, RandomPlayer(n))
    await w.fake.settle()
    return ids[0], ids[1]


async def restart(w: World, database_path: Any) -> int:
    """Stop the bot and start it again on the same database; returns the request mark."""
    await w.fake.disconnect(w.bot)
    mark = w.fake.mark()
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()
    return mark


def sends(w: World, mark: int) -> list[Any]:
    """Message sends and edits (table messages, hands) since ``mark``."""
    return [r for r in w.fake.requests_to(route=r"/channels/\{channel_id\}/messages.*",
                                           since=mark) if r.method in ("POST", "PATCH")]


async def test_a_restart_with_unchanged_tables_sends_nothing(
    fake_discord: FakeDiscord,
    database_path: Path,
) -> None:
    w = await make_world(fake_discord, database_path, names=EIGHT)
    first, second = await two_tables(w)
    mark = await restart(w, database_path)
    assert sends(w, mark) == []
    assert not any(r.files for r in w.fake.requests_to(since=mark))  # nothing rendered either
    # The buttons posted before the restart work without a re-send (persistent components).
    for table_id in (first, second):
        result = await play_turn(w, table_id, RandomPlayer(7))
        assert result.callback_type == 7, result.text


async def test_a_lobby_shown_by_a_click_answer_is_not_edited_after_a_restart(
    fake_discord: FakeDiscord,
    database_path: Path,
) -> None:
    # A seat taken by a click is shown by the click's own answer (it edits the table message
    # through the interaction): Discord confirmed it, so a restart has nothing to send.
    w = await make_world(fake_discord, database_path, names=EIGHT)
    table_id, lobby = await open_table(w, w.members[0], variant="classic", target=1)
    result = await w.fake.click(w.bot, w.members[1], lobby, button_id("sit", table_id, 1))
    assert result.callback_type == 7, result.text
    await w.fake.settle()
    mark = await restart(w, database_path)
    assert sends(w, mark) == []
    seated = w.bot.service.live[table_id].seats
    assert seated[1].user_id == w.members[1].id


async def test_a_state_not_confirmed_before_the_stop_is_the_only_one_sent(
    fake_discord: FakeDiscord,
    database_path: Path,
) -> None:
    w = await make_world(fake_discord, database_path, names=EIGHT)
    first, second = await two_tables(w)
    live = w.bot.service.live[second]
    # Discord refuses the edit of the second table's message showing its next card: the bot
    # stops with that state never confirmed.
    w.fake.faults.fail("PATCH", MESSAGE, status=400,
                       path=rf"/channels/{live.row.home_id}/messages/{live.row.message_id}")
    token = w.bot.delivery.tokens.table[second][0].token  # the Start click's: refused as well
    w.fake.faults.fail("PATCH", r"/webhooks/\{app_id\}/\{token\}/messages/\{message_id\}",
                       status=400, path=rf"/webhooks/\d+/{token}/messages/@original")
    await play_turn(w, second, RandomPlayer(8))
    await w.fake.settle()
    mark = await restart(w, database_path)
    live = w.bot.service.live[second]
    # A table of four people runs a turn timer (issue 48): the deadline its message never
    # showed is given anew, so the hand of the player to act shows the new one as well.
    acting = live.seats[live.match.to_act]
    assert sorted(r.path for r in sends(w, mark)) == sorted(
        [f"/channels/{live.row.home_id}/messages/{live.row.message_id}",
         f"/channels/{acting.dm_channel_id}/messages/{acting.dm_message_id}"])
    assert w.fake.message(live.row.message_id).attachments  # shown, image and all
    first_live = w.bot.service.live[first]
    assert all(f"/messages/{first_live.row.message_id}" not in r.path for r in sends(w, mark))


async def test_an_old_database_upgraded_mid_game_shows_every_table_once(fake_discord: FakeDiscord,
                                                                       database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, names=EIGHT)
    first, second = await two_tables(w)
    before = {t: w.bot.service.live[t].seq for t in (first, second)}
    await w.fake.disconnect(w.bot)
    with sqlite3.connect(database_path) as db:  # as a bot from before migration 0003 left it
        db.execute("DROP TABLE shown")  # (0017 adds to that table: it did not run either)
        db.execute("DELETE FROM schema_migrations WHERE version IN (3, 17)")
    mark = w.fake.mark()
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()
    edited = [r.path for r in sends(w, mark)]
    for table_id in (first, second):
        live = w.bot.service.live[table_id]
        assert live.seq == before[table_id]  # nothing lost
        assert edited.count(f"/channels/{live.row.home_id}/messages/{live.row.message_id}") == 1
        for s in live.seats.values():
            assert edited.count(f"/channels/{s.dm_channel_id}/messages/{s.dm_message_id}") == 1
        result = await play_turn(w, table_id, RandomPlayer(9))
        assert result.callback_type == 7, result.text
    assert len(edited) == 10
    # And the next restart, with what they show now stored, sends nothing.
    mark = await restart(w, database_path)
    assert sends(w, mark) == []


async def test_players_known_before_a_restart_get_their_hands_without_opening_a_dm(
    fake_discord: FakeDiscord,
    database_path: Path,
) -> None:
    """A player's DM channel keeps its id: after a restart, a new table's hands go to the
    channels the players' hands went to before, with no request to open a DM channel (a
    busy bot's new tables would otherwise wait on that route's tight limit)."""
    w = await make_world(fake_discord, database_path, names=EIGHT)
    first, _ = await two_tables(w)
    dm_of = {s.user_id: s.dm_channel_id for s in w.bot.service.live[first].seats.values()}
    assert None not in dm_of.values()
    mod = w.guild.add_member("mod", manage_guild=True)  # who may end a game (issue 48)
    await w.fake.slash(w.bot, mod, w.channel, "belote end", table=first)
    mark = await restart(w, database_path)
    table_id = await new_table(w, w.members[:4])
    live = w.bot.service.live[table_id]
    assert {s.user_id: s.dm_channel_id for s in live.seats.values()} == dm_of
    assert all(w.fake.message(s.dm_message_id).attachments for s in live.seats.values()
               if s.dm_message_id is not None)
    assert sum(s.dm_message_id is not None for s in live.seats.values()) == 4
    assert w.fake.requests_to(route=r"/users/@me/channels", since=mark) == []


async def new_table(w: World, group: Any) -> int:
    table_id, lobby = await open_table(w, group[0], variant="classic")
    await seat_everyone(w, table_id, lobby, group)
    await w.fake.click(w.bot, group[0], lobby, button_id("start", table_id))
    await w.fake.settle()
    return table_id


async def test_a_dm_channel_discord_no_longer_knows_is_opened_anew(
    fake_discord: FakeDiscord,
    database_path: Path,
) -> None:
    w = await make_world(fake_discord, database_path)
    first = await new_table(w, w.members)
    mod = w.guild.add_member("mod", manage_guild=True)  # who may end a game (issue 48)
    await w.fake.slash(w.bot, mod, w.channel, "belote end", table=first)
    with sqlite3.connect(database_path) as db:  # as if Discord had lost those channels
        db.execute("UPDATE seats SET dm_channel_id = 1 WHERE table_id = ?", (first,))
    mark = w.fake.mark()
    table_id = await new_table(w, w.members)
    live = w.bot.service.live[table_id]
    assert all(s.dm_channel_id not in (None, 1) and s.dm_message_id is not None
               for s in live.seats.values())
    tried = [r.error_code for r in w.fake.requests_to(since=mark)
             if r.method == "POST" and r.path == "/channels/1/messages"]
    assert tried == [10003] * 4  # each hand tried the lost channel once, then went anew


async def test_an_upgrade_that_rewords_the_hands_sends_nothing_and_loses_nothing(
    fake_discord: FakeDiscord,
    database_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hand is stored as the state it shows, not its words: a new version that words the
    hand of the player to act differently (it now shows the table's calls or trick) edits
    nothing at its first start, and each hand takes the new words at its next change."""
    new_wording = messages._table_for_the_turn
    monkeypatch.setattr(messages, "_table_for_the_turn", lambda *_: [])  # the version before
    w = await make_world(fake_discord, database_path, names=EIGHT)
    first, second = await two_tables(w)
    live = w.bot.service.live[first]
    acting = live.seats[live.match.to_act]
    assert not any(line.startswith(TABLE_LINES) for line in
                   w.fake.message(acting.dm_message_id).content.split("\n"))
    monkeypatch.setattr(messages, "_table_for_the_turn", new_wording)  # the upgrade
    before = {t: w.bot.service.live[t].seq for t in (first, second)}
    mark = await restart(w, database_path)
    assert sends(w, mark) == []
    for table_id in (first, second):
        live = w.bot.service.live[table_id]
        assert live.seq == before[table_id]  # nothing lost
        result = await play_turn(w, table_id, RandomPlayer(10))
        assert result.callback_type == 7, result.text
        await w.fake.settle()
        acting = live.seats[live.match.to_act]
        assert any(line.startswith(TABLE_LINES) for line in
                   w.fake.message(acting.dm_message_id).content.split("\n"))


TABLE_LINES = ("Bidding", "Trick:", "Last trick:")
