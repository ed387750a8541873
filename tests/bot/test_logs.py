"""No secret reaches a log line (issue 48): the token, the database's password in any of its
forms, in a message, its arguments, a traceback or a stack, whatever formats the line."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot.logs import setup_logging
from db.connection import url_passwords

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.fake-token-for-tests-0123456789"
PASSWORD = "hunter" + "22"  # built, so that no source line a traceback quotes holds it
URL = "postgresql://belote@db.example/belote?password=s%33cr3t-pw&sslmode=require"


class Logged:
    def __init__(self) -> None:
        self.out = io.StringIO()
        self.log = logging.getLogger("belote.test")

    @property
    def text(self) -> str:
        return self.out.getvalue()


@pytest.fixture
def logged() -> Iterator[Logged]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    setup_logging("INFO", TOKEN, url_passwords(URL))
    # The bot's own handler, formatter and filter, writing where the test reads.
    seen = Logged()
    handler = root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(seen.out)
    try:
        yield seen
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def _raise(text: str) -> None:
    raise ConnectionError(text)


def test_the_passwords_of_a_url_are_known_as_written_and_decoded() -> None:
    assert url_passwords(URL) == ["s%33cr3t-pw", "s3cr3t-pw"]
    assert url_passwords("postgresql://u:pa%40ss@h/db") == ["pa%40ss", "pa@ss"]
    assert url_passwords("postgresql://u@h/db") == []


def test_a_message_and_its_arguments_are_scrubbed(logged: Logged) -> None:
    logged.log.info("database %s", URL)
    logged.log.warning("login with %s as %r", TOKEN, {"dsn": "host=h password=hunter22 user=u"})
    logged.log.info("the password alone: %s", "s3cr3t-pw")
    err = logged.text
    for secret in (TOKEN, "s3cr3t", "s%33cr3t", "hunter22"):
        assert secret not in err
    assert "password=***&sslmode=require" in err and "[token]" in err
    assert "the password alone: ***" in err


def test_a_traceback_and_a_stack_are_scrubbed(logged: Logged) -> None:
    try:
        _raise(f"cannot connect to postgresql://belote:{PASSWORD}@db/belote with {TOKEN}")
    except ConnectionError:
        logged.log.exception("start failed")
    logged.log.info("where", stack_info=True, extra={"dsn": "unused"})
    err = logged.text
    assert "Traceback" in err and "ConnectionError: cannot connect to " \
        "postgresql://belote:***@db/belote with [token]" in err
    assert "hunter22" not in err and TOKEN not in err
    assert "Stack (most recent call last)" in err


def test_a_record_is_clean_for_any_formatter(logged: Logged) -> None:
    # Another formatter on the same handler (JSON lines, say) gets the scrubbed record: the
    # traceback as text, no exception object to format again, no raw arguments.
    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    root = logging.getLogger()
    keep = Keep()
    for f in root.handlers[0].filters:
        keep.addFilter(f)
    root.addHandler(keep)  # the bot's filter on a handler that keeps the records
    try:
        try:
            _raise(f"token {TOKEN}")
        except ConnectionError:
            logged.log.error("with %s", TOKEN, exc_info=True)
    finally:
        root.removeHandler(keep)
    [record] = seen
    assert record.args is None and record.exc_info is None
    assert TOKEN not in record.getMessage() and TOKEN not in (record.exc_text or "")
    assert "ConnectionError: token [token]" in (record.exc_text or "")
