"""What the fake keeps about requests and interactions, for tests to assert on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .models import FakeChannel, FakeGuild, FakeUser

# Interaction callbacks and webhook (follow-up, @original) requests are not counted against
# Discord's global rate limit; everything else a bot token sends is.
_OUTSIDE_GLOBAL_LIMIT = ("/interactions/", "/webhooks/")


@dataclass
class UploadedFile:
    field: str
    filename: str
    data: bytes  # emptied after the request when FakeDiscord.keep_upload_bytes is False
    content_type: str | None
    size: int = -1

    def __post_init__(self) -> None:
        if self.size < 0:
            self.size = len(self.data)


@dataclass
class RecordedRequest:
    method: str
    path: str  # the concrete path after /api/v10, e.g. /channels/123/messages
    route: str  # the route template, e.g. /channels/{channel_id}/messages
    query: dict[str, str]
    json: Any  # the JSON body, or the payload_json part of a multipart body
    files: list[UploadedFile]
    at: float  # time.monotonic() when it arrived
    status: int = 0
    response: Any = None
    authorized: bool = False

    @property
    def error_code(self) -> int | None:
        if self.status >= 400 and isinstance(self.response, dict):
            return self.response.get("code")
        return None

    @property
    def counts_against_global_limit(self) -> bool:
        return self.authorized and not any(self.path.startswith(p) for p in _OUTSIDE_GLOBAL_LIMIT)

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class InteractionRecord:
    """An interaction the fake created, and everything the bot did to answer it."""

    id: int
    token: str
    type: int  # 2 application command, 3 component, 5 modal submit
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    created: float  # time.monotonic()
    message_id: int | None = None  # the message whose component was used
    callback_type: int | None = None
    callback_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    rejected: list[RecordedRequest] = field(default_factory=list)

    @property
    def latency(self) -> float | None:
        """Seconds from the interaction's creation to the bot's callback."""
        return None if self.callback_at is None else self.callback_at - self.created
