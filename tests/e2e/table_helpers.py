"""Driving Belote tables through the fake Discord: open, sit, start, and play by clicks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot import create_bot
from bot.controls import button_id, encode_action, select_id
from game.actions import CoincheBid
from game.players import RandomPlayer
from game.view import table_view
from tests.fakediscord import FakeDiscord, FakeMessage

# The seed of the world's tables: the same decks and first dealers on every run.
TABLE_SEED = 1

# What the bot may do in a channel without threads: the table is played in the channel itself.
FLAT = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                           read_message_history=True)


@dataclass
class World:
    fake: FakeDiscord
    bot: Any
    guild: Any
    channel: Any
    members: list[Any]


async def make_world(fake: FakeDiscord, database_path: Any,
                     names: tuple[str, ...] = ("ana", "bo", "cy", "dee"),
                     locale: str = "en-US", **settings: Any) -> World:
    """A server with a #belote channel, these members, and the bot started on the database
    (computers act at once, and tables deal from TABLE_SEED, unless ``settings`` says
    otherwise). ``locale``: the server's preferred locale."""
    guild = fake.add_guild("Cafe")
    guild.locale = locale
    channel = guild.add_text_channel("belote")
    members = [guild.add_member(n) for n in names]
    settings.setdefault("computer_delay", 0)
    settings.setdefault("table_seed", TABLE_SEED)
    bot = await fake.start_bot(create_bot, database_path, **settings)
    return World(fake, bot, guild, channel, members)


async def open_table(w: World, host: Any, **options: Any) -> tuple[int, Any]:
    """/belote new; returns the table id and its table message (in its thread)."""
    result = await w.fake.slash(w.bot, host, w.channel, "belote new", **options)
    assert result.callback_type == 5, result.text
    live = w.bot.service.table_of(w.guild.id, host.id)
    assert live is not None, result.text
    return live.id, w.fake.message(live.row.message_id)


async def seat_everyone(w: World, table_id: int, message: Any, members: list[Any]) -> None:
    for seat, member in enumerate(members):
        if seat == 0:
            continue
        result = await w.fake.click(w.bot, member, message, button_id("sit", table_id, seat))
        assert result.callback_type == 7, result.text


async def start_table(w: World, variant: str = "classic",
                      **options: Any) -> tuple[int, FakeMessage]:
    """A table opened by the first member, the first four members seated, and started by its
    host; returns its id and its table message."""
    table_id, lobby = await open_table(w, w.members[0], variant=variant, **options)
    await seat_everyone(w, table_id, lobby, w.members[:4])
    result = await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    assert result.callback_type == 7, result.text
    return table_id, lobby


async def start_one_deal_table(w: World, **options: Any) -> int:
    """A started classic table whose match ends with its first deal (target 1); its id."""
    table_id, _ = await start_table(w, "classic", target=1, **options)
    return table_id


async def restart(w: World, database_path: Any) -> None:
    """Stop the bot and start it again on the same database, and let it settle."""
    await w.fake.disconnect(w.bot)
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()


def member_of(w: World, user_id: int) -> Any:
    return next(m for m in w.members if m.id == user_id)


async def play_turn(w: World, table_id: int, rng: RandomPlayer) -> Any:
    """The player to act chooses at random among legal actions and clicks it in their DM."""
    live = w.bot.service.live[table_id]
    seat = live.match.to_act
    s = live.seats[seat]
    member = member_of(w, s.user_id)
    action = rng.choose(table_view(live.match, seat))
    code = encode_action(action)
    if s.dm_closed:  # no DM: the same controls come as an ephemeral reply to "My hand"
        mine = await w.fake.click(w.bot, member, w.fake.message(live.row.message_id),
                                  button_id("hand", table_id))
        assert mine.ephemeral and mine.callback_type == 4, mine.text
        message = mine.message
    else:
        message = w.fake.message(s.dm_message_id)
    if isinstance(action, CoincheBid):
        return await w.fake.select(w.bot, member, message,
                                   select_id("bid", table_id, live.seq, action.suit), [code])
    return await w.fake.click(w.bot, member, message,
                              button_id("act", table_id, live.seq, code))


async def play_out(w: World, table_id: int, seed: int = 1, limit: int = 5000) -> int:
    """Click until the match is over; returns the number of clicks."""
    rng = RandomPlayer(seed)
    for n in range(limit):
        if table_id not in w.bot.service.live:
            return n
        result = await play_turn(w, table_id, rng)
        assert result.callback_type == 7, result.text
    raise AssertionError("the match did not end")
