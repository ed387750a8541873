"""A bot in another process, driven through the fake like a connected one (for benchmarks).

In production Discord's servers are not on the bot's machine: a benchmark that runs the fake, the
users' clicks and the bot in one process measures the fake as much as the bot, since they share
one GIL. Here the bot runs in a process of its own and receives its gateway events (READY,
GUILD_CREATE, INTERACTION_CREATE and the fake's state changes) over a loopback socket as JSON
lines, the way a gateway would deliver them; its REST calls go to the fake over HTTP as usual.

Parent (the fake and the driver):

    remote = await RemoteBot.spawn(fake, [sys.executable, "bench/x.py", "--child"])
    await fake.click(remote, member, message, custom_id, wait=False)
    await remote.settle()            # the bot finished everything the events made it do
    result = await remote.call("stats")   # a function the child registered

Child (the bot's process): ``asyncio.run(serve_bot(factory, handlers, *args, **kwargs))`` with
the address, base URL and token taken from the environment the parent set.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from .driver import Driver, FakeGateway, HarnessError, receives

if TYPE_CHECKING:
    from .server import FakeDiscord

ENV_ADDRESS = "FAKEDISCORD_BRIDGE"  # host:port of the parent's bridge
ENV_BASE = "FAKEDISCORD_BASE"  # Route.BASE for the child
ENV_TOKEN = "FAKEDISCORD_TOKEN"

Handler = Callable[..., Awaitable[Any]]


def _line(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode() + b"\n"


class _Forwarder:
    """Stands in for ``bot._connection``: ``parse_<event>(payload)`` goes over the socket."""

    def __init__(self, remote: RemoteBot) -> None:
        self._remote = remote

    def __getattr__(self, name: str) -> Callable[[dict[str, Any]], None]:
        if not name.startswith("parse_"):
            raise AttributeError(name)
        event = name[len("parse_") :].upper()
        return lambda payload: self._remote.send_event(event, payload)


class RemoteBot:
    """The parent's handle on a bot process. The fake treats it as a connected bot."""

    def __init__(
        self,
        fake: FakeDiscord,
        process: asyncio.subprocess.Process,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        self.fake = fake
        self.process = process
        self._reader = reader
        self._writer = writer
        self.loop = asyncio.get_running_loop()
        self._connection = _Forwarder(self)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._next = 0
        self._pump = asyncio.create_task(self._read(), name="fakediscord-remote-reader")
        # The child bot's sharding (from its login): which servers' events it is sent.
        self.shard_count: int | None = None
        self.shard_id: int | None = None
        self.intents: discord.Intents | None = None  # the child's: which events it is sent

    @classmethod
    async def spawn(
        cls, fake: FakeDiscord, argv: Sequence[str], *, timeout: float = 60.0
    ) -> RemoteBot:
        """Start ``argv`` (a program calling serve_bot) and connect it to ``fake``."""
        accepted: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = (
            asyncio.get_running_loop().create_future()
        )

        async def on_connect(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            if not accepted.done():
                accepted.set_result((r, w))

        server = await asyncio.start_server(on_connect, "127.0.0.1", 0, limit=1 << 24)
        port = server.sockets[0].getsockname()[1]
        env = dict(os.environ)
        env[ENV_ADDRESS] = f"127.0.0.1:{port}"
        env[ENV_BASE] = fake.base_url + "/api/v10"
        env[ENV_TOKEN] = fake.token
        process = await asyncio.create_subprocess_exec(*argv, env=env)
        try:
            reader, writer = await asyncio.wait_for(accepted, timeout)
        finally:
            server.close()
        remote = cls(fake, process, reader, writer)
        hello = await remote._request({"op": "login"}, timeout)
        remote.shard_count, remote.shard_id = hello["shard_count"], hello["shard_id"]
        remote.intents = discord.Intents._from_value(hello["intents"])
        ready, guilds = fake.hello_payloads(all_members=bool(hello["all_members"]))
        # A sharded bot hears only of its shards' servers.
        guilds = [g for g in guilds if receives(remote, int(g["id"]))]  # type: ignore[arg-type]
        ready["guilds"] = [g for g in ready["guilds"]
                           if receives(remote, int(g["id"]))]  # type: ignore[arg-type]
        remote.send_event("READY", ready)
        for guild in guilds:
            remote.send_event("GUILD_CREATE", guild)
        await remote._request({"op": "await_ready"}, timeout)
        fake._bots.append(remote)  # type: ignore[arg-type]
        return remote

    # ---- talking to the child ----------------------------------------------------------
    def send_event(self, event: str, payload: dict[str, Any]) -> None:
        self._writer.write(_line({"op": "event", "t": event, "d": payload}))

    async def _request(self, message: dict[str, Any], timeout: float | None = None) -> Any:
        self._next += 1
        n = self._next
        future: asyncio.Future[Any] = self.loop.create_future()
        self._waiting[n] = future
        self._writer.write(_line({**message, "n": n}))
        await self._writer.drain()
        return await asyncio.wait_for(future, timeout)

    async def _read(self) -> None:
        while True:
            raw = await self._reader.readline()
            if not raw:
                break
            message = json.loads(raw)
            future = self._waiting.pop(message["n"], None)
            if future is None or future.done():
                continue
            if "error" in message:
                future.set_exception(HarnessError(f"bot process: {message['error']}"))
            else:
                future.set_result(message.get("result"))
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(HarnessError("the bot process went away"))

    async def settle(self, timeout: float = 60.0) -> None:
        """Wait until the bot has finished everything the events sent so far made it do."""
        await self._request({"op": "settle"}, timeout)

    async def call(self, name: str, *args: Any, timeout: float | None = 600.0) -> Any:
        """Run the child's handler ``name(bot, *args)``; its JSON result."""
        return await self._request({"op": "call", "name": name, "args": list(args)}, timeout)

    async def close(self) -> None:
        """What fake.disconnect calls: the bot closes and its process ends."""
        if self in self.fake._bots:  # type: ignore[comparison-overlap]
            self.fake._bots.remove(self)  # type: ignore[arg-type]
        if self.process.returncode is None:
            with contextlib.suppress(HarnessError, TimeoutError, ConnectionError):
                await self._request({"op": "close"}, 30)
            await self.process.wait()
        self._writer.close()
        self._pump.cancel()


async def serve_bot(
    factory: Callable[..., Any], handlers: dict[str, Handler], *args: Any, **kwargs: Any
) -> None:
    """The child's side: build the bot, log it in to the fake, then obey the parent."""
    host, port = os.environ[ENV_ADDRESS].rsplit(":", 1)
    discord.http.Route.BASE = os.environ[ENV_BASE]
    reader, writer = await asyncio.open_connection(host, int(port), limit=1 << 24)
    bot = factory(*args, **kwargs)
    if isinstance(bot, Awaitable):
        bot = await bot

    async def no_gateway(*_: Any, **__: Any) -> None:
        raise HarnessError("the bot process has no real gateway")

    bot.connect = no_gateway
    waiter = Driver()  # only its settle(): "every task the events started is done"
    waiter.settle_timeout = 600.0
    main = asyncio.current_task()
    waiter.settle_ignores.append(lambda t: t is main or t.get_name().startswith("fakediscord-"))
    tasks: set[asyncio.Task[Any]] = set()

    def reply(n: int, result: Any = None, error: str | None = None) -> None:
        body: dict[str, Any] = {"n": n, "result": result}
        if error is not None:
            body["error"] = error
        writer.write(_line(body))

    async def run(n: int, job: Awaitable[Any]) -> None:
        try:
            reply(n, await job)
        except Exception as exc:  # reported to the parent, which raises it
            reply(n, error=repr(exc))

    def spawn(n: int, job: Awaitable[Any], name: str) -> None:
        task = asyncio.create_task(run(n, job), name=f"fakediscord-{name}")
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def login() -> dict[str, Any]:
        bot._connection.guild_ready_timeout = 0.01
        await bot.login(os.environ[ENV_TOKEN])
        bot.ws = FakeGateway()
        return {"all_members": bool(bot.intents.members), "shard_count": bot.shard_count,
                "shard_id": bot.shard_id, "intents": bot.intents.value}

    async def await_ready() -> None:
        await asyncio.wait_for(bot.wait_until_ready(), 30)
        await waiter.settle(set())
        waiter._baseline = set(asyncio.all_tasks())

    while True:
        raw = await reader.readline()
        if not raw:
            break
        message = json.loads(raw)
        op = message["op"]
        if op == "event":
            # As discord.py's gateway does: the parser from the connection's table.
            bot._connection.parsers[message["t"]](message["d"])
        elif op == "login":
            spawn(message["n"], login(), "login")
        elif op == "await_ready":
            spawn(message["n"], await_ready(), "ready")
        elif op == "settle":
            spawn(message["n"], waiter.settle(), "settle")
        elif op == "call":
            handler = handlers[message["name"]]
            spawn(message["n"], handler(bot, *message["args"]), "call")
        elif op == "close":
            await bot.close()
            reply(message["n"])
            await writer.drain()
            break
    writer.close()
    sys.stdout.flush()
