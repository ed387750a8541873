"""What a server's chat costs the bot: the guild_messages intent, which the bot takes to hear of
deleted table messages (cogs/channels.py), brings every message sent or edited in its servers,
and the bot drops those as they come (bot/bot.py, DROPPED).

    python bench/bench_chat.py [--events 20000]

Feeds discord.py's own gateway reader (DiscordWebSocket.received_message) frames as Discord
sends them (zlib-stream, one sync flush a frame): a member's chat message (MESSAGE_CREATE), the
bot's own table message edited (MESSAGE_UPDATE, with its buttons and image) and a deletion
(MESSAGE_DELETE, of a message that is not a table's). Reports the time per event with the
events dropped as the bot drops them, and with discord.py's own parsing (what the intent would
cost without the drop), and the share of a core that 100 chat messages a second would take.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
from discord import utils
from discord.gateway import DiscordWebSocket

from bot.bot import INTENTS, drop_unread

GUILD, CHANNEL, BOT = 1_100_000_000_000_000_001, 1_100_000_000_000_000_002, 1_100_000_000_000_3


def user(uid: int, name: str) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "global_name": name.title(), "avatar": None,
            "discriminator": "0", "public_flags": 0}


def message(n: int, content: str, author: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"id": str(1_200_000_000_000_000_000 + n), "channel_id": str(CHANNEL),
            "guild_id": str(GUILD), "author": author, "content": content,
            "timestamp": "2026-12-02T05:00:00.000000+00:00", "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [], "embeds": [], "pinned": False, "type": 0, "flags": 0,
            "member": {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                       "mute": False, "flags": 0}, **extra}


def table_edit(n: int) -> dict[str, Any]:
    buttons = [{"type": 2, "style": 1, "label": "My hand", "custom_id": "bt:hand:12"},
               {"type": 2, "style": 2, "label": "Rules", "custom_id": "bt:rules:12"}]
    image = {"id": str(1_300_000_000_000_000_000 + n), "filename": "table.png",
             "size": 61234, "url": "https://cdn.discordapp.com/attachments/1/2/table.png",
             "proxy_url": "https://media.discordapp.net/attachments/1/2/table.png",
             "width": 800, "height": 600, "content_type": "image/png"}
    text = ("**Belote table #12** · Classic Belote · to 1000 points · deal 3\n"
            "South: ana · East: bo · North: cy · West: dee\nContract: ♥ (bo, Bo & Dee)\n"
            "Trick: ana: J♥, bo: 9♥\nScore: Ana & Cy 312 · Bo & Dee 245\n"
            "cy to play, time runs out <t:1796000000:R>")
    return message(n, text, user(BOT, "belote"), components=[
        {"type": 1, "components": buttons}], attachments=[image],
        edited_timestamp="2026-12-02T05:00:01.000000+00:00")


def frames(events: list[tuple[str, dict[str, Any]]]) -> list[bytes]:
    """Each event as Discord's zlib-stream sends it: one compressor, a sync flush a frame."""
    z = zlib.compressobj()
    out = []
    for seq, (name, data) in enumerate(events, start=1):
        raw = json.dumps({"op": 0, "t": name, "s": seq, "d": data}).encode()
        out.append(z.compress(raw) + z.flush(zlib.Z_SYNC_FLUSH))
    return out


def reader(client: discord.Client) -> DiscordWebSocket:
    """discord.py's gateway reader, with no socket: what it does with each frame it gets."""
    ws = DiscordWebSocket.__new__(DiscordWebSocket)
    ws._decompressor = utils._ActiveDecompressionContext()
    ws._discord_parsers = client._connection.parsers
    ws._dispatch = client.dispatch
    ws._dispatch_listeners = []
    ws._keep_alive = None
    ws.shard_id = None
    ws.sequence = None
    return ws


async def run(data: list[tuple[str, dict[str, Any]]], dropped: bool) -> float:
    """Microseconds per event through the reader (the bot's drop, or discord.py's parse)."""
    client = discord.Client(intents=INTENTS, max_messages=None)
    if dropped:
        drop_unread(client._connection)
    ws = reader(client)
    stream = frames(data)
    start = time.perf_counter()
    for frame in stream:
        await ws.received_message(frame)
    return (time.perf_counter() - start) / len(stream) * 1e6


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20000)
    args = parser.parse_args()
    n = args.events
    member = user(1_100_000_000_000_000_100, "ana")
    chat = [("MESSAGE_CREATE", message(i, "anyone up for a game of belote tonight? "
                                          "I can host at nine", member)) for i in range(n)]
    edits = [("MESSAGE_UPDATE", table_edit(i)) for i in range(n)]
    deletes = [("MESSAGE_DELETE", {"id": str(1_400_000_000_000_000_000 + i),
                                   "channel_id": str(CHANNEL), "guild_id": str(GUILD)})
               for i in range(n)]
    print(f"{n} events of each kind through discord.py's gateway reader "
          f"({discord.__version__}):")
    for kind, data in (("a member's chat message", chat), ("a table message edited", edits)):
        size = sum(len(json.dumps(d)) for _, d in data[:100]) / 100
        kept = await run(data, dropped=False)
        gone = await run(data, dropped=True)
        print(f"  {kind} ({size:.0f} B of JSON): {gone:.1f} µs dropped, {kept:.1f} µs "
              f"parsed by discord.py")
        if kind.startswith("a member"):
            print(f"    100 chat messages a second: {gone * 100 / 1e4:.2f}% of a core "
                  f"(parsed: {kept * 100 / 1e4:.2f}%)")
    read = await run(deletes, dropped=True)
    print(f"  a message deleted (read: the bot hears deletions): {read:.1f} µs")


if __name__ == "__main__":
    asyncio.run(main())
