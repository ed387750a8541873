"""A whole quick tournament through the fake Discord, clock injected: eight members sign up
(paying an entry fee), one runs out of time once, one leaves their table, the bot restarts in
the middle of round one and again between the rounds, and the final post names the winners and
their prizes. The ledger sums to the grants given, every fee is in the prizes."""

from __future__ import annotations

from pathlib import Path

from bot import create_bot
from bot.controls import button_id
from db.tournaments import COMPUTER
from game.players import RandomPlayer
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, play_turn

NAMES = ("ana", "bo", "cy", "dee", "eve", "fay", "gus", "hal")
FEE = 50


SEED = 7  # every table, draw and deal of the run


async def restart(w: World, database_path: Path) -> None:
    await w.fake.disconnect(w.bot)
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0,
                                   table_seed=SEED)
    await w.fake.settle()


async def play(w: World, table_ids: list[int], rng: RandomPlayer, clicks: int) -> None:
    """People click (at random among legal actions) until ``clicks`` clicks or the tables end;
    computers play by themselves."""
    for _ in range(clicks):
        await w.fake.settle()
        open_ = [t for t in table_ids if t in w.bot.service.live]
        if not open_:
            return
        for table_id in open_:
            live = w.bot.service.live[table_id]
            seat = live.match.to_act if live.match is not None else None
            if seat is not None and live.seats[seat].computer is None:
                r = await play_turn(w, table_id, rng)
                assert r.callback_type == 7, r.text
                break


async def test_a_quick_tournament_from_sign_up_to_the_final(
        fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock) -> None:
    w = await make_world(fake_discord, database_path, names=NAMES, table_seed=SEED)
    fake = w.fake
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(w.bot, mod, w.channel, "belote tournament new", format="quick",
                         entry_fee=FEE)
    signup = r.message
    assert signup is not None
    for member in w.members[:8]:
        click = await fake.click(w.bot, member, signup, "tn:join:1")
        assert "signed up" in click.text, click.text
    await fake.settle()
    repo = w.bot.tournaments.repo
    first = [t.table_id for t in await repo.tables(1) if t.table_id is not None]
    assert len(first) == 2
    rng = RandomPlayer(11)
    # The player to act at the first table runs out of time (as does the one at the
    # second): a computer takes the seat over, so the round always finishes; the first takes
    # it back and plays on.
    live = w.bot.service.live[first[0]]
    late = live.seats[live.match.to_act].user_id
    assert late is not None
    table_clock.advance(31)
    await fake.settle()
    assert live.seat_of(late) is None and live.held_seat(late) is not None
    latecomer = next(m for m in w.members if m.id == late)
    r = await fake.click(w.bot, latecomer, fake.message(live.row.message_id),
                         button_id("back", first[0]))
    assert r.callback_type in (4, 7), r.text
    assert live.seat_of(late) is not None
    # One leaves their table: a computer plays for them; they are out once it ends.
    other = w.bot.service.live[first[1]]
    leaver = next(s.user_id for s in other.seats.values()
                  if s.user_id is not None and s.computer is None)
    member = next(m for m in w.members if m.id == leaver)
    r = await fake.slash(w.bot, member, w.channel, "belote leave")
    assert "computer" in r.text, r.text
    await play(w, first, rng, 40)
    await restart(w, database_path)  # in the middle of round one
    assert all(t in w.bot.service.live for t in first)
    await play(w, first, rng, 5000)
    await w.bot.tournaments.settle()
    await fake.settle()
    _, t = await w.bot.tournaments.load(1)
    assert t.rounds[0].is_done and len(t.rounds) == 2
    repo = w.bot.tournaments.repo  # the restarted bot's
    statuses = {e.user_id: e.status for e in await repo.entrants(1)}
    assert statuses[leaver] == COMPUTER and t.plays_by_computer(leaver)
    assert not t.plays_by_computer(late)
    await restart(w, database_path)  # between the rounds: the final is seated, not started
    repo = w.bot.tournaments.repo
    final = [tb.table_id for tb in await repo.tables(1) if tb.round == 2]
    assert len(final) == 1 and final[0] in w.bot.service.live
    await play(w, final, rng, 5000)
    await w.bot.tournaments.settle()
    await fake.settle()
    row, t = await w.bot.tournaments.load(1)
    assert row.stage == "finished"
    # The final post: the winners, the second places and their prizes.
    posts = [m.content for m in fake.messages(w.channel) if "won tournament" in m.content
             or "Prizes" in m.content]
    assert posts and "Prizes:" in posts[-1], posts
    credits = w.bot.credits.repo
    paid = await credits.paid(w.guild.id, 1, "prize")
    assert sum(paid.values()) == 8 * FEE and leaver not in paid
    total, ledger, per_reason = await credits.sums(w.guild.id)
    assert total == ledger == per_reason["grant"] == 8 * 1000
    assert per_reason["entry_fee"] == -8 * FEE and per_reason["prize"] == 8 * FEE
    signup = fake.message(signup.id)
    assert [a.filename for a in signup.attachments] == ["bracket.png"]
