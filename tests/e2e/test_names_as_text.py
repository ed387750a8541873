"""Names are text, not markup (issue 48): members whose server nicknames are Discord markdown
and mentions play a match, sit in a lobby, show in history, the leaderboard and stats, and
join a tournament; every message the bot sends holds their names escaped (service/markup.py),
never as they were typed, and no message of the bot pings anyone."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.controls import button_id
from i18n import Seat, words
from tests.fakediscord import FakeDiscord, FakeMessage

from .table_helpers import (
    World,
    make_world,
    open_table,
    play_out,
    seat_everyone,
    start_one_deal_table,
)

HOSTILE = "**@everyone** <@1> [x](http://a)"  # 32 characters, the most a seat keeps
HOSTILE_TEXT = r"\*\*\@everyone\*\* \<\@1\> \[x](http\://a)"
OTHER = "> ||x|| <@&4> <#7> <:e:1> <t:0>"
OTHER_TEXT = r"\> \|\|x\|\| \<\@&4\> \<\#7\> \<\:e\:1\> \<t\:0\>"
EN = words("en")


def texts(message: FakeMessage) -> list[str]:
    """Every text of every version of a message Discord reads as markdown."""
    out = [v.content for v in message.versions]
    for embed in message.embeds:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out += [f.get(k) or "" for f in embed.get("fields") or [] for k in ("name", "value")]
    return out


def assert_names_escaped_and_nobody_pinged(fake: FakeDiscord) -> None:
    """No message the bot sent holds a hostile name raw, and none would notify anyone."""
    for message in fake.all_messages():
        for text in texts(message):
            assert HOSTILE not in text and OTHER not in text, text
        assert all(not v.pings for v in message.versions), (message.content, message.pings)


async def hostile_world(fake: FakeDiscord, database_path: Path,
                        names: tuple[str, ...] = ("ana", "bo", "cy", "dee")) -> World:
    """The usual server; bo's and cy's server nicknames are markup."""
    w = await make_world(fake, database_path, names=names)
    w.members[1].nick = HOSTILE
    w.members[2].nick = OTHER
    return w


async def test_a_match_with_hostile_names_shows_them_as_text(fake_discord: FakeDiscord,
                                                             database_path: Path) -> None:
    w = await hostile_world(fake_discord, database_path)
    fake, bot = w.fake, w.bot
    ana, bo, cy, dee = w.members[:4]
    table_id, lobby = await open_table(w, ana, variant="classic", target=1)
    await seat_everyone(w, table_id, lobby, [ana, bo])
    lobby = fake.message(lobby.id)
    assert EN("table.seat", seat=Seat(1), who=HOSTILE_TEXT) in lobby.content, lobby.content
    # A button's label is no markdown: it shows the name as typed.
    assert lobby.component(button_id("sit", table_id, 1))["label"] == \
        EN("table.seat", seat=Seat(1), who=HOSTILE)[:80]
    taken = await fake.click(bot, dee, lobby, button_id("sit", table_id, 1))
    assert taken.ephemeral and taken.text == EN("tables.seat_taken_by", seat=Seat(1),
                                                name=HOSTILE_TEXT)
    for seat, member in ((2, cy), (3, dee)):
        sat = await fake.click(bot, member, lobby, button_id("sit", table_id, seat))
        assert sat.callback_type == 7, sat.text
    start = await fake.click(bot, ana, lobby, button_id("start", table_id))
    assert start.callback_type == 7, start.text
    table = fake.message(lobby.id)
    assert EN("table.seat", seat=Seat(1), who=HOSTILE_TEXT) in table.content
    assert EN("table.seat", seat=Seat(2), who=OTHER_TEXT) in table.content
    assert await play_out(w, table_id, seed=3) > 0
    await fake.settle()
    # The table's text as it went, the hands' "Waiting for ..." and the deal sheet.
    table_versions = "\n".join(v.content for v in fake.message(lobby.id).versions)
    assert any(EN(k, name=HOSTILE_TEXT) in table_versions
               for k in ("table.to_bid", "table.to_play")), table_versions
    waited = "\n".join(v.content for p in (ana, bo, cy, dee) for m in fake.dm_messages(p)
                       for v in m.versions)
    assert EN("hand.waiting", name=HOSTILE_TEXT) in waited
    assert EN("hand.waiting", name=OTHER_TEXT) in waited

    history = await fake.slash(bot, ana, w.channel, "belote history")
    assert f"with {OTHER_TEXT} against {HOSTILE_TEXT} & dee" in history.text, history.text
    board = await fake.slash(bot, dee, w.channel, "belote leaderboard", variant="classic")
    assert f"<@{bo.id}>" in board.text  # a mention: Discord shows the name, pinging nobody
    stats = await fake.slash(bot, dee, w.channel, "belote stats", member=bo)
    assert f"**<@{bo.id}>**" in stats.text
    assert_names_escaped_and_nobody_pinged(fake)


async def test_a_tournament_table_shows_hostile_names_as_text(fake_discord: FakeDiscord,
                                                              database_path: Path) -> None:
    names = ("ana", "bo", "cy", "dee", "eve", "fay", "gus", "hal")
    w = await hostile_world(fake_discord, database_path, names)
    fake, bot = w.fake, w.bot
    mod = w.guild.add_member("mod", manage_guild=True)
    signup = (await fake.slash(bot, mod, w.channel, "belote tournament new",
                               format="quick")).answer
    for member in w.members:
        click = await fake.click(bot, member, signup, "tn:join:1")
        assert click.ephemeral, click.text
    await fake.settle()
    await bot.get_cog("Tournaments").settle()
    signup = fake.message(signup.id)
    assert f"<@{w.members[1].id}>" in signup.content  # the sign-up names entrants by mention
    tables = [bot.service.live[t.table_id] for t in await bot.tournaments.repo.tables(1)]
    shown = "\n".join(fake.message(t.row.message_id).content for t in tables)
    assert HOSTILE_TEXT in shown and OTHER_TEXT in shown, shown
    assert_names_escaped_and_nobody_pinged(fake)


async def test_a_notice_pings_only_its_member(world: World) -> None:
    # The one message that notifies: an invitation pings the invited member, nobody else,
    # whatever the text holds.
    fake, bot = world.fake, world.bot
    ana, bo = world.members[:2]
    table_id, _ = await open_table(world, ana, variant="classic", private=True)
    await fake.slash(bot, ana, world.channel, "belote invite", player=bo)
    await fake.settle()
    live = bot.service.live[table_id]
    notice = [m for m in fake.messages(live.row.home_id) if m.pings]
    assert [m.pings for m in notice] == [[f"user:{bo.id}"]]
    await bot.delivery.notice(live, f"@everyone <@&1> <@{ana.id}> <@{bo.id}>", mention=bo.id)
    await fake.settle()
    assert fake.messages(live.row.home_id)[-1].pings == [f"user:{bo.id}"]


async def test_a_table_moved_by_a_hostile_name_says_it_as_text(fake_discord: FakeDiscord,
                                                               database_path: Path) -> None:
    # The table message cannot be kept up; bo (whose nickname is markup) shows it elsewhere
    # with /belote show: the notice there names him as text.
    w = await hostile_world(fake_discord, database_path)
    fake, bot, bo = w.fake, w.bot, w.members[1]
    table_id = await start_one_deal_table(w)
    live = bot.service.live[table_id]
    w.guild.set_bot_permissions(w.channel, discord.Permissions(view_channel=True))
    await fake.settle()
    assert live.lost is not None
    other = w.guild.add_text_channel("other")
    r = await fake.slash(bot, bo, other, "belote show")
    assert r.ephemeral and f"Table #{table_id} is here now" in r.text, r.text
    await fake.settle()
    moved = EN("belote.moved.notice", table=table_id,
               why=EN("commands.show.moved_by", name=HOSTILE_TEXT))
    assert moved in [m.content for m in fake.messages(other)], fake.messages(other)
    assert_names_escaped_and_nobody_pinged(fake)
