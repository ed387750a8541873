"""A table's action log read back (db/log.py ``entries``): every step as written, its payload
parsed in one go for the whole log; a stored payload that is not one JSON value still fails as
it would alone, never shifting the steps after it."""

from __future__ import annotations

import json

import pytest

from db import Database, LogEntry
from db.log import _payloads

from .test_db import new_table


async def test_every_step_reads_back_as_written(db: Database) -> None:
    table = (await new_table(db)).id
    written = [LogEntry(0, "deal", {"dealer": 3, "deck": ["7C", "AS"]}),
               LogEntry(1, "action", {"seat": 0, "action": "pass", "by": "timeout"}, 12),
               LogEntry(2, "action", {"seat": 1, "action": "play", "card": "JH",
                                      "declare": [["7H", "8H", "9H"]], "belote": False}, 13),
               LogEntry(3, "action", {"seat": 2, "action": "bid", "value": "capot",
                                      "suit": "S", "note": "Chloé «ой»"}, None)]
    await db.log.append(table, written)
    assert await db.log.entries(table) == written
    assert await db.log.entries(table + 1) == []


def test_a_payload_that_is_not_one_json_value_fails_alone() -> None:
    assert _payloads([(0, "deal", '{"a": [1, 2]}'), (1, "action", "3")]) == [{"a": [1, 2]}, 3]
    # Joined, "1, 2" would parse as two values: read alone it is refused, as it always was.
    with pytest.raises(json.JSONDecodeError):
        _payloads([(0, "action", "1, 2"), (1, "action", "{}")])
    with pytest.raises(json.JSONDecodeError):
        _payloads([(0, "action", '{"seat": 1'), (1, "action", '"card": "JH"}')])
