"""Stakes at tables through the fake Discord: each person's stake taken when the match starts,
the pot paid to the winners with the result, a leaver's stake forfeited, every stake returned
when the game is abandoned or ended by a moderator; a member who cannot cover the stake cannot
sit, and no computer sits at a staked table. The ledger always sums to the grants given."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.controls import button_id
from game.players import RandomPlayer
from service.tables.clock import FakeClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world, open_table, play_out, play_turn, seat_everyone

STAKE = 100
GRANT = 1000


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, table_clock: FakeClock) -> World:
    w = await make_world(fake_discord, database_path, ("ana", "bo", "cy", "dee"))
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    return w


async def staked_game(w: World) -> int:
    table_id, lobby = await open_table(w, w.members[0], variant="classic", target=1,
                                       stake=STAKE)
    assert "Stake: 100 credits per player" in w.fake.message(lobby.id).content
    await seat_everyone(w, table_id, lobby, w.members[:4])
    r = await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    assert r.callback_type == 7, r.text
    return table_id


async def balances(w: World) -> list[int | None]:
    return [await w.bot.credits.repo.balance(w.guild.id, m.id) for m in w.members[:4]]


async def assert_only_grants_brought_credits(w: World) -> None:
    total, ledger, per_reason = await w.bot.credits.repo.sums(w.guild.id)
    assert total == ledger == per_reason["grant"] == 4 * GRANT


async def test_the_stakes_are_taken_at_the_start_and_the_winners_share_the_pot(
        world: World) -> None:
    w = world
    table_id = await staked_game(w)
    assert await balances(w) == [GRANT - STAKE] * 4
    live = w.bot.service.live[table_id]
    await play_out(w, table_id, seed=3)
    winner = live.match.winner
    assert winner is not None
    assert await balances(w) == [GRANT + STAKE if seat % 2 == winner else GRANT - STAKE
                                 for seat in range(4)]
    await assert_only_grants_brought_credits(w)


async def test_a_leaver_forfeits_and_the_winners_who_stayed_share_the_pot(
        world: World) -> None:
    w = world
    table_id = await staked_game(w)
    live = w.bot.service.live[table_id]
    r = await w.fake.slash(w.bot, w.members[1], w.channel, "belote leave")  # bo, seat 1
    assert "computer" in r.text, r.text
    await play_out(w, table_id, seed=3)
    winner = live.match.winner
    got = await balances(w)
    assert got[1] == GRANT - STAKE  # forfeited, whoever won
    if winner == 1:
        assert got == [GRANT - STAKE, GRANT - STAKE, GRANT - STAKE, GRANT + 3 * STAKE]
    else:
        assert got == [GRANT + STAKE, GRANT - STAKE, GRANT + STAKE, GRANT - STAKE]
    await assert_only_grants_brought_credits(w)


async def test_a_staller_at_a_staked_table_runs_out_of_time_and_the_game_goes_on(
        world: World, table_clock: FakeClock) -> None:
    """Issue 48: a staked table whose host chose no turn timer once let the player to act stop
    until the sweeper ended the game and gave every stake back. It has a timer now."""
    w = world
    r = await w.fake.slash(w.bot, w.members[4], w.channel, "belote config", idle_minutes=20)
    assert "Settings changed" in r.text
    table_id = await staked_game(w)  # no turn timer chosen
    live = w.bot.service.live[table_id]
    assert "Turn timer: 2 min" in w.fake.message(live.row.message_id).versions[0].content
    staller, seq = live.match.to_act, live.seq
    assert live.deadline == table_clock.now() + 120  # their time runs
    table_clock.advance(121)
    await w.fake.settle()
    assert live.seq > seq  # a computer played that turn for them
    # The others play on, and the match has its winners, who take the pot.
    await play_out(w, table_id, seed=3)
    winner = live.match.winner
    assert winner is not None and table_id not in w.bot.service.live
    got = await balances(w)
    assert got != [GRANT] * 4 and sum(g or 0 for g in got) == 4 * GRANT
    assert all(got[s] == GRANT - STAKE for s in range(4) if s % 2 != winner), (got, staller)
    await assert_only_grants_brought_credits(w)


async def test_an_abandoned_game_is_lost_by_its_idle_player_alone(
        world: World, table_clock: FakeClock) -> None:
    w = world
    r = await w.fake.slash(w.bot, w.members[4], w.channel, "belote config", idle_minutes=1)
    assert "Settings changed" in r.text
    table_id, lobby = await open_table(w, w.members[0], variant="classic", target=1,
                                       stake=STAKE, turn_timer=300)
    await seat_everyone(w, table_id, lobby, w.members[:4])
    await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    live = w.bot.service.live[table_id]
    acted: set[int] = set()
    rng = RandomPlayer(5)
    while acted != {0, 1, 2, 3}:  # everybody acts at least once...
        acted.add(live.match.to_act)
        r = await play_turn(w, table_id, rng)
        assert r.callback_type == 7, r.text
    staller = live.match.to_act  # ...then one stops, and a minute passes (their timer: 5)
    table_clock.advance(61)
    await w.fake.settle()
    assert table_id not in w.bot.service.live
    match = await w.bot.service.db.results.match(w.guild.id, table_id)
    assert match is not None and match.ending == "abandoned" and match.left == (staller,)
    # The staller loses their stake, alone: nobody receives it, the others have theirs back.
    assert await balances(w) == [GRANT - STAKE if s == staller else GRANT for s in range(4)]
    total, ledger, _ = await w.bot.credits.repo.sums(w.guild.id)
    assert total == ledger == 4 * GRANT - STAKE


async def test_a_kicked_player_has_their_stake_back_and_the_pot_is_the_others(
        world: World) -> None:
    w = world
    table_id = await staked_game(w)
    live = w.bot.service.live[table_id]
    r = await w.fake.slash(w.bot, w.members[4], w.channel, "belote kick", player=w.members[1])
    assert "was removed" in r.text, r.text
    await play_out(w, table_id, seed=3)
    winner = live.match.winner
    got = await balances(w)
    assert got[1] == GRANT  # bo's stake came back; he shares nothing
    if winner == 1:  # dee takes the three other stakes
        assert got == [GRANT - STAKE, GRANT, GRANT - STAKE, GRANT + 2 * STAKE]
    else:  # ana and cy share dee's stake and their own: nobody gained bo's
        assert got == [GRANT + STAKE // 2, GRANT, GRANT + STAKE // 2, GRANT - STAKE]
    await assert_only_grants_brought_credits(w)


async def test_a_moderator_ending_the_game_returns_every_stake(world: World) -> None:
    w = world
    table_id = await staked_game(w)
    r = await w.fake.slash(w.bot, w.members[4], w.channel, "belote end", table=table_id)
    assert table_id not in w.bot.service.live, r.text
    assert await balances(w) == [GRANT] * 4
    await assert_only_grants_brought_credits(w)


async def test_who_cannot_cover_the_stake_cannot_sit_and_computers_cannot_sit(
        world: World) -> None:
    w = world
    ana, bo = w.members[:2]
    r = await w.fake.slash(w.bot, ana, w.channel, "belote new", stake=STAKE, computers=True)
    assert r.ephemeral and "no computer can sit at it" in r.text
    r = await w.fake.slash(w.bot, ana, w.channel, "belote new", stake=GRANT + 1)
    assert r.ephemeral and "stake is 1,001 credits and you have 1,000" in r.text, r.text
    table_id, lobby = await open_table(w, ana, variant="classic", stake=600)
    r = await w.fake.click(w.bot, bo, lobby, button_id("sit", table_id, 1))
    assert r.callback_type == 7
    r = await w.fake.click(w.bot, ana, lobby, button_id("cpu", table_id, 2))
    assert r.ephemeral and "no computer can sit at it" in r.text, r.text
    assert 2 not in w.bot.service.live[table_id].seats
    # cy's starting grant is smaller now: she cannot cover the stake, and nothing changes.
    await w.fake.slash(w.bot, w.members[4], w.channel, "belote config", starting_credits=500)
    r = await w.fake.click(w.bot, w.members[2], lobby, button_id("sit", table_id, 2))
    assert r.ephemeral and "stake is 600 credits and you have 500" in r.text, r.text
    assert 2 not in w.bot.service.live[table_id].seats


async def test_a_table_does_not_start_when_a_player_spent_their_stake_meanwhile(
        world: World) -> None:
    w = world
    table_id, lobby = await open_table(w, w.members[0], variant="classic", stake=600)
    await seat_everyone(w, table_id, lobby, w.members[:4])
    # bo pays 500 into a tournament after sitting down: 500 left, under the stake.
    r = await w.fake.slash(w.bot, w.members[4], w.channel, "belote tournament new",
                           format="quick", entry_fee=500)
    assert r.message is not None
    await w.fake.click(w.bot, w.members[1], r.message, "tn:join:1")
    r = await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    assert r.ephemeral and "can no longer cover the stake of 600 credits" in r.text, r.text
    live = w.bot.service.live[table_id]
    assert live.match is None and await balances(w) == [1000, 500, 1000, 1000]


async def test_a_rated_table_with_nothing_staked_runs_a_turn_timer_too(
        world: World, table_clock: FakeClock) -> None:
    """Issue 48: four people, no stake and no timer chosen: the match moves ratings, so the
    player to act cannot stall it either."""
    w = world
    table_id, lobby = await open_table(w, w.members[0], variant="classic", target=1)
    await seat_everyone(w, table_id, lobby, w.members[:4])
    r = await w.fake.click(w.bot, w.members[0], lobby, button_id("start", table_id))
    assert r.callback_type == 7, r.text
    live = w.bot.service.live[table_id]
    await w.fake.settle()
    assert "time runs out" in w.fake.message(live.row.message_id).content
    seq = live.seq
    assert live.deadline == table_clock.now() + 120
    table_clock.advance(121)
    await w.fake.settle()
    assert live.seq > seq  # a computer played that turn for them
