"""Logging: one line per record on stderr, with the bot token scrubbed from anything logged."""

from __future__ import annotations

import logging


class RedactToken(logging.Filter):
    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token:
            message = record.getMessage()
            if self.token in message:
                record.msg = message.replace(self.token, "[token]")
                record.args = None
        return True


def setup_logging(level: str, token: str | None) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"))
    handler.addFilter(RedactToken(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py's HTTP debug lines carry request bodies (hands in DMs): keep them quiet.
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))
    logging.getLogger("discord.gateway").setLevel(max(logging.INFO, root.level))
    # aiosqlite's debug lines print every statement with its values: the decks of the log.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, root.level))


def quiet_voice_warnings() -> None:
    """The bot plays no audio: discord.py's start-up warnings that its voice libraries (PyNaCl,
    davey) are missing would only alarm an administrator. It warns once per process, behind
    these flags (missing flags in other discord.py versions are simply left alone)."""
    from discord.voice_client import VoiceClient

    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(VoiceClient, flag):
            setattr(VoiceClient, flag, False)
