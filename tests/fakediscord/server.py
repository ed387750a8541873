"""FakeDiscord: Discord's REST API v10 on 127.0.0.1, strict like the real one.

The HTTP server runs on its own thread and event loop, so that the bot's loop holds only the
bot's work (the tests wait for that work to finish, and the benchmark measures its lag), and so
that the 3-second interaction deadline is measured by a clock the bot cannot stall. All state is
guarded by one lock; route handlers are synchronous functions that run under it.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Literal, overload

import discord
from aiohttp import BodyPartReader, web

from . import limits
from .driver import Driver, HarnessError, receives, shard_of
from .faults import Faults
from .models import (
    BOT_ROLE_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    iso_now,
    pings,
    snowflake,
)
from .ratelimit import RateLimiter
from .recording import InteractionRecord, RecordedRequest, UploadedFile

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
EPHEMERAL, LOADING, SUPPRESS_EMBEDS, IS_COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 2, 1 << 15


class ApiError(Exception):
    """Raised by a route handler; becomes Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


def _form_error(errors: limits.FormErrors) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", errors.tree)


class Req:
    """A parsed request as a route handler sees it."""

    def __init__(
        self, params: dict[str, str], query: dict[str, str], body: Any, files: list[UploadedFile]
    ):
        self.params, self.query, self.body, self.files = params, query, body, files

    def int(self, name: str) -> int:
        return int(self.params[name])


Handler = Callable[[Req], tuple[int, Any]]


