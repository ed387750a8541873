"""Logging: one line per record on stderr, with secrets scrubbed from anything logged."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from db.connection import redact

_FORMAT = logging.Formatter()


class RedactSecrets(logging.Filter):
    """Scrubs the bot token, the database's passwords and any password written as one (a URL's
    ``user:pass@``, ``password=``; see ``db.connection.redact``) from a record: its message and
    arguments, its traceback and its stack. A filter on the handler, so whatever formatter the
    handler has writes only what it leaves."""

    def __init__(self, token: str | None, passwords: Iterable[str] = ()) -> None:
        super().__init__()
        self.token = token
        self.passwords = tuple(p for p in passwords if p)

    def scrub(self, text: str) -> str:
        if self.token and self.token in text:
            text = text.replace(self.token, "[token]")
        for secret in self.passwords:
            if secret in text:
                text = text.replace(secret, "***")
        return redact(text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format: logging reports it; the raw parts are scrubbed below
            message = None
        if message is not None:
            clean = self.scrub(message)
            if clean != message or record.args:
                # The arguments are in the message now: a formatter that shows them apart
                # (or formats again) gets the scrubbed text only.
                record.msg, record.args = clean, None
        else:
            record.msg = self.scrub(str(record.msg))
            record.args = None
        if record.exc_info and record.exc_info[0] is not None and not record.exc_text:
            # The traceback as the standard formatter writes it, scrubbed; the exception itself
            # is dropped from the record so that no formatter writes it again unscrubbed
            # (logging.Formatter writes exc_text when there is no exc_info).
            record.exc_text = _FORMAT.formatException(record.exc_info)
        if record.exc_info:
            record.exc_info = None
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self.scrub(record.stack_info)
        return True


# The name earlier code and tests know it by.
RedactToken = RedactSecrets


def setup_logging(level: str, token: str | None, passwords: Iterable[str] = ()) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"))
    handler.addFilter(RedactSecrets(token, passwords))
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
