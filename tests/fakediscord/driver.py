"""Driving a real discord.py bot against the fake: connecting it, and users' slash commands,
clicks, selects and modal submits fed through the bot's own gateway parser.

These run on the bot's event loop (the test's loop); the fake's HTTP server runs on its own.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.metrics import LAG_TASK
from db.sqlite import CHECKPOINT_TASK

from .models import FakeChannel, FakeMember, FakeMessage, FakeRole, FakeUser, snowflake
from .recording import InteractionRecord

if TYPE_CHECKING:
    from .server import FakeDiscord

_DISCORD_DIR = os.path.dirname(discord.__file__)
# discord.py tasks that run a handler of the bot: the tests wait for these.
_HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: ",
)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's rule: a server's events go to shard (id >> 22) % count; DMs to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def receives(bot: discord.Client, guild_id: int | None) -> bool:
    """Whether this bot (one shard, several, or unsharded) is sent a server's events."""
    count = bot.shard_count
    if not count:
        return True
    ids = getattr(bot, "shard_ids", None)
    if ids is None:
        ids = [bot.shard_id or 0]
    return shard_of(guild_id, count) in ids


class HarnessError(AssertionError):
    """A test asked for something Discord would never let a user do (or the bot hung)."""


class FakeGateway:
    """Stands in for the bot's websocket: records presence changes; never touches a network."""

    open = False
    latency = 0.0
    shard_id = None

    def __init__(self) -> None:
        self.presences: list[tuple[discord.BaseActivity | None, str | None]] = []

    def is_ratelimited(self) -> bool:
        return False

    async def change_presence(
        self, *, activity: Any = None, status: str | None = None, since: float = 0.0
    ) -> None:
        self.presences.append((activity, status))

    async def request_chunks(self, *args: Any, **kwargs: Any) -> None:
        raise HarnessError(
            "the fake Discord has no member chunking: the bot must not need privileged intents"
        )

    async def close(self, code: int = 1000) -> None:
        return None


