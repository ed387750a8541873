"""Every control is one class: the custom_ids already posted on live servers are read by the
same class into the same typed fields, and written back byte for byte; anything else is not ours
or cannot be read (the user is then told "I do not know this control": tests/e2e)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import layout, messages
from bot.controls import (
    CONTROLS,
    UNKNOWN_CONTROL,
    ActButton,
    AnnounceSelect,
    BadControl,
    BeloteButton,
    BidSelect,
    ComputerButton,
    HandButton,
    LeaveButton,
    RulesButton,
    SitButton,
    StartButton,
    TakeBackButton,
    is_ours,
)
from bot.controls.base import Unreadable
from db import Database
from i18n import texts, words
from service.tables import NewTable, TableService

# The custom_ids the bot posted before controls were classes (bot/components.py's formats), with
# the class and the fields each must be read into.
POSTED: list[tuple[str, type[Any], dict[str, object]]] = [
    ("bt:sit:12:1", SitButton, {"table_id": 12, "seat": 1}),
    ("bt:cpu:12:2", ComputerButton, {"table_id": 12, "seat": 2, "level": None}),
    ("bt:cpu:12:1:hard", ComputerButton, {"table_id": 12, "seat": 1, "level": "hard"}),
    ("bt:start:12", StartButton, {"table_id": 12}),
    ("bt:leave:12", LeaveButton, {"table_id": 12}),
    ("bt:rules:12", RulesButton, {"table_id": 12}),
    ("bt:back:12", TakeBackButton, {"table_id": 12}),
    ("bt:hand:12", HandButton, {"table_id": 12}),
    ("bt:act:12:57:play.JH", ActButton, {"table_id": 12, "seq": 57, "code": "play.JH"}),
    ("bt:act:12:3:pass", ActButton, {"table_id": 12, "seq": 3, "code": "pass"}),
    ("bt:act:12:4:take.S", ActButton, {"table_id": 12, "seq": 4, "code": "take.S"}),
    ("bt:act:12:5:bid.capot.H", ActButton, {"table_id": 12, "seq": 5, "code": "bid.capot.H"}),
    ("bs:bid:12:7:2", BidSelect, {"table_id": 12, "seq": 7, "suit": 2}),
    ("bs:ann:12:1", AnnounceSelect, {"table_id": 12, "deal": 1}),
    ("bt:blt:12:1:0", BeloteButton, {"table_id": 12, "deal": 1, "on": False}),
    ("bt:blt:12:3:1", BeloteButton, {"table_id": 12, "deal": 3, "on": True}),
]


def matching(custom_id: str) -> list[tuple[type[Any], re.Match[str]]]:
    found = []
    for control in CONTROLS:
        match = control.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            found.append((control, match))
    return found


@pytest.mark.parametrize(("custom_id", "kind", "fields"), POSTED)
def test_a_posted_custom_id_is_read_by_its_one_control(custom_id: str, kind: type[Any],
                                                        fields: dict[str, object]) -> None:
    found = matching(custom_id)
    assert [control for control, _ in found] == [kind]
    control = kind.read(found[0][1])
    assert type(control) is kind
    assert {name: getattr(control, name) for name in fields} == fields
    assert control.custom_id == custom_id  # written back byte for byte
    assert is_ours(custom_id)


@pytest.mark.parametrize("custom_id", ["legacy:button", "bt:zzz:1", "bt:sit:12", "bt:start",
                                       "bt:act:12:57", "bs:act:12:1:pass", "bt:hand:x"])
def test_an_unknown_shape_is_not_ours(custom_id: str) -> None:
    assert matching(custom_id) == [] and not is_ours(custom_id)


@pytest.mark.parametrize("custom_id", ["bt:sit:12:x", "bt:sit:12:²", "bt:cpu:12:east",
                                       "bt:act:12:x:pass", "bs:bid:12:7:x", "bs:ann:12:first",
                                       "bt:blt:12:x:1"])
def test_a_part_that_cannot_be_read_is_a_bad_control(custom_id: str) -> None:
    ((control, match),) = matching(custom_id)
    with pytest.raises(BadControl):
        control.read(match)


@pytest.mark.parametrize("control", [*CONTROLS, Unreadable], ids=lambda c: c.__name__)
def test_every_control_says_how_it_answers(control: type[Any]) -> None:
    """Its answer is armed as the click arrives (bot/answers.py): without a kind, every
    click on it would fail with an apology."""
    assert control.answers_by in ("edit", "reply")


def test_the_unknown_control_answer_is_the_catalogues() -> None:
    assert words()("controls.unknown") == UNKNOWN_CONTROL
    assert UNKNOWN_CONTROL.startswith("I do not know this control")


def test_every_message_id_the_messages_ask_for_is_in_the_catalogue() -> None:
    """Literal ids in the code that lays out the messages and controls; the ids built from a
    name (variants, ranks, bids) are asked for by the e2e tests' tables."""
    root = Path(__file__).resolve().parents[2]
    sources = [root / "bot" / "messages.py", root / "bot" / "layout.py",
               *sorted((root / "bot" / "controls").glob("*.py")),
               root / "cogs" / "lobby.py"]
    pattern = re.compile(r'"((?:controls|table|lobby|hand|rules_card|deal|match)\.[a-z_.0-9]+)"')
    used = {m for path in sources for m in pattern.findall(path.read_text(encoding="utf-8"))}
    known = set(texts("en"))
    assert used and sorted(used - known) == []
    for prefix, names in (("table.variant", ("classic", "coinche", "bulgarian")),
                          ("cards.face", ("seven", "eight", "nine", "ten", "jack", "queen",
                                          "king", "ace")),
                          ("controls.bid", ("contre", "surcontre", "double", "redouble"))):
        assert {f"{prefix}.{n}" for n in names} <= known


@pytest.fixture
async def db(tmp_path: Path):  # type: ignore[no-untyped-def]
    database = await Database.open(tmp_path / "controls.sqlite3")
    yield database
    await database.close()


def fields(control: Any) -> dict[str, object]:
    """A control's own typed fields (not discord.py's state)."""
    return {k: v for k, v in vars(control).items() if not k.startswith("_") and k != "item"}


def laid_out(view: discord.ui.View | None) -> list[Any]:
    return [] if view is None else list(view.children)


async def test_every_control_laid_out_is_read_back_as_itself(db: Database) -> None:
    """The lobby, the table message and each hand carry only controls whose custom_id the same
    class reads back into the same fields, whatever the language asked for."""
    service = TableService(db, computer_delay=3600)
    live = await service.create(NewTable(100, 200, 1, "ana", "classic", {}))
    items = laid_out(layout.lobby_view(live))
    for seat in (1, 2, 3):
        await service.add_computer(live.id, 1, seat)
    await service.start(live.id, 1)
    try:
        items += laid_out(layout.table_view_controls(live))
        for seat in range(4):
            view = live.view(seat)
            assert view is not None
            items += laid_out(layout.hand_controls(live, view))
        assert {type(item) for item in items} >= {SitButton, ComputerButton, StartButton,
                                                  LeaveButton, RulesButton, HandButton, ActButton}
        for item in items:
            ((control, match),) = matching(item.custom_id)
            assert control is type(item)
            again = control.read(match)
            assert again.custom_id == item.custom_id
            assert fields(again) == fields(item) and "table_id" in fields(item)
        # A language without a catalogue writes English (the language issue adds French).
        assert messages.lobby_text(live, "xx") == messages.lobby_text(live)
    finally:
        await service.close()
