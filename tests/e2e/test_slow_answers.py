"""Every interaction is answered in Discord's 3 s, even when its image is slow to draw or its
action slow to do: the bot acknowledges first, then shows the right message. Renders and
actions here wait on an event the test opens, so "slow" costs no real time."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import Any

import discord
import pytest

from bot import answers, images, messages
from bot.controls import button_id, encode_action
from game.players import RandomPlayer
from game.view import table_view
from i18n import words
from rendering import render_hand, render_table
from tests.fakediscord import InteractionResult

from .table_helpers import World, member_of, open_table, seat_everyone, start_table
from .test_delivery_hands import enabled_actions
from .test_stats import played


class Gate:
    """A call (an image render, an action) that waits until the test opens the gate
    (``held``: which calls)."""

    def __init__(self, render: Any, held: Any = lambda *a, **k: True) -> None:
        self.render, self.held = render, held
        self.opened = asyncio.Event()
        self.waiting = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.held(*args, **kwargs):
            self.waiting += 1
            await self.opened.wait()
        return await self.render(*args, **kwargs)


def click_answers(*args: Any, **kwargs: Any) -> bool:
    return not kwargs.get("background", False)  # not the DM edits nobody waits on


async def until(condition: Any, what: str) -> None:
    """Wait for the bot's requests to reach the fake (polling, within Discord's 3 s)."""
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.004)
    raise AssertionError(f"never happened: {what}")


async def acknowledged_while_held(r: InteractionResult, gate: Gate,
                                  what: str = "the image render started",
                                  meanwhile: Callable[[], bool] = lambda: True) -> int | None:
    """The interaction's acknowledgement, which must come while the gated call (an image's
    render, an action) is held; ``meanwhile`` must hold then too (nothing done yet). The gate
    is opened once it came, or if it never does."""
    try:
        await until(lambda: gate.waiting > 0, what)
        await until(lambda: r.callback_type is not None, "the interaction was acknowledged")
        assert not gate.opened.is_set() and meanwhile()
        return r.callback_type
    finally:
        gate.opened.set()


async def test_start_is_acknowledged_before_the_table_image_is_drawn(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, lobby = await open_table(world, ana, variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)
    gate = Gate(images.table_image)
    monkeypatch.setattr(images, "table_image", gate)
    monkeypatch.setattr(answers, "BUDGET", 0.0)  # an image not ready at once is late
    r = await fake.click(bot, ana, lobby, button_id("start", table_id), wait=False)
    assert await acknowledged_while_held(r, gate) == 6  # "deferred update": no message yet
    await fake.settle()
    live = bot.service.live[table_id]
    table = fake.message(lobby.id)
    assert table.content == messages.table_text(live, live.view())
    assert [a.data for a in table.attachments] == [render_table(live.view())[0]]
    assert "Start" not in [c.get("label") for c in table.walk_components()]
    assert not r.rejected


async def test_a_start_whose_image_is_ready_is_answered_in_one_request(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, lobby = await open_table(world, ana, variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)

    async def ready(view: Any, language: str = "en") -> discord.File:
        return discord.File(io.BytesIO(b"image"), filename="table.png")
    monkeypatch.setattr(images, "table_image", ready)
    mark = fake.mark()
    r = await fake.click(bot, ana, lobby, button_id("start", table_id))
    assert r.callback_type == 7 and not r.rejected
    answer = fake.requests_to(route=r"/(interactions|webhooks)/.*", since=mark)
    assert len(answer) == 1


async def test_a_click_in_a_dm_is_acknowledged_before_the_hand_image_is_drawn(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    fake, bot = world.fake, world.bot
    table_id, lobby = await open_table(world, world.members[0], variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)
    await fake.click(bot, world.members[0], lobby, button_id("start", table_id))
    live = bot.service.live[table_id]
    seat = live.match.to_act
    s = live.seats[seat]
    action = RandomPlayer(1).choose(table_view(live.match, seat))
    gate = Gate(images.hand_image, click_answers)
    monkeypatch.setattr(images, "hand_image", gate)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.click(bot, member_of(world, s.user_id), fake.message(s.dm_message_id),
                         button_id("act", table_id, live.seq, encode_action(action)), wait=False)
    assert await acknowledged_while_held(r, gate) == 6
    await fake.settle()
    dm = fake.message(s.dm_message_id)
    view = live.view(seat)
    assert dm.content == messages.hand_text(live, view)
    assert [a.data for a in dm.attachments] == [render_hand(view)[0]]
    assert not r.rejected


async def test_my_hand_is_acknowledged_before_its_image_is_drawn(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    fake, bot, bo = world.fake, world.bot, world.members[1]
    table_id, lobby = await open_table(world, world.members[0], variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)
    await fake.click(bot, world.members[0], lobby, button_id("start", table_id))
    gate = Gate(images.hand_image, click_answers)
    monkeypatch.setattr(images, "hand_image", gate)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.slash(bot, bo, world.channel, "belote hand", wait=False)
    assert await acknowledged_while_held(r, gate) == 5  # "thinking…", for bo alone
    await fake.settle()
    live = bot.service.live[table_id]
    view = live.view(live.seat_of(bo.id))
    assert r.ephemeral and r.content == messages.hand_text(live, view)
    assert [a.data for a in r.attachments] == [render_hand(view)[0]]
    assert enabled_actions(r.answer) or not view.is_my_turn
    assert not r.answer.flags & 128 and not r.rejected  # no longer "thinking"


def pings(w: World, channel_id: int) -> list[str]:
    return [m.content for m in w.fake.messages(channel_id) if ", it is your turn" in m.content]


async def test_closed_dms_hand_follows_computers_that_moved_while_the_answer_was_drawn(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The player's click is answered first; the edit showing the computers' moves follows it
    through the click's token: no lost hand, no "your turn" ping in the thread."""
    fake, bot, ana = world.fake, world.bot, world.members[0]
    ana.close_dms()
    table_id, lobby = await open_table(world, ana, variant="classic", computers=True)
    await fake.click(bot, ana, lobby, button_id("start", table_id))
    await bot.service.settle()  # the computers play up to ana's turn
    await fake.settle()
    live = bot.service.live[table_id]
    seat = live.seat_of(ana.id)
    assert live.match.to_act == seat
    mine = await fake.click(bot, ana, fake.message(lobby.id), button_id("hand", table_id))
    assert mine.ephemeral and mine.callback_type == 4
    custom_id = next(c for c in enabled_actions(mine.answer) if c.startswith("bt:act:"))
    # The answer to ana's click is drawn slowly, and not deferred: Discord knows no message
    # for its token until it is sent.
    gate = Gate(images.hand_image, click_answers)
    monkeypatch.setattr(images, "hand_image", gate)
    monkeypatch.setattr(answers, "BUDGET", 60.0)
    pinged = pings(world, lobby.channel_id)  # (one, before she opened her hand)
    before = set(asyncio.all_tasks())
    r = await fake.click(bot, ana, mine.message, custom_id, wait=False)
    try:
        await until(lambda: gate.waiting > 0, "the answer's image render started")
        assert r.callback_type is None
        answering = {t for t in asyncio.all_tasks() if t not in before and not t.done()}
        await bot.service.settle()  # the computers moved: it is ana's turn again
        assert live.match.to_act == seat
        # Everything the bot does about it, except an edit that waits for the answer.
        job = f"belote-send-{('hand', table_id, seat)}"
        fake.settle_ignores.append(lambda t: t.get_name() == job and bool(
            bot.delivery.tokens.answering.get((table_id, seat))))
        await fake.settle(before | answering)
    finally:
        gate.opened.set()
    await fake.settle()
    assert r.callback_type == 7 and not r.rejected
    now = fake.message(mine.answer.id)
    view = live.view(seat)
    assert now.content == messages.hand_text(live, view) and "Your turn" in now.content
    assert enabled_actions(now) and all(f":{live.seq}:" in c for c in enabled_actions(now))
    assert pings(world, lobby.channel_id) == pinged  # no new "your turn" ping