class FakeDiscord(Driver):
    """A fake Discord for one test: state, an HTTP server, and drivers for users' actions."""

    def __init__(self, *, callback_deadline: float = 3.0, token_lifetime: float = 900.0) -> None:
        super().__init__()
        self.lock = threading.RLock()
        self.callback_deadline = callback_deadline
        self.token_lifetime = token_lifetime
        self.token = "fake-bot-token." + secrets.token_hex(8)
        self.application_id = snowflake()
        # Modern applications share their id with their bot user.
        self.bot_user = FakeUser(self.application_id, "Belote", bot=True)
        self._users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self._guilds: dict[int, FakeGuild] = {}
        self._channels: dict[int, FakeChannel] = {}
        self._dm_channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        # Messages sent with enforce_nonce: (author, nonce) -> (message id, when), as Discord
        # keeps them for a few minutes to answer a repeated send with the message it made.
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self._interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._commands: dict[int | None, dict[tuple[str, int], dict[str, Any]]] = {}
        self._requests: list[RecordedRequest] = []
        self._attachments_by_id: dict[int, FakeAttachment] = {}
        # Uploaded bytes stay on the messages' attachments either way; False drops the copy in
        # the request log (a long benchmark would otherwise keep every rendered image twice).
        self.keep_upload_bytes = True
        # Off by default (tests should not wait on buckets); on, Discord's limits apply: per
        # route and channel (5 messages per 5 s...) and global (50/s), with the headers.
        self.rate_limits = False
        self.rate_limiter = RateLimiter()
        # Injected failures (5xx, dropped connections, outages): see faults.py.
        self.faults = Faults()
        # A slow Discord: each answer leaves this many seconds after the request was done
        # (a callable, so a benchmark can draw them from a seeded generator). None: at once.
        self.answer_delay: Callable[[], float] | None = None
        self.crashes: list[str] = []
        self.unhandled: list[RecordedRequest] = []
        # ERROR records from the "discord" and "asyncio" loggers (filled by the pytest fixture).
        self.bot_errors: list[logging.LogRecord] = []
        self._thread: threading.Thread | None = None
        self._server_loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._old_base: str | None = None
        self._routes: list[tuple[str, str, Handler]] = []
        self._define_routes()

    # ------------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> FakeDiscord:
        """Serve on a random loopback port, on a thread of its own. Returns self."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._server_loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._serve())
            except BaseException as exc:  # reported to start()'s caller
                failure.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._runner.cleanup() if self._runner else asyncio.sleep(0))
            loop.close()

        self._thread = threading.Thread(target=run, name="fake-discord", daemon=True)
        self._thread.start()
        ready.wait(10)
        if failure:
            raise failure[0]
        return self

    async def _serve(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        for method, template, handler in self._routes:
            app.router.add_route(method, API_PREFIX + template, self._wrap(template, handler))
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment
        )
        app.router.add_route("*", "/{tail:.*}", self._unknown_route)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    def install(self) -> None:
        """Point discord.py (REST and webhook adapter both) at this fake."""
        if self._old_base is None:
            self._old_base = discord.http.Route.BASE
        discord.http.Route.BASE = self.base_url + API_PREFIX

    def uninstall(self) -> None:
        if self._old_base is not None:
            discord.http.Route.BASE = self._old_base
            self._old_base = None

    def close(self) -> None:
        """Stop serving and restore Route.BASE. Bots should be closed first (close_bots)."""
        self.uninstall()
        loop = self._server_loop
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self._thread = None

    # ------------------------------------------------------------------ builders
    def _new_user(self, name: str) -> FakeUser:
        user = FakeUser(snowflake(), name)
        self._users[user.id] = user
        return user

    def add_user(self, name: str) -> FakeUser:
        with self.lock:
            return self._new_user(name)

    def add_guild(self, name: str = "Test server", *, shard: tuple[int, int] | None = None
                  ) -> FakeGuild:
        """A server the bot is in, with an owner member (guild.owner) and a #general channel.
        ``shard=(i, count)``: its id puts it in shard i of count (Discord's rule)."""
        with self.lock:
            gid = snowflake()
            while shard is not None and shard_of(gid, shard[1]) != shard[0]:
                gid += 1 << 22  # a millisecond later
            owner = self._new_user(f"{name} owner")
            everyone = FakeRole(gid, "@everyone", EVERYONE_PERMISSIONS.value)
            bot_role = FakeRole(
                snowflake(), self.bot_user.name, BOT_ROLE_PERMISSIONS.value, 1, managed=True
            )
            guild = FakeGuild(
                id=gid,
                name=name,
                owner_id=owner.id,
                bot_user=self.bot_user,
                everyone=everyone,
                bot_role=bot_role,
                fake=self,
            )
            guild.roles = {everyone.id: everyone, bot_role.id: bot_role}
            guild.members[owner.id] = FakeMember(owner, guild)
            self._guilds[gid] = guild
        guild.add_text_channel("general")
        self._gateway("GUILD_CREATE", guild.payload(all_members=False))
        return guild

    # ------------------------------------------------------------------ inspecting
    @property
    def requests(self) -> list[RecordedRequest]:
        with self.lock:
            return list(self._requests)

    def requests_to(
        self, method: str | None = None, route: str | None = None, *, since: int = 0
    ) -> list[RecordedRequest]:
        """Recorded requests, optionally by method and route template (a regex, fully matched)."""
        with self.lock:
            return [
                r
                for r in self._requests[since:]
                if (method is None or r.method == method.upper())
                and (route is None or re.fullmatch(route, r.route) or r.route == route)
            ]

    def edits_of(self, message_id: int, *, since: int = 0) -> list[RecordedRequest]:
        """The requests since ``since`` that edited this message, by either route (see
        ``edited_message``), whatever Discord answered."""
        return [r for r in self.requests_to("PATCH", since=since)
                if self.edited_message(r) == message_id]

    def edited_message(self, r: RecordedRequest) -> int | None:
        """The message a request edits, by either route: an edit of the message itself, or
        one through an interaction's token (its @original or a follow-up); None for anything
        else, or a token the fake never gave."""
        if r.method != "PATCH":
            return None
        if r.route == CHANNEL_EDIT:
            return int(r.path.rsplit("/", 1)[1])
        if r.route != WEBHOOK_EDIT:
            return None
        _, _, _, token, _, which = r.path.split("/")
        with self.lock:
            return self._token_target(token, which)

    def _token_target(self, token: str, which: str) -> int | None:
        """The message an edit through ``token`` is for: its @original, or one by id."""
        if which != "@original":
            return int(which) if which.isdigit() else None
        rec = self._by_token.get(token)
        return rec.original_message_id if rec is not None else None

    def mark(self) -> int:
        """A position in the request log; pass it as since= to see only later requests."""
        with self.lock:
            return len(self._requests)

    def _channel_id(self, channel: FakeChannel | int | Any) -> int:
        return channel if isinstance(channel, int) else int(channel.id)

    def messages(
        self,
        channel: FakeChannel | int,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[FakeMessage]:
        """Messages in a channel (or thread, or DM channel), oldest first."""
        cid = self._channel_id(channel)
        with self.lock:
            return [
                m
                for m in self._messages.values()
                if m.channel_id == cid
                and (include_ephemeral or not m.ephemeral)
                and (include_deleted or not m.deleted)
            ]

    def all_messages(self, *, include_deleted: bool = True) -> list[FakeMessage]:
        with self.lock:
            return [m for m in self._messages.values() if include_deleted or not m.deleted]

    def ephemeral_messages(self, user: FakeMember | FakeUser | int) -> list[FakeMessage]:
        uid = user if isinstance(user, int) else user.id
        with self.lock:
            return [m for m in self._messages.values() if m.ephemeral and m.visible_to == uid]

    @overload
    def dm_channel(
        self, user: FakeMember | FakeUser | int, *, create: Literal[True]
    ) -> FakeChannel: ...

    @overload
    def dm_channel(
        self, user: FakeMember | FakeUser | int, *, create: bool = False
    ) -> FakeChannel | None: ...

    def dm_channel(
        self, user: FakeMember | FakeUser | int, *, create: bool = False
    ) -> FakeChannel | None:
        """The user's DM channel with the bot (create=True opens it, as a user writing first)."""
        uid = user if isinstance(user, int) else user.id
        with self.lock:
            if create and uid not in self._dm_channels:
                return self._dm_channel_for(self._users[uid])
            return self._dm_channels.get(uid)

    def public_messages(self) -> list[FakeMessage]:
        """Every message anyone in a server could have seen (deleted ones too): not DMs, not
        ephemeral. Check each one's .versions for hidden information."""
        with self.lock:
            return [m for m in self._messages.values() if m.is_public]

    def dm_messages(
        self, user: FakeMember | FakeUser | int, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        channel = self.dm_channel(user)
        return [] if channel is None else self.messages(channel, include_deleted=include_deleted)

    def message(self, message_id: int | Any) -> FakeMessage:
        mid = message_id if isinstance(message_id, int) else int(message_id.id)
        with self.lock:
            return self._messages[mid]

    def channel(self, channel_id: int) -> FakeChannel:
        with self.lock:
            return self._channels[channel_id]

    def threads(self, channel: FakeChannel | int) -> list[FakeChannel]:
        cid = self._channel_id(channel)
        with self.lock:
            return [
                c
                for c in self._channels.values()
                if c.is_thread and c.parent_id == cid and not c.deleted
            ]

    def interaction(self, interaction_id: int) -> InteractionRecord:
        with self.lock:
            return self._interactions[interaction_id]

    def interactions(self) -> list[InteractionRecord]:
        with self.lock:
            return list(self._interactions.values())

    def registered_commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        gid = None if guild is None else self._channel_id(guild)
        with self.lock:
            return list(self._commands.get(gid, {}).values())

    def delete_channel(self, channel: FakeChannel) -> None:
        """As if a moderator deleted it: the bot's later requests there get 10003."""
        with self.lock:
            channel.deleted = True
        self._gateway(
            "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", _delete_payload(channel)
        )

    def delete_message(self, message: FakeMessage, *, unheard: bool = False) -> None:
        """As if its author or a moderator deleted it: the bot's later edits get 10008.
        ``unheard``: while the bot's gateway was away (reconnecting), so that no event of it
        reaches the bot, as Discord does not replay a lost session's events."""
        with self.lock:
            self._message_deleted(message, event=not unheard)

    def delete_messages(self, messages: list[FakeMessage]) -> None:
        """As if a moderator deleted these messages of one channel at once (a bulk delete):
        one MESSAGE_DELETE_BULK event."""
        channels = {m.channel_id for m in messages}
        if len(channels) != 1:
            raise HarnessError("a bulk delete is of one channel's messages")
        with self.lock:
            for message in messages:
                self._message_deleted(message, event=False)
            payload: dict[str, Any] = {"ids": [str(m.id) for m in messages],
                                       "channel_id": str(messages[0].channel_id)}
            if messages[0].guild_id is not None:
                payload["guild_id"] = str(messages[0].guild_id)
            self._gateway("MESSAGE_DELETE_BULK", payload)

    def say(self, member: FakeMember, channel: FakeChannel | int, content: str) -> FakeMessage:
        """A member writes in a channel of the server: the server's chat, which a bot with
        the guild_messages intent hears of (MESSAGE_CREATE)."""
        with self.lock:
            where = self.channel(self._channel_id(channel))
            message = FakeMessage(id=snowflake(), channel_id=where.id,
                                  guild_id=where.guild.id if where.guild else None,
                                  author=member.user, content=content)
            self._messages[message.id] = message
            message.snapshot()
            self._message_created(where, message)
            return message

    # ------------------------------------------------------------------ HTTP plumbing
    def _wrap(self, template: str, handler: Handler) -> Callable[[web.Request], Any]:
        async def endpoint(request: web.Request) -> web.StreamResponse:
            # A request counts (rate limits, its time) when it arrives, as on Discord, not
            # once its body (an image) has been read: on a busy loop that comes later.
            arrived = time.monotonic()
            body, files = await _read_body(request)
            record = RecordedRequest(
                method=request.method,
                path=request.path[len(API_PREFIX) :],
                route=template,
                query=dict(request.query),
                json=body,
                files=files,
                at=arrived,
                authorized=request.headers.get("Authorization") == f"Bot {self.token}",
            )
            req = Req(dict(request.match_info), dict(request.query), body, files)
            headers: dict[str, str] = {}
            with self.lock:
                self._requests.append(record)
                fault = self.faults.take(request.method, template, record.path)
                if fault is not None and not fault.after:
                    record.status = fault.status if not fault.drop else 0
                    record.response = {"fault": "dropped" if fault.drop else fault.status}
                    return _fail(request, fault.status, fault.drop)
                try:
                    if not record.authorized and not _token_route(template):
                        raise ApiError(401, 0, "401: Unauthorized")
                    limited = self._limited_as(request.method, template, req)
                    if limited is not None:
                        route, params = limited
                        retry, is_global, headers = self.rate_limiter.check(
                            request.method, route, params,
                            record.counts_against_global_limit, now=arrived,
                        )
                        if retry:
                            status, payload = (
                                429,
                                {
                                    "message": "You are being rate limited.",
                                    "retry_after": round(retry, 3),
                                    "global": is_global,
                                    "code": 0,
                                },
                            )
                            headers |= {"Retry-After": f"{retry:.3f}", "Via": "1.1 fake-discord"}
                            headers["X-RateLimit-Scope"] = "global" if is_global else "user"
                        else:
                            status, payload = handler(req)
                    else:
                        status, payload = handler(req)
                except ApiError as exc:
                    status, payload = exc.status, exc.body()
                    self._note_rejection(req, template, record)
                except Exception as exc:
                    # A bug of the fake: answered 400 (a 500 would make discord.py retry for
                    # half a minute) and reported by the pytest fixture.
                    log.exception("fake Discord failed on %s %s", request.method, request.path)
                    self.crashes.append(f"{request.method} {request.path}: {exc!r}")
                    status, payload = 400, {"code": 0, "message": f"fake Discord crashed: {exc!r}"}
                record.status, record.response = status, payload
                if not self.keep_upload_bytes:
                    for upload in files:
                        upload.data = b""
                if fault is not None:  # done, but the answer is lost (or replaced by a 5xx)
                    record.response = {"fault": "dropped" if fault.drop else fault.status,
                                       "done": payload}
                    return _fail(request, fault.status, fault.drop)
                delay = self.answer_delay() if self.answer_delay is not None else 0.0
            if delay > 0:
                # Counted, done and recorded when it arrived; only the answer is late.
                await asyncio.sleep(delay)
            return _respond(status, payload, headers)

        return endpoint

    def _note_rejection(self, req: Req, template: str, record: RecordedRequest) -> None:
        rec = None
        if "interaction_id" in req.params:
            rec = self._interactions.get(int(req.params["interaction_id"]))
        elif "token" in req.params:
            rec = self._by_token.get(req.params["token"])
        if rec is not None:
            rec.rejected.append(record)

    async def _unknown_route(self, request: web.Request) -> web.StreamResponse:
        body, files = await _read_body(request)
        record = RecordedRequest(
            request.method,
            request.path,
            "?",
            dict(request.query),
            body,
            files,
            time.monotonic(),
            404,
            {"code": 0, "message": "404: Not Found (no such route in the fake Discord)"},
        )
        with self.lock:
            self._requests.append(record)
            self.unhandled.append(record)
        log.warning("fake Discord has no route for %s %s", request.method, request.path)
        return _respond(404, record.response)

    async def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["attachment_id"])
        with self.lock:
            att = self._attachments_by_id.get(aid)
        if att is None:
            return web.Response(status=404)
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    # ------------------------------------------------------------------ gateway
    def _gateway(self, event: str, payload: dict[str, Any]) -> None:
        """Send a gateway event to every connected bot of the event's shard, on its loop; a
        message's event (MESSAGE_*) only to the bots whose intents ask for it, as Discord
        does: guild_messages for a server's, dm_messages for a DM's."""
        guild = payload.get("id") if event in ("GUILD_CREATE", "GUILD_UPDATE") \
            else payload.get("guild_id")
        for bot in list(self._bots):
            if not receives(bot, None if guild is None else int(guild)):
                continue
            if event.startswith("MESSAGE_") and not hears_messages(bot, guild is not None):
                continue
            loop = bot.loop
            if loop.is_closed():
                continue
            loop.call_soon_threadsafe(_parse_event, bot, event, payload)

    # ------------------------------------------------------------------ routes
    def _define_routes(self) -> None:
        r = self._routes.append
        r(("GET", "/users/@me", self._get_me))
        r(("POST", "/users/@me/channels", self._create_dm))
        r(("GET", "/users/@me/guilds", self._my_guilds))
        r(("GET", "/users/{user_id}", self._get_user))
        r(("GET", "/oauth2/applications/@me", self._get_application))
        r(("GET", "/applications/@me", self._get_application))
        r(("GET", "/gateway/bot", self._get_gateway))
        r(("GET", "/gateway", self._get_gateway))
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r(("GET", prefix + "/commands", self._list_commands))
            r(("PUT", prefix + "/commands", self._put_commands))
            r(("POST", prefix + "/commands", self._upsert_command))
            r(("GET", prefix + "/commands/{command_id}", self._get_command))
            r(("PATCH", prefix + "/commands/{command_id}", self._patch_command))
            r(("DELETE", prefix + "/commands/{command_id}", self._delete_command))
        r(("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback))
        r(("POST", "/webhooks/{app_id}/{token}", self._followup))
        r(("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_get))
        r(("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_edit))
        r(("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_delete))
        r(("GET", "/channels/{channel_id}", self._get_channel))
        r(("PATCH", "/channels/{channel_id}", self._edit_channel))
        r(("DELETE", "/channels/{channel_id}", self._delete_channel))
        r(("GET", "/channels/{channel_id}/messages", self._history))
        r(("POST", "/channels/{channel_id}/messages", self._post_message))
        r(("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message))
        r(("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message_route))
        r(("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message_route))
        r(("POST", "/channels/{channel_id}/threads", self._start_thread))
        r(
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._start_thread_from_message,
            )
        )
        r(("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._add_thread_member))
        r(("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._remove_thread_member))
        r(("POST", "/channels/{channel_id}/typing", self._typing))
        r(
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{who}",
                self._react,
            )
        )
        r(
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{who}",
                self._react,
            )
        )
        r(("GET", "/guilds/{guild_id}", self._get_guild))
        r(("GET", "/guilds/{guild_id}/channels", self._get_guild_channels))
        r(("GET", "/guilds/{guild_id}/roles", self._get_roles))
        r(("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member))
        r(("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._add_member_role))
        r(
            (
                "DELETE",
                "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                self._remove_member_role,
            )
        )

    # -- identity
    def _get_me(self, req: Req) -> tuple[int, Any]:
        return 200, self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}

    def _get_application(self, req: Req) -> tuple[int, Any]:
        owner = FakeUser(self.application_id + 1, "Application owner")
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot_user.payload(),
            "owner": owner.payload(),
            "team": None,
            "summary": "",
            "verify_key": "0" * 64,
            "flags": 0,
            "approximate_guild_count": len(self._guilds),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "integration_types_config": {"0": {}},
        }

    def _get_gateway(self, req: Req) -> tuple[int, Any]:
        # Never connected to: FakeDiscord.connect feeds gateway events itself.
        return 200, {
            "url": "ws://127.0.0.1:9",
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    def _get_user(self, req: Req) -> tuple[int, Any]:
        user = self._users.get(req.int("user_id"))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    def _create_dm(self, req: Req) -> tuple[int, Any]:
        user = self._users.get(int(req.body["recipient_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, self._dm_channel_for(user).payload()

    def _dm_channel_for(self, user: FakeUser) -> FakeChannel:
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(id=snowflake(), type=1, name=f"dm-{user.name}", recipient=user)
            self._dm_channels[user.id] = channel
            self._channels[channel.id] = channel
        return channel

    # -- application commands
    def _command_scope(self, req: Req) -> dict[tuple[str, int], dict[str, Any]]:
        if int(req.params["app_id"]) != self.application_id:
            raise ApiError(403, 50001, "Missing Access")
        gid = int(req.params["guild_id"]) if "guild_id" in req.params else None
        if gid is not None and gid not in self._guilds:
            raise ApiError(403, 50001, "Missing Access")
        return self._commands.setdefault(gid, {})

    def _store_command(
        self, scope: dict[tuple[str, int], dict[str, Any]], body: dict[str, Any], req: Req
    ) -> dict[str, Any]:
        key = (body["name"], int(body.get("type", 1)))
        old = scope.get(key)
        command = dict(body)
        command.setdefault("type", 1)
        command.setdefault("description", "")
        command.setdefault("default_member_permissions", None)
        command.setdefault("nsfw", False)
        command.update(
            id=old["id"] if old else str(snowflake()),
            application_id=str(self.application_id),
            version=str(snowflake()),
        )
        if "guild_id" in req.params:
            command["guild_id"] = req.params["guild_id"]
        scope[key] = command
        return command

    def _list_commands(self, req: Req) -> tuple[int, Any]:
        return 200, list(self._command_scope(req).values())

    def _put_commands(self, req: Req) -> tuple[int, Any]:
        scope = self._command_scope(req)
        if not isinstance(req.body, list) or len(req.body) > 100:
            raise ApiError(400, 50035, "Invalid Form Body")
        old = dict(scope)
        scope.clear()
        out = []
        for body in req.body:
            key = (body["name"], int(body.get("type", 1)))
            if key in old:
                scope[key] = old[key]
            out.append(self._store_command(scope, body, req))
        return 200, out

    def _upsert_command(self, req: Req) -> tuple[int, Any]:
        return 201, self._store_command(self._command_scope(req), req.body, req)

    def _find_command(self, req: Req) -> tuple[tuple[str, int], dict[str, Any]]:
        scope = self._command_scope(req)
        for key, command in scope.items():
            if command["id"] == req.params["command_id"]:
                return key, command
        raise ApiError(404, 10063, "Unknown application command")

    def _get_command(self, req: Req) -> tuple[int, Any]:
        return 200, self._find_command(req)[1]

    def _patch_command(self, req: Req) -> tuple[int, Any]:
        _, command = self._find_command(req)
        command.update(req.body)
        return 200, command

    def _delete_command(self, req: Req) -> tuple[int, Any]:
        key, _ = self._find_command(req)
        del self._command_scope(req)[key]
        return 204, None

    # -- interactions
    def _interaction_callback(self, req: Req) -> tuple[int, Any]:
        rec = self._interactions.get(req.int("interaction_id"))
        if rec is None or rec.token != req.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if rec.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - rec.created > self.callback_deadline:
            raise ApiError(404, 10062, "Unknown interaction")
        kind = int(req.body.get("type", 0))
        data = req.body.get("data") or {}
        message: FakeMessage | None = None
        if kind == 4:  # CHANNEL_MESSAGE_WITH_SOURCE
            message = self._new_message(rec.channel, data, req.files, interaction=rec)
            rec.original_message_id = message.id
        elif kind == 5:  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: a "thinking..." message
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(
                rec.channel, {"flags": flags}, [], interaction=rec, allow_empty=True
            )
            rec.original_message_id = message.id
        elif kind in (6, 7):  # DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE
            if rec.message_id is None:
                raise ApiError(
                    400, 40004, "Interaction callback type is not valid for this interaction"
                )
            rec.original_message_id = rec.message_id
            if kind == 7:
                message = self._edit_message(self._messages[rec.message_id], data, req.files)
        elif kind == 8:  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
            if rec.type != 4:
                raise ApiError(
                    400, 40004, "Interaction callback type is not valid for this interaction"
                )
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {
                        "data": {
                            "choices": {
                                "_errors": [
                                    {
                                        "code": "BASE_TYPE_MAX_LENGTH",
                                        "message": "Must be 25 or fewer in length.",
                                    }
                                ]
                            }
                        }
                    },
                )
            rec.autocomplete_choices = choices
        elif kind == 9:  # MODAL
            if rec.type == 5:
                raise ApiError(400, 40004, "A modal cannot answer a modal submit")
            errors = limits.check_modal(data)
            if errors:
                raise _form_error(errors)
            rec.modal = data
        else:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [{"code": "BASE_TYPE_CHOICES", "message": f"bad type {kind}"}]
                    }
                },
            )
        rec.callback_type = kind
        rec.callback_at = time.monotonic()
        if req.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        interaction: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = kind == 5
            interaction["response_message_ephemeral"] = message.ephemeral
        answer: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            answer["resource"] = {"type": kind, "message": message.payload()}
        elif kind in (6, 9):
            answer["resource"] = {"type": kind}
        return 200, answer

    def _limited_as(
        self, method: str, template: str, req: Req
    ) -> tuple[str, dict[str, str]] | None:
        """The route and major parameters a request is rate limited as, None when it is not
        (limits off, or a token route). An edit through an interaction's token counts against
        its message's channel's message edits: Discord does not document whether it does, and
        this is the stricter choice (a bot must pace such edits as it paces its own)."""
        if not self.rate_limits:
            return None
        if not _token_route(template):
            return template, req.params
        if (method, template) != ("PATCH", WEBHOOK_EDIT):
            return None
        mid = self._token_target(req.params["token"], req.params["message_id"])
        message = self._messages.get(mid) if mid is not None else None
        if message is None:
            return None
        return CHANNEL_EDIT, {"channel_id": str(message.channel_id)}

    def _webhook_interaction(self, req: Req) -> InteractionRecord:
        rec = self._by_token.get(req.params["token"])
        if rec is None or int(req.params["app_id"]) != self.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        if time.monotonic() - rec.created > self.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if rec.callback_type is None:
            # Discord knows no webhook for an interaction that was never acknowledged.
            raise ApiError(404, 10015, "Unknown Webhook")
        return rec

    def _webhook_message(self, rec: InteractionRecord, message_id: str) -> FakeMessage:
        mid = rec.original_message_id if message_id == "@original" else int(message_id)
        message = self._messages.get(mid) if mid is not None else None
        allowed = {rec.original_message_id, *rec.followup_ids}
        if message is None or message.deleted or message.id not in allowed:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def _followup(self, req: Req) -> tuple[int, Any]:
        rec = self._webhook_interaction(req)
        original = self._messages.get(rec.original_message_id or 0)
        if original is not None and original.flags & LOADING and not original.deleted:
            # The first follow-up after a "thinking" defer replaces the thinking message.
            message = self._edit_message(original, req.body, req.files, clear_loading=True)
        else:
            message = self._new_message(
                rec.channel, req.body, req.files, interaction=rec, followup=True
            )
            rec.followup_ids.append(message.id)
        if req.query.get("wait") in ("true", "1", "True"):
            return 200, message.payload()
        return 204, None

    def _webhook_get(self, req: Req) -> tuple[int, Any]:
        rec = self._webhook_interaction(req)
        return 200, self._webhook_message(rec, req.params["message_id"]).payload()

    def _webhook_edit(self, req: Req) -> tuple[int, Any]:
        rec = self._webhook_interaction(req)
        message = self._webhook_message(rec, req.params["message_id"])
        return 200, self._edit_message(message, req.body, req.files, clear_loading=True).payload()

    def _webhook_delete(self, req: Req) -> tuple[int, Any]:
        rec = self._webhook_interaction(req)
        message = self._webhook_message(rec, req.params["message_id"])
        self._message_deleted(message)
        return 204, None

    # -- channels and messages
    def _live_channel(self, req: Req) -> FakeChannel:
        channel = self._channels.get(req.int("channel_id"))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _require(self, channel: FakeChannel, *names: str) -> None:
        perms = channel.effective_bot_permissions()
        if not perms.view_channel:
            raise ApiError(403, 50001, "Missing Access")
        missing = [n for n in names if not getattr(perms, n)]
        if missing:
            raise ApiError(403, 50013, "Missing Permissions")

    def _get_channel(self, req: Req) -> tuple[int, Any]:
        channel = self._live_channel(req)
        if channel.guild is not None:
            self._require(channel)
        return 200, channel.payload()

    def _edit_channel(self, req: Req) -> tuple[int, Any]:
        channel = self._live_channel(req)
        if channel.is_thread:
            if channel.owner_id != self.bot_user.id:
                self._require(channel, "manage_threads")
            if "locked" in req.body and req.body["locked"] != channel.locked:
                self._require(channel, "manage_threads")
            channel.archived = bool(req.body.get("archived", channel.archived))
            channel.locked = bool(req.body.get("locked", channel.locked))
        elif channel.guild is not None:
            self._require(channel, "manage_channels")
        if "name" in req.body:
            if not 1 <= len(req.body["name"]) <= 100:
                raise ApiError(400, 50035, "Invalid Form Body")
            channel.name = req.body["name"]
        self._gateway("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.payload())
        return 200, channel.payload()

    def _delete_channel(self, req: Req) -> tuple[int, Any]:
        channel = self._live_channel(req)
        if channel.guild is None:
            raise ApiError(400, 50003, "Cannot execute action on a DM channel")
        self._require(channel, "manage_threads" if channel.is_thread else "manage_channels")
        channel.deleted = True
        self._gateway(
            "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", _delete_payload(channel)
        )
        return 200, channel.payload()

    def _history(self, req: Req) -> tuple[int, Any]:
        channel = self._live_channel(req)
        if channel.guild is not None:
            self._require(channel, "read_message_history")
        limit = int(req.query.get("limit", 50))
        found = [
            m
            for m in self._messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]
        if "before" in req.query:
            found = [m for m in found if m.id < int(req.query["before"])]
        if "after" in req.query:
            found = [m for m in found if m.id > int(req.query["after"])]
            return 200, [m.payload() for m in found[:limit]][::-1]
        return 200, [m.payload() for m in found[::-1][:limit]]

    def _post_message(self, req: Req) -> tuple[int, Any]:
        channel = self._live_channel(req)
        if channel.guild is not None:
            needs = ["send_messages_in_threads" if channel.is_thread else "send_messages"]
            if req.files:
                needs.append("attach_files")
            self._require(channel, *needs)
            if channel.is_thread and channel.archived:
                if channel.locked:
                    raise ApiError(400, 50083, "Thread is archived")
                channel.archived = False  # sending to an archived thread unarchives it
        elif channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        body = dict(req.body or {})
        if (
            channel.guild is not None
            and body.get("embeds")
            and not channel.effective_bot_permissions().embed_links
        ):
            body["embeds"] = []  # Discord drops a bot's embeds where it lacks Embed Links
        nonce = body.pop("nonce", None)
        enforce = bool(body.pop("enforce_nonce", False)) and nonce is not None
        if nonce is not None and len(str(nonce)) > NONCE_LENGTH:
            raise ApiError(400, 50035, "Invalid Form Body: nonce: Must be 25 or fewer in length.")
        now = time.monotonic()
        if enforce:
            # Discord: the same nonce from the same author within a few minutes answers with
            # the message the first send made, and makes no new one.
            seen = self._nonces.get((self.bot_user.id, str(nonce)))
            if seen is not None and now - seen[1] < NONCE_WINDOW:
                first = self._messages.get(seen[0])
                if first is not None and not first.deleted:
                    return 200, first.payload()
        message = self._new_message(channel, body, req.files)
        if nonce is not None:
            message.nonce = str(nonce)
        if enforce:
            self._nonces[(self.bot_user.id, str(nonce))] = (message.id, now)
        return 200, message.payload()

    def _channel_message(self, req: Req) -> tuple[FakeChannel, FakeMessage]:
        channel = self._live_channel(req)
        message = self._messages.get(req.int("message_id"))
        if (
            message is None
            or message.channel_id != channel.id
            or message.deleted
            or message.ephemeral
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return channel, message

    def _get_message(self, req: Req) -> tuple[int, Any]:
        channel, message = self._channel_message(req)
        if channel.guild is not None:
            self._require(channel, "read_message_history")
        return 200, message.payload()

    def _edit_message_route(self, req: Req) -> tuple[int, Any]:
        channel, message = self._channel_message(req)
        if message.author.id != self.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if channel.guild is not None:
            self._require(channel, *(["attach_files"] if req.files else []))
        return 200, self._edit_message(message, req.body or {}, req.files).payload()

    def _delete_message_route(self, req: Req) -> tuple[int, Any]:
        channel, message = self._channel_message(req)
        if message.author.id != self.bot_user.id and channel.guild is not None:
            self._require(channel, "manage_messages")
        self._message_deleted(message)
        return 204, None

    def _start_thread(self, req: Req) -> tuple[int, Any]:
        parent = self._live_channel(req)
        if parent.type != 0:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        kind = int(req.body.get("type", 12))
        self._require(parent, "create_private_threads" if kind == 12 else "create_public_threads")
        return 201, self._new_thread(parent, req.body, kind, snowflake())

    def _start_thread_from_message(self, req: Req) -> tuple[int, Any]:
        parent, message = self._channel_message(req)
        if parent.type != 0:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if message.id in self._channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        self._require(parent, "create_public_threads")
        return 201, self._new_thread(parent, req.body, 11, message.id)

    def _new_thread(
        self, parent: FakeChannel, body: dict[str, Any], kind: int, tid: int
    ) -> dict[str, Any]:
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "name": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_BAD_LENGTH",
                                "message": "Must be between 1 and 100 in length.",
                            }
                        ]
                    }
                },
            )
        assert parent.guild is not None
        thread = FakeChannel(
            id=tid,
            type=kind,
            name=name,
            guild=parent.guild,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            thread_members={self.bot_user.id},
        )
        parent.guild.channels[thread.id] = thread
        self._channels[thread.id] = thread
        payload = thread.payload()
        self._gateway("THREAD_CREATE", payload | {"newly_created": True})
        return payload

    def _add_thread_member(self, req: Req) -> tuple[int, Any]:
        thread = self._live_channel(req)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        who = req.params["user_id"]
        uid = self.bot_user.id if who == "@me" else int(who)
        assert thread.guild is not None
        if uid not in thread.guild.members and uid != self.bot_user.id:
            raise ApiError(404, 10007, "Unknown Member")
        self._require(thread, "send_messages_in_threads")
        thread.thread_members.add(uid)
        return 204, None

    def _remove_thread_member(self, req: Req) -> tuple[int, Any]:
        thread = self._live_channel(req)
        who = req.params["user_id"]
        thread.thread_members.discard(self.bot_user.id if who == "@me" else int(who))
        return 204, None

    def _typing(self, req: Req) -> tuple[int, Any]:
        channel = self._live_channel(req)
        if channel.guild is not None:
            self._require(channel, "send_messages")
        return 204, None

    def _react(self, req: Req) -> tuple[int, Any]:
        channel, _ = self._channel_message(req)
        if channel.guild is not None:
            self._require(channel, "add_reactions", "read_message_history")
        return 204, None

    # -- guilds
    def _guild(self, req: Req) -> FakeGuild:
        guild = self._guilds.get(req.int("guild_id"))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _my_guilds(self, req: Req) -> tuple[int, Any]:
        """The bot's servers, as Discord lists them (partial guilds), in id order."""
        return 200, [{"id": str(g.id), "name": g.name, "icon": None, "owner": False,
                      "permissions": str(g.bot_role.permissions), "features": []}
                     for g in sorted(self._guilds.values(), key=lambda g: g.id)]

    def _get_guild(self, req: Req) -> tuple[int, Any]:
        payload = self._guild(req).payload(all_members=False)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key)
        return 200, payload

    def _get_guild_channels(self, req: Req) -> tuple[int, Any]:
        guild = self._guild(req)
        return 200, [
            c.payload() for c in guild.channels.values() if not c.deleted and not c.is_thread
        ]

    def _get_roles(self, req: Req) -> tuple[int, Any]:
        return 200, [r.payload() for r in self._guild(req).roles.values()]

    def _add_member_role(self, req: Req) -> tuple[int, Any]:
        return self._member_role(req, give=True)

    def _remove_member_role(self, req: Req) -> tuple[int, Any]:
        return self._member_role(req, give=False)

    def _member_role(self, req: Req, *, give: bool) -> tuple[int, Any]:
        """Give (PUT) or take (DELETE) a member's role, as Discord allows it: with Manage Roles,
        for a role below the bot's highest, not a managed one."""
        guild = self._guild(req)
        role = guild.roles.get(req.int("role_id"))
        if role is None:
            raise ApiError(404, 10011, "Unknown Role")
        perms = discord.Permissions(guild.everyone.permissions | guild.bot_role.permissions)
        if not (perms.manage_roles or perms.administrator):
            raise ApiError(403, 50013, "Missing Permissions")
        if role.managed or role.id == guild.id or role.position >= guild.bot_role.position:
            raise ApiError(403, 50013, "Missing Permissions")
        member = guild.members.get(req.int("user_id"))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        with self.lock:
            if give and role not in member.roles:
                member.roles.append(role)
            elif not give and role in member.roles:
                member.roles.remove(role)
        return 204, None

    def _get_member(self, req: Req) -> tuple[int, Any]:
        guild = self._guild(req)
        uid = req.int("user_id")
        if uid == self.bot_user.id:
            return 200, FakeMember(self.bot_user, guild, [guild.bot_role]).payload()
        member = guild.members.get(uid)
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()

    # ------------------------------------------------------------------ message store
    def _new_message(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        interaction: InteractionRecord | None = None,
        followup: bool = False,
        allow_empty: bool = False,
    ) -> FakeMessage:
        errors = limits.check_message(body)
        if errors:
            raise _form_error(errors)
        flags = int(body.get("flags") or 0)
        attachments = self._attachments(channel, body, files, []) or []
        if not allow_empty and not (
            body.get("content")
            or body.get("embeds")
            or attachments
            or body.get("components")
            or body.get("sticker_ids")
            or body.get("poll")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        if interaction is None and flags & EPHEMERAL:
            flags &= ~EPHEMERAL  # only interaction replies can be ephemeral
        message = FakeMessage(
            id=snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild.id if channel.guild else None,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=attachments,
            flags=flags & (EPHEMERAL | LOADING | SUPPRESS_EMBEDS | IS_COMPONENTS_V2 | (1 << 12)),
            pings=pings(body.get("content") or "", body.get("allowed_mentions")),
        )
        if interaction is not None:
            message.webhook_id = self.application_id
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.interaction_type = interaction.type
            message.type = 20 if interaction.type == 2 and not followup else 0
            if message.ephemeral:
                message.visible_to = interaction.user.id
        self._messages[message.id] = message
        message.snapshot()
        self._message_created(channel, message)
        return message

    def _edit_message(
        self,
        message: FakeMessage,
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        clear_loading: bool = False,
    ) -> FakeMessage:
        body = body or {}
        merged_flags = int(body["flags"]) if body.get("flags") is not None else message.flags
        check = {
            "content": body.get("content", message.content),
            "embeds": body.get("embeds", message.embeds),
            "components": body.get("components", message.components),
            "flags": merged_flags | (message.flags & IS_COMPONENTS_V2),
        }
        errors = limits.check_message(check)
        if errors:
            raise _form_error(errors)
        if (
            message.flags & IS_COMPONENTS_V2
            and body.get("flags") is not None
            and not int(body["flags"]) & IS_COMPONENTS_V2
        ):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "flags": {
                        "_errors": [
                            {
                                "code": "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                                "message": "The components v2 flag cannot be removed",
                            }
                        ]
                    }
                },
            )
        channel = self._channels[message.channel_id]
        new_attachments = self._attachments(channel, body, files, message.attachments)
        still_loading = message.flags & LOADING and not clear_loading
        if not still_loading and not (
            check["content"]
            or check["embeds"]
            or check["components"]
            or (new_attachments if new_attachments is not None else message.attachments)
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        if "content" in body:
            message.content = body["content"] or ""
            message.pings = pings(message.content, body.get("allowed_mentions"))
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if body.get("flags") is not None:
            keep = message.flags & (EPHEMERAL | IS_COMPONENTS_V2)
            message.flags = keep | (int(body["flags"]) & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
        if new_attachments is not None:
            message.attachments = new_attachments
        if clear_loading and message.flags & LOADING:
            message.flags &= ~LOADING
        else:
            message.edited_at = iso_now()
        self._messages[message.id] = message
        message.snapshot()
        if not message.ephemeral:
            self._gateway("MESSAGE_UPDATE", message.payload())
        return message

    def _attachments(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        files: list[UploadedFile],
        existing: list[FakeAttachment],
    ) -> list[FakeAttachment] | None:
        """The message's attachments after this body, or None when the body leaves them alone."""
        uploads: dict[int, UploadedFile] = {}
        for upload in files:
            match = re.fullmatch(r"files\[(\d+)\]", upload.field)
            if match:
                uploads[int(match.group(1))] = upload
        spec = body.get("attachments")
        if spec is None:
            if not uploads:
                return None
            spec = [{"id": i} for i in sorted(uploads)]
            keep = list(existing)
        else:
            keep = []
        by_id = {a.id: a for a in existing}
        out = list(keep)
        for item in spec:
            aid = int(item["id"])
            if aid in by_id:
                out.append(by_id[aid])
            elif aid in uploads:
                out.append(self._attachment(channel, uploads[aid], item))
            else:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {
                        "attachments": {
                            "_errors": [
                                {
                                    "code": "ATTACHMENT_NOT_FOUND",
                                    "message": f"Unknown attachment {aid}",
                                }
                            ]
                        }
                    },
                )
        if len(out) > 10:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "attachments": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_MAX_LENGTH",
                                "message": "Must be 10 or fewer in length.",
                            }
                        ]
                    }
                },
            )
        return out

    def _attachment(
        self, channel: FakeChannel, upload: UploadedFile, item: dict[str, Any]
    ) -> FakeAttachment:
        filename = item.get("filename") or upload.filename
        aid = snowflake()
        att = FakeAttachment(
            id=aid,
            filename=filename,
            data=upload.data,
            content_type=_guess_type(filename),
            description=item.get("description"),
            url=f"{self.base_url}/attachments/{channel.id}/{aid}/{filename}",
        )
        if att.content_type and att.content_type.startswith("image/"):
            att.width, att.height = _image_size(upload.data)
        self._attachments_by_id[aid] = att
        return att

    def _message_created(self, channel: FakeChannel, message: FakeMessage) -> None:
        """A message sent (by anyone, the bot included): counted in its thread, and told to
        the bots that hear messages (MESSAGE_CREATE), as Discord does."""
        if message.ephemeral:
            return
        if channel.is_thread:
            channel.messages_sent += 1
        self._gateway("MESSAGE_CREATE", message.payload())

    def _message_deleted(self, message: FakeMessage, *, event: bool = True) -> None:
        """A message deleted: later edits get 10008; its thread counts it; the bots that hear
        messages are told (MESSAGE_DELETE; ``event`` False: the caller tells of many at once)."""
        if message.deleted:
            return
        message.deleted = True
        if message.ephemeral:
            return
        channel = self._channels.get(message.channel_id)
        if channel is not None and channel.is_thread:
            channel.messages_deleted += 1
        if not event:
            return
        payload: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            payload["guild_id"] = str(message.guild_id)
        self._gateway("MESSAGE_DELETE", payload)


# ---------------------------------------------------------------------- helpers
def _fail(request: web.Request, status: int, drop: bool) -> web.Response:
    """An injected failure: a 5xx as Discord's edge sends it (no JSON), or the connection
    closed with no answer at all."""
    if drop:
        transport = request.transport
        if transport is not None:
            transport.abort()
        return web.Response(status=status)  # never written: the connection is gone
    return web.Response(status=status, text=f"{status}: injected failure",
                        content_type="text/plain")


def _respond(status: int, payload: Any, headers: dict[str, str] | None = None) -> web.Response:
    if payload is None:
        return web.Response(status=204, headers=headers)
    # Exactly "application/json": discord.py compares the header verbatim, and aiohttp's
    # json_response would append "; charset=utf-8", turning every answer into a plain string.
    return web.Response(
        status=status,
        body=json.dumps(payload).encode(),
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    if not request.can_read_body:
        return None, []
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        body: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue  # discord.py never nests multiparts
            data = await part.read(decode=False)
            name = part.name or ""
            if name == "payload_json":
                body = json.loads(data)
            else:
                content_type = part.headers.get("Content-Type")
                files.append(UploadedFile(name, part.filename or "", bytes(data), content_type))
        return body, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode("utf-8", "replace"), []


NONCE_LENGTH = 25  # Discord's longest nonce
NONCE_WINDOW = 300.0  # "the past few minutes" in which Discord enforces a nonce


WEBHOOK_EDIT = "/webhooks/{app_id}/{token}/messages/{message_id}"
CHANNEL_EDIT = "/channels/{channel_id}/messages/{message_id}"


def _token_route(template: str) -> bool:
    """Routes that authenticate with the interaction token in the URL, not the bot token."""
    return template.startswith(("/interactions/", "/webhooks/"))


def _delete_payload(channel: FakeChannel) -> dict[str, Any]:
    payload: dict[str, Any] = {"id": str(channel.id), "type": channel.type}
    if channel.guild is not None:
        payload["guild_id"] = str(channel.guild.id)
    if channel.parent_id is not None:
        payload["parent_id"] = str(channel.parent_id)
    return payload


def hears_messages(bot: discord.Client, in_guild: bool) -> bool:
    """Whether Discord sends this bot the events of messages (sent, edited, deleted) in a
    server (``in_guild``) or a DM: its guild_messages or dm_messages intent."""
    intents: discord.Intents | None = getattr(bot, "intents", None)
    if intents is None:
        return True
    return bool(intents.guild_messages if in_guild else intents.dm_messages)


def _parse_event(bot: discord.Client, event: str, payload: dict[str, Any]) -> None:
    # As discord.py's gateway does: the event's parser from the connection's table (which a
    # bot may change: one that drops events it does not read).
    parsers = getattr(bot._connection, "parsers", None)
    parser = parsers[event] if parsers is not None else \
        getattr(bot._connection, "parse_" + event.lower())
    try:
        parser(payload)
    except Exception:
        log.exception("bot failed to parse fake gateway event %s", event)


def _guess_type(filename: str) -> str | None:
    lower = filename.lower()
    for ext, ctype in (
        (".png", "image/png"),
        (".jpg", "image/jpeg"),
        (".jpeg", "image/jpeg"),
        (".gif", "image/gif"),
        (".webp", "image/webp"),
        (".json", "application/json"),
        (".txt", "text/plain; charset=utf-8"),
    ):
        if lower.endswith(ext):
            return ctype
    return None


def _image_size(data: bytes) -> tuple[int | None, int | None]:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:  # not an image after all; Discord then omits the size too
        return None, None