class InteractionResult:
    """What the bot did with one interaction, read after the bot's handlers finished."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self.fake = fake
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def callback_type(self) -> int | None:
        """4 reply, 5 deferred reply, 6 deferred update, 7 update, 8 autocomplete, 9 modal."""
        return self.record.callback_type

    @property
    def responded(self) -> bool:
        return self.record.callback_type is not None

    @property
    def message(self) -> FakeMessage | None:
        """The reply (types 4, 5) or the updated message (types 6, 7), as it is now."""
        mid = self.record.original_message_id
        return None if mid is None else self.fake.message(mid)

    @property
    def answer(self) -> FakeMessage:
        """The message of ``message``, for a test that expects one: fails when there is none."""
        message = self.message
        assert message is not None, f"no reply or updated message for {self!r}"
        return message

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.message(mid) for mid in self.record.followup_ids]

    @property
    def messages(self) -> list[FakeMessage]:
        """The reply (if it is a new message) and the follow-ups."""
        out = self.followups
        if self.record.callback_type in (4, 5) and self.message is not None:
            out.insert(0, self.message)
        return out

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return message is not None and message.ephemeral

    @property
    def content(self) -> str | None:
        return None if self.message is None else self.message.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return [] if self.message is None else self.message.embeds

    @property
    def components(self) -> list[dict[str, Any]]:
        return [] if self.message is None else self.message.components

    @property
    def attachments(self) -> list[Any]:
        return [] if self.message is None else self.message.attachments

    @property
    def text(self) -> str:
        """Content, embed titles, descriptions and fields of the reply and follow-ups, joined."""
        parts: list[str] = []
        for message in self.messages or ([self.message] if self.message else []):
            parts.append(message.content)
            for embed in message.embeds:
                parts += [embed.get("title") or "", embed.get("description") or ""]
                for fld in embed.get("fields") or []:
                    parts += [fld.get("name") or "", fld.get("value") or ""]
            for comp in message.walk_components():
                if comp.get("type") == 10:
                    parts.append(comp.get("content") or "")
        return "\n".join(p for p in parts if p)

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.autocomplete_choices

    @property
    def rejected(self) -> list[Any]:
        """Requests about this interaction the fake refused (late, twice, invalid...)."""
        return list(self.record.rejected)

    @property
    def error_codes(self) -> list[int | None]:
        return [r.error_code for r in self.record.rejected]

    @property
    def latency(self) -> float | None:
        return self.record.latency

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.id} callback={self.callback_type} content={self.content!r}>"
        )


class Driver:
    """The in-loop half of FakeDiscord (mixed into it)."""

    lock: Any
    application_id: int
    bot_user: FakeUser
    token: str
    callback_deadline: float
    _guilds: dict[int, Any]
    _channels: dict[int, FakeChannel]
    _messages: dict[int, FakeMessage]
    _interactions: dict[int, InteractionRecord]
    _by_token: dict[str, InteractionRecord]
    _commands: dict[int | None, dict[tuple[str, int], dict[str, Any]]]

    def __init__(self) -> None:
        self._bots: list[discord.Client] = []
        self._baseline: set[asyncio.Task[Any]] = set()
        self.settle_timeout = 15.0
        # Predicates for long-lived tasks of the bot that settle() must not wait for.
        self.settle_ignores: list[Callable[[asyncio.Task[Any]], bool]] = []
        self._command_ids: dict[tuple[int | None, str], int] = {}

    if TYPE_CHECKING:

        def install(self) -> None: ...
        def _dm_channel_for(self, user: FakeUser) -> FakeChannel: ...

    # ------------------------------------------------------------------ connecting
    async def connect(self, bot: discord.Client, *, token: str | None = None) -> discord.Client:
        """Log the bot in (real bot.login: /users/@me, /oauth2/applications/@me, setup_hook),
        then feed READY and GUILD_CREATE and wait for on_ready. Never opens a gateway."""
        self.install()
        before = set(asyncio.all_tasks())

        async def no_gateway(*args: Any, **kwargs: Any) -> None:
            raise HarnessError(
                "bot.connect()/start() would reach the real gateway; use fake.connect(bot)"
            )

        bot.connect = no_gateway  # type: ignore[method-assign]
        state = bot._connection
        state.guild_ready_timeout = 0.01  # all guilds arrive at once; do not wait 2 s for more
        await bot.login(token or self.token)
        bot.ws = FakeGateway()  # type: ignore[assignment]
        ready, guilds = self.hello_payloads(all_members=bool(bot.intents.members))
        # A sharded bot hears only of its shards' servers (Discord's rule: shard_of below).
        guilds = [g for g in guilds if receives(bot, int(g["id"]))]
        ready["guilds"] = [g for g in ready["guilds"] if receives(bot, int(g["id"]))]
        state.parse_ready(ready)  # type: ignore[arg-type]
        for guild in guilds:
            state.parse_guild_create(guild)
        self._bots.append(bot)
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 10)
        except TimeoutError:
            raise HarnessError("the bot never became ready") from None
        # on_ready and on_guild_available handlers (restoring state, say) finish before the test
        # goes on; tasks alive before login (the test's own) are not waited for.
        await self.settle(before)
        self._baseline = set(asyncio.all_tasks())
        return bot

    def hello_payloads(
        self, *, all_members: bool
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """READY and the GUILD_CREATE payloads a bot receives when it connects."""
        with self.lock:
            guilds = [g.payload(all_members=all_members) for g in self._guilds.values()]
            ready: dict[str, Any] = {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [{"id": g["id"], "unavailable": True} for g in guilds],
                "session_id": secrets.token_hex(16),
                "resume_gateway_url": "ws://127.0.0.1:9",
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            }
        return ready, guilds

    async def start_bot(self, factory: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Build a bot with factory(*args, **kwargs) (e.g. create_bot, db_path), connect it."""
        bot = factory(*args, **kwargs)
        if isinstance(bot, Awaitable):
            bot = await bot
        await self.connect(bot)
        return bot

    async def disconnect(self, bot: discord.Client) -> None:
        """Close the bot (as on shutdown); it receives nothing more. For restart tests."""
        if bot in self._bots:
            self._bots.remove(bot)
        await bot.close()

    async def close_bots(self) -> None:
        for bot in list(self._bots):
            await self.disconnect(bot)

    # ------------------------------------------------------------------ waiting
    def _ignored(self, task: asyncio.Task[Any]) -> bool:
        name = task.get_name()
        if name.startswith(_HANDLER_TASK_PREFIXES):
            return False
        coro = task.get_coro()
        code = getattr(coro, "cr_code", None)
        # discord.py's own timers (view timeouts, delete_after, ready) are not the bot's work.
        if code is not None and code.co_filename.startswith(_DISCORD_DIR):
            return True
        # The database's checkpoint timer, the metrics' event-loop timer: they never end.
        if name in (CHECKPOINT_TASK, LAG_TASK):
            return True
        return any(ignore(task) for ignore in self.settle_ignores)

    async def settle(
        self, before: set[asyncio.Task[Any]] | None = None, *, timeout: float | None = None
    ) -> None:
        """Wait until every task started since `before` (default: since connect) has finished,
        i.e. until the bot has done everything an event made it do."""
        baseline = self._baseline if before is None else before
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.settle_timeout)
        me = asyncio.current_task()
        quiet_rounds = 0
        while quiet_rounds < 3:
            pending = [
                t
                for t in asyncio.all_tasks()
                if t is not me and t not in baseline and not t.done() and not self._ignored(t)
            ]
            if not pending:
                quiet_rounds += 1
                await asyncio.sleep(0)  # let gateway events posted from the server thread land
                continue
            quiet_rounds = 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = ", ".join(
                    f"{t.get_name()}:{getattr(t.get_coro(), '__qualname__', '?')}" for t in pending
                )
                raise HarnessError(
                    f"the bot was still busy after {timeout or self.settle_timeout}s: {names} "
                    "(a deliberate long-lived task? add a predicate to fake.settle_ignores)"
                )
            # Not only until they finish: a long-lived task may become ignorable meanwhile
            # (settle_ignores, e.g. a send that parked in a backoff), so look again soon.
            await asyncio.wait(pending, timeout=min(remaining, 0.05))

    # ------------------------------------------------------------------ interactions
    def _check_bot(self, bot: discord.Client) -> None:
        if bot not in self._bots:
            raise HarnessError(
                "this bot is not connected to the fake (await fake.connect(bot) first)"
            )

    def _interaction_payload(
        self,
        kind: int,
        user: FakeMember | FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> tuple[dict[str, Any], InteractionRecord]:
        """Build an INTERACTION_CREATE payload and the fake's record of it (lock held)."""
        if channel.deleted:
            raise HarnessError(f"#{channel.name} was deleted")
        iid = snowflake()
        token = f"aW50ZXJhY3Rpb24.{iid}.{secrets.token_urlsafe(24)}"
        fake_user = user.user if isinstance(user, FakeMember) else user
        guild = channel.guild
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": fake_user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "app_permissions": str(channel.effective_bot_permissions().value),
        }
        if guild is not None:
            if not isinstance(user, FakeMember) or user.guild is not guild:
                raise HarnessError(f"{fake_user.name} is not a member of {guild.name}")
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=user.payload(with_permissions=True),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            if channel.recipient is None or channel.recipient.id != fake_user.id:
                raise HarnessError(f"{fake_user.name} cannot see that DM channel")
            payload.update(
                user=fake_user.payload(),
                authorizing_integration_owners={"0": str(self.application_id)},
                context=1,
            )
        if message is not None:
            payload["message"] = message.payload()
        record = InteractionRecord(
            id=iid,
            token=token,
            type=kind,
            user=fake_user,
            channel=channel,
            guild=guild,
            created=time.monotonic(),
            message_id=message.id if message is not None else None,
        )
        self._interactions[iid] = record
        self._by_token[token] = record
        return payload, record

    async def _dispatch(
        self, bot: discord.Client, payload: dict[str, Any], record: InteractionRecord, *, wait: bool
    ) -> InteractionResult:
        before = set(asyncio.all_tasks())
        # The fake's deadline counts from here, as Discord's counts from the event's dispatch.
        record.created = time.monotonic()
        bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        if wait:
            await self.settle(before)
        return InteractionResult(self, record)  # type: ignore[arg-type]

    def _resolve_message(self, message: Any) -> FakeMessage:
        if isinstance(message, InteractionResult):
            if message.message is None:
                raise HarnessError(f"{message!r} produced no message to click on")
            message = message.message
        mid = message if isinstance(message, int) else int(message.id)
        with self.lock:
            found = self._messages.get(mid)
        if found is None or found.deleted:
            raise HarnessError(f"message {mid} does not exist (or was deleted)")
        return found

    def _message_channel(self, user: FakeMember | FakeUser, message: FakeMessage) -> FakeChannel:
        channel = self._channels[message.channel_id]
        uid = user.id
        if channel.deleted:
            raise HarnessError("that message's channel was deleted")
        if message.ephemeral and message.visible_to != uid:
            raise HarnessError(f"message {message.id} is ephemeral for someone else")
        if channel.guild is None and (channel.recipient is None or channel.recipient.id != uid):
            raise HarnessError(f"message {message.id} is in someone else's DMs")
        return channel

    async def click(
        self,
        bot: discord.Client,
        user: FakeMember | FakeUser,
        message: Any,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        allow_stale: bool = False,
    ) -> InteractionResult:
        """`user` clicks the button `custom_id` (or the one labelled `label`) on `message`
        (a FakeMessage, its id, or an InteractionResult whose message it is). Like Discord, only
        an enabled button present on the message as stored now can be clicked.

        allow_stale=True plays a lagging client that still shows an earlier version of the
        message: the button need only have been on some version, while the interaction carries
        the message as it is now (so discord.py will not dispatch a DynamicItem that is gone)."""
        self._check_bot(bot)
        with self.lock:
            msg = self._resolve_message(message)
            channel = self._message_channel(user, msg)
            comp: dict[str, Any] | None
            try:
                comp = msg.component(custom_id, label=label)
            except KeyError as exc:
                comp = _stale_component(msg, custom_id, label) if allow_stale else None
                if comp is None:
                    raise HarnessError(str(exc)) from None
            if comp.get("type") != 2 or comp.get("style") in (5, 6):
                raise HarnessError(f"{comp!r} is not a clickable button")
            if comp.get("disabled"):
                raise HarnessError(
                    f"button {comp.get('label')!r} ({comp['custom_id']}) is disabled"
                )
            data = {"custom_id": comp["custom_id"], "component_type": 2}
            if "id" in comp:
                data["id"] = comp["id"]
            payload, record = self._interaction_payload(3, user, channel, data, msg)
        return await self._dispatch(bot, payload, record, wait=wait)

    async def select(
        self,
        bot: discord.Client,
        user: FakeMember | FakeUser,
        message: Any,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
    ) -> InteractionResult:
        """`user` picks `values` in the string select `custom_id` on `message`."""
        self._check_bot(bot)
        with self.lock:
            msg = self._resolve_message(message)
            channel = self._message_channel(user, msg)
            try:
                comp = msg.component(custom_id)
            except KeyError as exc:
                raise HarnessError(str(exc)) from None
            if comp.get("type") != 3:
                raise HarnessError(f"{custom_id} is not a string select (only those are supported)")
            if comp.get("disabled"):
                raise HarnessError(f"select {custom_id} is disabled")
            allowed = [o["value"] for o in comp.get("options", [])]
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise HarnessError(f"values {unknown} are not options of {custom_id} ({allowed})")
            low, high = comp.get("min_values", 1), comp.get("max_values", 1)
            if not low <= len(values) <= high:
                raise HarnessError(f"{custom_id} takes {low}..{high} values, got {len(values)}")
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
            payload, record = self._interaction_payload(3, user, channel, data, msg)
        return await self._dispatch(bot, payload, record, wait=wait)

    async def submit_modal(
        self,
        bot: discord.Client,
        user: FakeMember | FakeUser,
        opened_by: InteractionResult,
        values: dict[str, str],
        *,
        wait: bool = True,
    ) -> InteractionResult:
        """Submit the modal the bot opened in answer to `opened_by`, with text input values."""
        self._check_bot(bot)
        modal = opened_by.modal
        if modal is None:
            raise HarnessError(f"{opened_by!r} did not open a modal")
        inputs = [
            c
            for row in modal.get("components", [])
            for c in row.get("components", [])
            if c.get("type") == 4
        ]
        if single := ([c for c in modal.get("components", []) if c.get("type") == 18]):
            inputs += [c["component"] for c in single if c.get("component", {}).get("type") == 4]
        known = {c["custom_id"] for c in inputs}
        if set(values) - known:
            raise HarnessError(f"modal has no inputs {set(values) - known} (it has {known})")
        missing = [
            c["custom_id"]
            for c in inputs
            if c.get("required", True) and not values.get(c["custom_id"])
        ]
        if missing:
            raise HarnessError(f"required modal inputs left empty: {missing}")
        rows = [
            {
                "type": 1,
                "components": [
                    {
                        "type": 4,
                        "custom_id": c["custom_id"],
                        "value": values.get(c["custom_id"], ""),
                    }
                ],
            }
            for c in inputs
        ]
        data = {"custom_id": modal["custom_id"], "components": rows}
        with self.lock:
            rec = opened_by.record
            msg = self._messages.get(rec.message_id) if rec.message_id else None
            payload, record = self._interaction_payload(5, user, rec.channel, data, msg)
        return await self._dispatch(bot, payload, record, wait=wait)

    async def slash(
        self,
        bot: discord.Client,
        user: FakeMember | FakeUser,
        channel: FakeChannel,
        command: str,
        *,
        wait: bool = True,
        **options: Any,
    ) -> InteractionResult:
        """`user` runs the slash command `command` ("belote new": the path as words) in
        `channel` with `options` (by the option's name; members, channels and roles as fake
        objects). The options are checked against the command's definition (required, choices,
        ranges) as Discord's client would before sending anything."""
        self._check_bot(bot)
        words = command.split()
        with self.lock:
            schema, guild_scoped, command_id = self._command_schema(bot, channel, words[0])
            _check_default_permissions(schema, user, channel, command)
            data: dict[str, Any] = {"id": str(command_id), "name": words[0], "type": 1}
            if guild_scoped and channel.guild is not None:
                data["guild_id"] = str(channel.guild.id)
            python_names = _python_names(bot, words, channel)
            target: dict[str, Any] = data
            node = schema
            for word in words[1:]:
                sub = next(
                    (
                        o
                        for o in node.get("options", [])
                        if o["name"] == word and o["type"] in (1, 2)
                    ),
                    None,
                )
                if sub is None:
                    raise HarnessError(f"/{command}: no subcommand {word!r} under {node['name']!r}")
                entry: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
                target.setdefault("options", []).append(entry)
                target, node = entry, sub
            if any(o["type"] in (1, 2) for o in node.get("options", [])):
                raise HarnessError(f"/{command} is a group: name a subcommand")
            resolved: dict[str, dict[str, Any]] = {}
            target.setdefault("options", [])
            target["options"] += _build_options(node, options, python_names, resolved, command)
            if resolved:
                data["resolved"] = resolved
            payload, record = self._interaction_payload(2, user, channel, data)
        return await self._dispatch(bot, payload, record, wait=wait)

    async def autocomplete(
        self,
        bot: discord.Client,
        user: FakeMember | FakeUser,
        channel: FakeChannel,
        command: str,
        focused: str,
        *,
        wait: bool = True,
        **options: Any,
    ) -> InteractionResult:
        """Typing in option `focused` of /command: the result's `choices` are the bot's answer."""
        self._check_bot(bot)
        words = command.split()
        with self.lock:
            schema, guild_scoped, command_id = self._command_schema(bot, channel, words[0])
            data: dict[str, Any] = {"id": str(command_id), "name": words[0], "type": 1}
            if guild_scoped and channel.guild is not None:
                data["guild_id"] = str(channel.guild.id)
            target, node = data, schema
            for word in words[1:]:
                sub = next(o for o in node.get("options", []) if o["name"] == word)
                entry: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
                target.setdefault("options", []).append(entry)
                target, node = entry, sub
            target.setdefault("options", [])
            names = _python_names(bot, words, channel)
            options = {names.get(k, k): v for k, v in options.items()}
            focused = names.get(focused, focused)
            for opt in node.get("options", []):
                if opt["name"] in options:
                    item = {"name": opt["name"], "type": opt["type"], "value": options[opt["name"]]}
                    if opt["name"] == focused:
                        item["focused"] = True
                    target["options"].append(item)
            payload, record = self._interaction_payload(4, user, channel, data)
        return await self._dispatch(bot, payload, record, wait=wait)

    def _command_schema(
        self, bot: discord.Client, channel: FakeChannel, name: str
    ) -> tuple[dict[str, Any], bool, int]:
        """The definition users see: the synced one once the bot synced, else the bot's tree."""
        gid = channel.guild.id if channel.guild is not None else None
        found: dict[str, Any] | None = None
        guild_scoped = False
        if gid is not None and (name, 1) in self._commands.get(gid, {}):
            found, guild_scoped = self._commands[gid][(name, 1)], True
        elif (name, 1) in self._commands.get(None, {}):
            found = self._commands[None][(name, 1)]
        elif any(self._commands.values()):
            synced = {scope: [key[0] for key in cmds] for scope, cmds in self._commands.items()}
            raise HarnessError(
                f"/{name} was never synced to Discord for this place (synced: {synced})"
            )
        else:
            tree = getattr(bot, "tree", None)
            cmd = None
            if tree is not None and gid is not None:
                cmd = tree.get_command(name, guild=discord.Object(gid))
                guild_scoped = cmd is not None
            if tree is not None and cmd is None:
                cmd = tree.get_command(name)
            if cmd is None:
                raise HarnessError(f"the bot has no slash command /{name}")
            found = cmd.to_dict(tree)
        assert found is not None
        self._check_can_use(found, channel, name)
        key = (gid if guild_scoped else None, name)
        command_id = (
            int(found["id"]) if "id" in found else self._command_ids.setdefault(key, snowflake())
        )
        return found, guild_scoped, command_id

    def _check_can_use(self, schema: dict[str, Any], channel: FakeChannel, name: str) -> None:
        """Discord's client hides a command where its contexts or default permissions exclude it."""
        contexts = schema.get("contexts")
        where = 0 if channel.guild is not None else 1
        if contexts is not None and where not in contexts:
            raise HarnessError(f"/{name} is not offered {'in servers' if where == 0 else 'in DMs'}")
        if where == 1 and schema.get("dm_permission") is False:
            raise HarnessError(f"/{name} is not offered in DMs")


