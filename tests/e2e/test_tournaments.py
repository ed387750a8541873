"""/belote tournament new through the fake Discord: the sign-up message and its buttons, the
start when full with one thread per table, and a leaver handed to a computer."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.controls import button_id
from game.tournament import TournamentError
from i18n import words
from service import Refusal
from tests.fakediscord import FakeDiscord

from .table_helpers import make_world, play_out

NAMES = ("ana", "bo", "cy", "dee", "eve", "fay", "gus", "hal", "ivy")


async def test_sign_up_start_and_a_leaver(fake_discord: FakeDiscord,
                                          database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, names=NAMES)
    fake, bot = w.fake, w.bot
    mod = w.guild.add_member("mod", manage_guild=True)
    refused = await fake.slash(bot, w.members[0], w.channel, "belote tournament new",
                               format="quick")
    assert refused.ephemeral and "Only moderators" in refused.text
    r = await fake.slash(bot, mod, w.channel, "belote tournament new", format="quick")
    signup = r.message
    assert signup is not None and "Quick tournament #1" in signup.content
    assert "Starts as soon as it is full" in signup.content
    for member in w.members[:7]:
        click = await fake.click(bot, member, signup, "tn:join:1")
        assert click.ephemeral and "signed up" in click.text, click.text
    again = await fake.click(bot, w.members[0], signup, "tn:join:1")
    assert again.ephemeral and "already signed up" in again.text
    await fake.settle()
    signup = fake.message(signup.id)
    assert "Entrants 7/8" in signup.content and f"<@{w.members[6].id}>" in signup.content
    assert not fake.threads(w.channel)
    await fake.click(bot, w.members[7], signup, "tn:join:1")  # the eighth: it starts
    await fake.settle()
    signup = fake.message(signup.id)
    assert "Under way" in signup.content
    threads = fake.threads(w.channel)
    assert len(threads) == 2 and all("round 1" in t.name for t in threads)
    runner = bot.tournaments
    tables = [t.table_id for t in await runner.repo.tables(1)]
    assert all(tb in bot.service.live and bot.service.live[tb].row.thread_id in
               {t.id for t in threads} for tb in tables)
    assert not signup.components  # no Join button any more
    with pytest.raises(TournamentError, match="not_open"):
        await runner.join(1, w.members[8].id)
    _, t = await runner.load(1)
    assert not t.plays_by_computer(w.members[1].id)
    await runner.leave(1, w.members[1].id)
    await fake.settle()
    _, t = await runner.load(1)
    assert t.plays_by_computer(w.members[1].id)


async def test_a_tournament_speaks_the_servers_language(fake_discord: FakeDiscord,
                                                        database_path: Path) -> None:
    # A French community: the sign-up message, its buttons, the threads and the tables are
    # French; a member whose client is English is answered in English.
    w = await make_world(fake_discord, database_path, names=NAMES, locale="fr")
    fake, bot = w.fake, w.bot
    fr = words("fr")
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, w.channel, "belote tournament new", format="quick")
    signup = r.message
    assert signup is not None
    assert fr("tournaments.title.quick", number=1, variant=fr("image.variant.bulgarian")) \
        in signup.content and fr("tournaments.starts_when_full") in signup.content
    assert [b["label"] for row in signup.components for b in row["components"]] == \
        [fr("tournaments.button.join"), fr("tournaments.button.leave")]
    click = await fake.click(bot, w.members[0], signup, "tn:join:1")
    assert click.text == words("en")("tournaments.joined")  # their client speaks English
    for member in w.members[1:8]:
        await fake.click(bot, member, signup, "tn:join:1")
    await fake.settle()
    threads = fake.threads(w.channel)
    assert len(threads) == 2
    tables = [t.table_id for t in await bot.tournaments.repo.tables(1)]
    assert all(bot.service.live[tb].language == "fr" for tb in tables)
    assert {t.name for t in threads} == {
        fr("tournaments.thread_name", number=1, round=1, table=tb) for tb in tables}


async def test_stats_show_tournament_wins_and_second_places(fake_discord: FakeDiscord,
                                                            database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, names=NAMES)
    fake, bot = w.fake, w.bot
    ana, bo, cy, dee = (m.id for m in w.members[:4])
    repo = bot.tournaments.repo
    row = await repo.create(guild_id=w.guild.id, channel_id=w.channel.id, host_id=ana,
                            format="quick", variant="bulgarian", seed=1, starts_at=None)
    await repo.add_round(row.id, 1, [(ana, bo, cy, dee)], stage="running")
    await repo.record_winner(row.id, 1, 0, 1, finished=True)  # bo and dee won the final
    r = await fake.slash(bot, w.members[1], w.channel, "belote stats", variant="bulgarian")
    assert "Tournaments won: 1 · second places: 0" in r.text, r.text
    r = await fake.slash(bot, w.members[0], w.channel, "belote stats", variant="bulgarian")
    assert "Tournaments won: 0 · second places: 1" in r.text, r.text
    r = await fake.slash(bot, w.members[4], w.channel, "belote stats", variant="bulgarian")
    assert "Tournaments won" not in r.text


async def test_an_entry_fee_is_shown_taken_on_join_and_returned_on_leave(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, names=NAMES)
    fake, bot = w.fake, w.bot
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, w.channel, "belote tournament new", format="quick",
                         entry_fee=100)
    signup = r.message
    assert signup is not None and "Entry fee: 100 credits" in signup.content
    ana = w.members[0]
    click = await fake.click(bot, ana, signup, "tn:join:1")
    assert click.ephemeral and "signed up" in click.text
    assert await bot.credits.repo.balance(w.guild.id, ana.id) == 900
    await fake.click(bot, ana, signup, "tn:leave:1")
    assert await bot.credits.repo.balance(w.guild.id, ana.id) == 1000
    await fake.slash(bot, mod, w.channel, "belote config", starting_credits=40)
    bo = w.members[1]
    click = await fake.click(bot, bo, signup, "tn:join:1")
    assert click.ephemeral and "The entry fee is 100 credits and you have 40" in click.text
    _, t = await bot.tournaments.load(1)
    assert bo.id not in t.entrants


async def test_the_sign_up_message_shows_the_bracket_updated_after_each_game(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, names=NAMES)
    fake, bot = w.fake, w.bot
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, w.channel, "belote tournament new", format="quick")
    signup = r.message
    assert signup is not None
    for member in w.members[:8]:
        await fake.click(bot, member, signup, "tn:join:1")
    await fake.settle()
    signup = fake.message(signup.id)
    assert [a.filename for a in signup.attachments] == ["bracket.png"]
    before = signup.attachments[0].data
    # A moderator ends one table of round one early: it is played again from nothing, with
    # the same draw (issue 48: the score when it stopped decides nothing).
    first = next(t.table_id for t in await bot.tournaments.repo.tables(1))
    assert first is not None
    seated = {s.user_id for s in bot.service.live[first].seats.values()}
    r = await fake.slash(bot, mod, w.channel, "belote end", table=first)
    await fake.settle()
    await bot.tournaments.settle()
    await fake.settle()
    _, t = await bot.tournaments.load(1)
    assert not t.rounds[0].winners  # nothing recorded for it
    again = next(t.table_id for t in await bot.tournaments.repo.tables(1))
    assert again is not None and again != first and again in bot.service.live
    assert {s.user_id for s in bot.service.live[again].seats.values()} == seated
    assert fake.message(signup.id).attachments[0].data == before
    # Played out, its result goes into the bracket at once.
    await play_out(w, again, seed=2)
    await fake.settle()
    await bot.tournaments.settle()
    await fake.settle()
    _, t = await bot.tournaments.load(1)
    assert t.rounds[0].winners  # recorded
    after = fake.message(signup.id).attachments
    assert [a.filename for a in after] == ["bracket.png"] and after[0].data != before


async def test_a_leaver_of_a_tournament_table_cannot_take_the_seat_back(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, names=NAMES)
    fake, bot = w.fake, w.bot
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, w.channel, "belote tournament new", format="quick")
    assert r.message is not None
    for member in w.members[:8]:
        await fake.click(bot, member, r.message, "tn:join:1")
    await fake.settle()
    table_id = next(t.table_id for t in await bot.tournaments.repo.tables(1))
    assert table_id is not None
    live = bot.service.live[table_id]
    leaver = live.seats[1]
    member = next(m for m in w.members if m.id == leaver.user_id)
    r = await fake.slash(bot, member, w.channel, "belote leave")
    assert "computer" in r.text, r.text
    await fake.settle()
    # Neither the table message nor the hand offers the seat back; the hand says why.
    assert button_id("back", table_id) not in fake.message(live.row.message_id).custom_ids
    hand = fake.message(leaver.dm_message_id)
    assert button_id("back", table_id) not in hand.custom_ids
    assert "a player who leaves a tournament table is out of the tournament, and cannot " \
        "take the seat back" in hand.content, hand.content
    # A Take back click kept from before the fix (a custom_id never shown now) is refused by
    # the table service, and the seat stays the computer's.
    with pytest.raises(Refusal) as refused:
        await bot.service.reclaim(table_id, member.id)
    assert refused.value.text() == f"You left table #{table_id}, a tournament table: a " \
        "player who leaves a tournament is out of it, so the computer keeps your seat to the " \
        "end."
    assert live.seats[1].computer is not None and live.seats[1].departed == "left"