async def test_a_card_whose_action_is_slow_is_acknowledged_before_the_action_is_done(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The action itself (here its write to the database) is what is slow: the click is
    deferred in time all the same, and the hand shows the action once it is done."""
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world)
    live = bot.service.live[table_id]
    seat = live.match.to_act
    s = live.seats[seat]
    action = RandomPlayer(1).choose(table_view(live.match, seat))
    seq = live.seq
    log = bot.service.db.log
    write = Gate(log.append)
    monkeypatch.setattr(log, "append", write)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.click(bot, member_of(world, s.user_id), fake.message(s.dm_message_id),
                         button_id("act", table_id, seq, encode_action(action)), wait=False)
    assert await acknowledged_while_held(
        r, write, "the action's write to the database started",
        meanwhile=lambda: write.waiting == 1) == 6
    await fake.settle()
    dm = fake.message(s.dm_message_id)
    view = live.view(seat)
    assert live.seq == seq + 1 and live.match.to_act != seat  # the action was done
    assert dm.content == messages.hand_text(live, view)
    assert [a.data for a in dm.attachments] == [render_hand(view)[0]]
    assert not r.rejected and not r.followups


async def test_a_slow_click_refused_after_its_defer_is_told_why(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stale card, held behind the table's lock long enough to be deferred, is refused in
    a private follow-up: the defer and the refusal never cross, and nothing changes."""
    fake, bot = world.fake, world.bot
    table_id, lobby = await start_table(world)
    live = bot.service.live[table_id]
    s = live.seats[live.match.to_act]
    member = member_of(world, s.user_id)
    mine = await fake.click(bot, member, lobby, button_id("hand", table_id))  # a private hand
    action = RandomPlayer(1).choose(table_view(live.match, live.match.to_act))
    custom_id = button_id("act", table_id, live.seq, encode_action(action))
    # Played through the DM: the same button on the private hand is out of date now.
    await fake.click(bot, member, fake.message(s.dm_message_id), custom_id)
    seq, to_act = live.seq, live.match.to_act
    acting = Gate(bot.service.act)
    monkeypatch.setattr(bot.service, "act", acting)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.click(bot, member, mine.message, custom_id, wait=False)
    assert await acknowledged_while_held(
        r, acting, "the action reached the table service") == 6
    await fake.settle()
    assert [(m.ephemeral, "out of date" in m.content) for m in r.followups] == [(True, True)]
    assert (live.seq, live.match.to_act) == (seq, to_act)
    assert not r.rejected


async def test_taking_a_seat_back_slowly_is_acknowledged_before_it_is_done(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    fake, bot = world.fake, world.bot
    table_id, _ = await start_table(world)
    live = bot.service.live[table_id]
    bo = world.members[1]
    seat = live.seat_of(bo.id)
    await fake.slash(bot, bo, world.channel, "belote leave")
    await fake.settle()
    assert live.seats[seat].departed == "left"
    reclaim = Gate(bot.service.reclaim)
    monkeypatch.setattr(bot.service, "reclaim", reclaim)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    dm = fake.message(live.seats[seat].dm_message_id)
    r = await fake.click(bot, bo, dm, button_id("back", table_id), wait=False)
    assert await acknowledged_while_held(
        r, reclaim, "the seat's taking back started",
        meanwhile=lambda: live.seats[seat].departed == "left") == 6
    await fake.settle()
    assert live.seats[seat].departed is None and live.seat_of(bo.id) == seat
    assert not r.rejected and not r.followups


async def test_leaving_slowly_is_acknowledged_privately_then_told(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A control answered with a private reply (Leave) and slow to act is deferred as
    "thinking…" for the clicker alone, and its words then replace it: one answer, no cross."""
    fake, bot = world.fake, world.bot
    table_id, lobby = await open_table(world, world.members[0], variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)
    live = bot.service.live[table_id]
    bo = world.members[1]
    leaving = Gate(bot.service.leave)
    monkeypatch.setattr(bot.service, "leave", leaving)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.click(bot, bo, fake.message(lobby.id), button_id("leave", table_id),
                         wait=False)
    assert await acknowledged_while_held(  # "thinking…", for bo alone
        r, leaving, "the leave reached the table service",
        meanwhile=lambda: r.ephemeral and live.seat_of(bo.id) is not None) == 5
    await fake.settle()
    assert live.seat_of(bo.id) is None
    assert r.ephemeral and r.content == words("en")("tables.left")
    assert not r.answer.flags & 128 and not r.followups and not r.rejected


async def test_joining_a_tournament_slowly_is_acknowledged_privately_then_told(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    mod = world.guild.add_member("mod", manage_guild=True)
    signup = (await fake.slash(bot, mod, world.channel, "belote tournament new",
                               format="quick")).answer
    joining = Gate(bot.tournaments.join)
    monkeypatch.setattr(bot.tournaments, "join", joining)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.click(bot, ana, signup, "tn:join:1", wait=False)
    assert await acknowledged_while_held(
        r, joining, "the join reached the tournaments",
        meanwhile=lambda: r.ephemeral) == 5
    await fake.settle()
    _, tournament = await bot.tournaments.load(1)
    assert ana.id in tournament.entrants
    assert r.ephemeral and "signed up" in r.text and not r.answer.flags & 128
    assert not r.followups and not r.rejected


async def test_a_slow_leave_command_is_acknowledged_privately_then_told(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A slash command is armed as it arrives, like a click: slow behind the table's lock, it
    shows "thinking…" to its user alone, and its words then replace it."""
    fake, bot = world.fake, world.bot
    table_id, lobby = await open_table(world, world.members[0], variant="classic")
    await seat_everyone(world, table_id, lobby, world.members)
    live = bot.service.live[table_id]
    bo = world.members[1]
    leaving = Gate(bot.service.leave)
    monkeypatch.setattr(bot.service, "leave", leaving)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.slash(bot, bo, world.channel, "belote leave", wait=False)
    assert await acknowledged_while_held(
        r, leaving, "the leave reached the table service",
        meanwhile=lambda: r.ephemeral and live.seat_of(bo.id) is not None) == 5
    await fake.settle()
    assert live.seat_of(bo.id) is None
    assert r.ephemeral and r.content == words("en")("tables.left")
    assert not r.answer.flags & 128 and not r.followups and not r.rejected


async def test_a_slow_end_command_is_acknowledged_publicly_then_told(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    fake, bot, ana = world.fake, world.bot, world.members[0]
    table_id, _ = await open_table(world, ana, variant="classic")
    ending = Gate(bot.service.end)
    monkeypatch.setattr(bot.service, "end", ending)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.slash(bot, ana, world.channel, "belote end", table=table_id, wait=False)
    assert await acknowledged_while_held(
        r, ending, "the end reached the table service",
        meanwhile=lambda: not r.ephemeral and table_id in bot.service.live) == 5
    await fake.settle()
    assert table_id not in bot.service.live
    assert not r.ephemeral and r.content == words("en")(
        "commands.end.done", table=table_id, user=f"<@{ana.id}>")
    assert not r.answer.flags & 128 and not r.followups and not r.rejected


async def test_a_slow_public_command_refused_tells_its_user_alone(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """/belote end deferred publicly, then refused (not the host, not a moderator): the
    channel's "thinking…" goes away and the refusal is private. Nothing changes."""
    fake, bot = world.fake, world.bot
    table_id, _ = await open_table(world, world.members[0], variant="classic")
    ending = Gate(bot.service.end)
    monkeypatch.setattr(bot.service, "end", ending)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.slash(bot, world.members[2], world.channel, "belote end", table=table_id,
                         wait=False)
    assert await acknowledged_while_held(r, ending, "the end reached the table service",
                                         meanwhile=lambda: not r.ephemeral) == 5
    await fake.settle()
    assert table_id in bot.service.live
    assert r.answer.deleted  # no public "thinking…" left hanging
    assert [(m.ephemeral, "host" in m.content) for m in r.followups] == [(True, True)]
    assert not r.rejected


async def test_a_fast_command_is_answered_in_one_request(world: World) -> None:
    """Commands no longer defer before a quick answer (the leaderboard and stats with their
    images, a wallet): one request each, not a defer and a follow-up."""
    fake, bot, ana = world.fake, world.bot, world.members[0]
    await played(world, target=1)
    for command, image in (("belote leaderboard", "leaderboard"), ("belote stats", "rating"),
                           ("belote history", None), ("belote wallet", None),
                           ("belote help", None)):
        mark = fake.mark()
        r = await fake.slash(bot, ana, world.channel, command)
        assert r.callback_type == 4 and not r.rejected, command
        assert len(fake.requests_to(route=r"/(interactions|webhooks)/.*", since=mark)) == 1
        assert [a.filename.split(".")[0] for a in r.answer.attachments] == (
            [image] if image else []), command


async def test_a_slow_new_table_is_acknowledged_publicly_then_announced(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """/belote new slow to open the table (the database): the channel sees "thinking…" in
    time, then the announcement of the table in its place; a refusal would be private."""
    fake, bot, ana = world.fake, world.bot, world.members[0]
    creating = Gate(bot.service.create)
    monkeypatch.setattr(bot.service, "create", creating)
    monkeypatch.setattr(answers, "BUDGET", 0.0)
    r = await fake.slash(bot, ana, world.channel, "belote new", variant="classic", wait=False)
    assert await acknowledged_while_held(
        r, creating, "the table's creation started",
        meanwhile=lambda: not r.ephemeral) == 5
    await fake.settle()
    live = bot.service.table_of(world.guild.id, ana.id)
    assert live is not None and live.row.message_id is not None
    assert f"#{live.id}" in r.text and not r.ephemeral
    assert not r.answer.flags & 128 and not r.followups and not r.rejected