def _stale_component(
    message: FakeMessage, custom_id: str | None, label: str | None
) -> dict[str, Any] | None:
    """The newest earlier version of a component that is no longer on the message."""
    for version in reversed(message.versions):
        old = FakeMessage(
            id=message.id,
            channel_id=message.channel_id,
            guild_id=message.guild_id,
            author=message.author,
            components=version.components,
        )
        try:
            return old.component(custom_id, label=label)
        except KeyError:
            continue
    return None


def _check_default_permissions(
    schema: dict[str, Any], user: FakeMember | FakeUser, channel: FakeChannel, command: str
) -> None:
    """A command's default_member_permissions hide it from members who lack them."""
    required = schema.get("default_member_permissions")
    if required is None or channel.guild is None or not isinstance(user, FakeMember):
        return
    have = user.permissions()
    admin = discord.Permissions.all().value
    if (int(required) == 0 and have != admin) or int(required) & ~have:
        raise HarnessError(
            f"/{command} is hidden from {user.name}: it needs permissions {required}"
        )


def _python_names(bot: discord.Client, words: list[str], channel: FakeChannel) -> dict[str, str]:
    """Map the callback's parameter names to option names (they differ with @rename)."""
    tree = getattr(bot, "tree", None)
    if tree is None:
        return {}
    gid = channel.guild.id if channel.guild is not None else None
    cmd = tree.get_command(words[0], guild=discord.Object(gid)) if gid else None
    cmd = cmd or tree.get_command(words[0])
    for word in words[1:]:
        if cmd is None or not hasattr(cmd, "get_command"):
            return {}
        cmd = cmd.get_command(word)
    params = getattr(cmd, "_params", None) or {}
    return {p.name: p.display_name for p in params.values()}


