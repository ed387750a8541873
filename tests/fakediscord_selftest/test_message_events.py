"""Messages' gateway events as Discord sends them: MESSAGE_CREATE, MESSAGE_UPDATE,
MESSAGE_DELETE and MESSAGE_DELETE_BULK reach only a bot whose intents ask for them (a server's
with guild_messages, a DM's with dm_messages), in the shape discord.py reads; a thread counts
its messages sent and those still there (total_message_sent, message_count), as a restarted
bot reads them from GUILD_CREATE."""

from __future__ import annotations

from typing import Any

import discord

from .conftest import World
from .demo_bot import DemoBot


def heard(bot: DemoBot) -> list[tuple[str, Any]]:
    seen: list[tuple[str, Any]] = []

    async def create(m: discord.Message) -> None:
        seen.append(("create", m.content))

    async def edit(p: discord.RawMessageUpdateEvent) -> None:
        seen.append(("edit", p.message_id))

    async def delete(p: discord.RawMessageDeleteEvent) -> None:
        seen.append(("delete", p.message_id))

    async def bulk(p: discord.RawBulkMessageDeleteEvent) -> None:
        seen.append(("bulk", sorted(p.message_ids)))

    bot.add_listener(create, "on_message")
    bot.add_listener(edit, "on_raw_message_edit")
    bot.add_listener(delete, "on_raw_message_delete")
    bot.add_listener(bulk, "on_raw_bulk_message_delete")
    return seen


async def test_message_events_reach_the_bots_whose_intents_ask_for_them(world: World) -> None:
    fake, bot, _, channel, alice = world
    assert bot.intents.guild_messages and bot.intents.dm_messages  # discord.py's default
    seen = heard(bot)
    said = fake.say(alice, channel, "hello")
    await fake.settle()
    assert seen == [("create", "hello")]
    result = await fake.slash(bot, alice, channel, "demo edit", mode="text")
    await fake.settle()
    (posted,) = [m for m in fake.messages(channel) if m.author.id != alice.id]
    assert ("edit", posted.id) in seen
    seen.clear()
    fake.delete_message(said)
    fake.delete_messages([posted])
    await fake.settle()
    assert seen == [("delete", said.id), ("bulk", [posted.id])]
    assert result.callback_type == 5
    # A bot that asks for no messages' events hears none of them.
    seen.clear()
    bot._connection._intents = discord.Intents(guilds=True)
    fake.delete_message(fake.say(alice, channel, "again"))
    await fake.settle()
    assert seen == []


async def test_a_deletion_unheard_reaches_no_bot(world: World) -> None:
    fake, bot, _, channel, alice = world
    seen = heard(bot)
    said = fake.say(alice, channel, "x")
    await fake.settle()
    seen.clear()
    fake.delete_message(said, unheard=True)
    await fake.settle()
    assert seen == [] and said.deleted


async def test_a_thread_counts_its_messages_sent_and_left(world: World) -> None:
    fake, bot, _, channel, alice = world
    await fake.slash(bot, alice, channel, "demo thread", name="Table 1")
    (thread,) = fake.threads(channel)
    fake.say(alice, thread, "one")
    gone = fake.say(alice, thread, "two")
    fake.delete_message(gone)
    await fake.settle()
    await fake.disconnect(bot)
    fresh = await fake.start_bot(DemoBot)
    cached = fresh.get_channel(thread.id)
    assert isinstance(cached, discord.Thread)
    assert (cached.total_message_sent, cached.message_count) == (3, 2)  # the welcome too
