"""A fake Discord REST API for driving the real discord.py bot in tests (see
/work/notes/HARNESS_API.md for the contract)."""

from .driver import FakeGateway, HarnessError, InteractionResult
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)
from .netguard import NetworkBlocked, no_network
from .recording import InteractionRecord, RecordedRequest, UploadedFile
from .server import FakeDiscord

__all__ = [
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGateway",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "HarnessError",
    "InteractionRecord",
    "InteractionResult",
    "NetworkBlocked",
    "RecordedRequest",
    "UploadedFile",
    "no_network",
]