def _build_options(
    node: dict[str, Any],
    given: dict[str, Any],
    python_names: dict[str, str],
    resolved: dict[str, dict[str, Any]],
    command: str,
) -> list[dict[str, Any]]:
    given = {python_names.get(k, k): v for k, v in given.items()}
    schema = {o["name"]: o for o in node.get("options", [])}
    unknown = set(given) - set(schema)
    if unknown:
        raise HarnessError(f"/{command} has no options {sorted(unknown)} (it has {sorted(schema)})")
    out = []
    for name, opt in schema.items():
        if name not in given or given[name] is None:
            if opt.get("required"):
                raise HarnessError(f"/{command}: option {name!r} is required")
            continue
        value = _option_value(opt, given[name], resolved, command)
        out.append({"name": name, "type": opt["type"], "value": value})
    return out


def _option_value(
    opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], command: str
) -> Any:
    kind, name = opt["type"], opt["name"]
    if kind == 3:
        if not isinstance(value, str):
            raise HarnessError(f"/{command} {name}: a string is needed, got {value!r}")
        if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
            raise HarnessError(f"/{command} {name}: length out of range")
    elif kind == 4:
        if isinstance(value, bool) or not isinstance(value, int):
            raise HarnessError(f"/{command} {name}: an integer is needed, got {value!r}")
    elif kind == 10:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise HarnessError(f"/{command} {name}: a number is needed, got {value!r}")
    elif kind == 5:
        if not isinstance(value, bool):
            raise HarnessError(f"/{command} {name}: a boolean is needed, got {value!r}")
    elif kind in (6, 9) and isinstance(value, FakeMember | FakeUser):
        user = value.user if isinstance(value, FakeMember) else value
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if isinstance(value, FakeMember):
            member = value.payload(with_permissions=True)
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)
    elif kind in (8, 9) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    elif kind == 7 and isinstance(value, FakeChannel):
        channel = value.payload()
        channel["permissions"] = str(value.effective_bot_permissions().value)
        types = opt.get("channel_types")
        if types and value.type not in types:
            raise HarnessError(f"/{command} {name}: channel type {value.type} not in {types}")
        resolved.setdefault("channels", {})[str(value.id)] = channel
        return str(value.id)
    else:
        raise HarnessError(f"/{command} {name}: cannot send {value!r} for option type {kind}")
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise HarnessError(
            f"/{command} {name}: {value!r} is not a choice ({[c['value'] for c in choices]})"
        )
    if "min_value" in opt and opt["min_value"] is not None and value < opt["min_value"]:
        raise HarnessError(f"/{command} {name}: {value} < min {opt['min_value']}")
    if "max_value" in opt and opt["max_value"] is not None and value > opt["max_value"]:
        raise HarnessError(f"/{command} {name}: {value} > max {opt['max_value']}")
    return value
