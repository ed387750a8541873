"""The table service's parts: each refusal is a message of the catalogue with the parameters
it is given, and every change to a table passes its one door (the table's lock)."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import service.tables
from db import Database
from game.actions import Pass
from i18n import parameters, texts
from service import Refusal
from service.records import Records
from service.tables import NewTable, TableService
from tests.bot.helpers import WatchedLock

GUILD, CHANNEL, HOST = 100, 200, 1
PACKAGE = Path(service.tables.__file__).parent
# Where a Refusal may be raised: the service, the bot and its cogs (a Refusal's id must be in
# the catalogue, or answering it would fail).
SERVICE = PACKAGE.parent
RAISERS = sorted([*SERVICE.rglob("*.py"), *(SERVICE.parent / "bot").rglob("*.py"),
                  *(SERVICE.parent / "cogs").glob("*.py")])
# Functions that refuse with a message id they are given, and the parameters they add to it.
REFUSING_HELPERS = {"check_host": frozenset({"host_id"})}


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _constants(node: ast.expr) -> list[str]:
    """The message ids an argument can be: a string, or either string of a conditional."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return []


def refusals() -> Iterator[tuple[str, str, frozenset[str]]]:
    """(module, message id, parameters given) of every refusal the bot and its cogs raise."""
    for path in RAISERS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            if name == "Refusal" and node.args:
                given = {k.arg for k in node.keywords if k.arg is not None}
                if "count" in given:  # a plural message: the count is its {n}
                    given = (given - {"count"}) | {"n"}
                for message_id in _constants(node.args[0]):
                    yield path.name, message_id, frozenset(given)
            elif name in REFUSING_HELPERS:
                for arg in node.args:
                    for message_id in _constants(arg):
                        yield path.name, message_id, REFUSING_HELPERS[name]


def used_ids() -> set[str]:
    """Every ``tables.*`` string the package's code holds."""
    found: set[str] = set()
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    node.value.startswith("tables."):
                found.add(node.value)
    return found


def test_every_refusal_is_in_the_catalogue_with_the_parameters_it_is_given() -> None:
    english = texts("en")
    found = list(refusals())
    assert len({message_id for _, message_id, _ in found}) >= 35
    for module, message_id, given in found:
        assert message_id in english, f"{module}: {message_id} is not in the catalogue"
        text = english[message_id]
        forms = (text,) if isinstance(text, str) else text
        for form in forms:
            # Every parameter the message uses is given; a plural form may leave out {n}.
            assert parameters(form) <= given, (module, message_id, form, given)
        assert given <= frozenset().union(*(parameters(f) for f in forms)) | {"n"}, \
            f"{module}: {message_id} is given parameters it never uses: {given}"


def test_every_tables_message_is_used_and_every_used_id_exists() -> None:
    catalogued = {i for i in texts("en") if i.startswith("tables.")}
    assert used_ids() == catalogued


def test_a_refusal_is_an_id_with_parameters_worded_in_the_readers_language() -> None:
    one = Refusal("tables.seats_empty", count=1, seats="West")
    two = Refusal("tables.seats_empty", count=2, seats="North, West")
    assert (one.message_id, one.params) == ("tables.seats_empty", {"seats": "West"})
    assert one.text() == ("Every seat needs a player first: West is empty. Add a computer or "
                          "wait for players.")
    assert "North, West are empty" in two.text("en")
    turn = Refusal("tables.not_your_turn", name="bo")
    assert str(turn) == turn.text() == "It is not your turn: it is bo's turn."
    assert turn.text("xx") == turn.text()  # a language without a catalogue reads English


def test_only_the_door_takes_a_tables_lock() -> None:
    """``live.lock`` is taken in one place, ``Tables.door``: no part changes a table beside it."""
    takers = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "lock" and \
                    isinstance(node.ctx, ast.Load):
                takers.append(path.name)
    assert takers == ["core.py"]


async def test_every_change_waits_at_the_tables_door(db: Database) -> None:
    """While the table's lock is held, no request changes the table; each goes on once it is
    free (it may then be refused: what matters here is that it waited)."""
    service = TableService(db, computer_delay=3600)
    live = await service.create(NewTable(GUILD, CHANNEL, HOST, "ana", "classic",
                                         {"target": 1}))
    table_id = live.id
    live.lock = lock = WatchedLock()
    for seat, uid in ((1, 2), (2, 3)):
        await service.sit(table_id, uid, f"p{uid}", seat)
    requests: dict[str, Callable[[], Awaitable[object]]] = {
        "attach": lambda: service.attach(table_id, thread_id=None, message_id=9),
        "sit": lambda: service.sit(table_id, 5, "eve", 3),
        "add_computer": lambda: service.add_computer(table_id, HOST, 3),
        "invite": lambda: service.invite(table_id, HOST, 6),
        "start": lambda: service.start(table_id, HOST),
        "act": lambda: service.act(table_id, HOST, 1, Pass()),
        "choose": lambda: service.choose(table_id, HOST, 1, belote=False),
        "leave": lambda: service.leave(table_id, 3),
        "reclaim": lambda: service.reclaim(table_id, 3),
        # Under way: a moderator who does not play there ends it (issue 48).
        "end": lambda: service.end(table_id, 99, can_manage=True),
    }
    for name, request in requests.items():
        if table_id not in service.live:
            break
        async with lock:
            task: asyncio.Task[object] = asyncio.ensure_future(request())
            for _ in range(100):
                if lock.waiting:
                    break
                await asyncio.sleep(0)
            assert lock.waiting == 1 and not task.done(), f"{name} did not wait at the door"
        result = (await asyncio.gather(task, return_exceptions=True))[0]
        assert not isinstance(result, Exception) or isinstance(result, Refusal), (name, result)
    assert table_id not in service.live  # "end" ran last, and closed it
    await service.close()


async def test_the_cogs_read_boards_and_names_through_records(db: Database) -> None:
    service = TableService(db)
    await service.create(NewTable(GUILD, CHANNEL, HOST, "ana", "classic", {"target": 1}))
    records = Records(db)
    assert await records.board(GUILD, "classic", 10, 0) == []
    assert await records.names([HOST, 42]) == {HOST: "ana"}
    assert await records.replay(GUILD, 12345) is None  # no such finished match


def test_no_cog_reaches_into_the_database() -> None:
    cogs = Path(__file__).resolve().parents[2] / "cogs"
    for path in cogs.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert ".db." not in text and "service.db" not in text, path.name
