"""A player's hand in their DMs is edited through the token of their last click on it (their
turn comes again, a trick ends): Discord does not count interaction tokens against the bot's
global request limit, so a card costs no global call for the next player's hand. A token
Discord no longer takes (it lasts 15 minutes) is dropped and the DM edited as a message."""

from __future__ import annotations

from game.players import RandomPlayer

from .table_helpers import World, play_turn, start_table

DM_EDIT = r"/channels/\{channel_id\}/messages/\{message_id\}"
TOKEN_EDIT = r"/webhooks/\{app_id\}/\{token\}/messages/\{message_id\}"


def dm_edits(w: World, since: int) -> list[object]:
    return [r for r in w.fake.requests_to("PATCH", DM_EDIT, since=since)
            if w.fake.channel(int(r.path.split("/")[2])).guild is None]


async def test_hands_are_edited_through_the_players_last_click(world: World) -> None:
    table_id, _ = await start_table(world, "bulgarian")
    rng = RandomPlayer(4)
    for _ in range(4):  # everyone has clicked their hand once
        assert (await play_turn(world, table_id, rng)).callback_type == 7
    mark = world.fake.mark()
    for _ in range(12):
        # Clicked on the hand as it is on Discord now: the next player's controls were shown.
        assert (await play_turn(world, table_id, rng)).callback_type == 7
    assert dm_edits(world, mark) == []
    token_edits = world.fake.requests_to("PATCH", TOKEN_EDIT, since=mark)
    assert token_edits and all(r.status == 200 for r in token_edits)
    assert all(not r.counts_against_global_limit for r in token_edits)


async def test_a_token_discord_no_longer_takes_falls_back_to_a_dm_edit(world: World) -> None:
    table_id, _ = await start_table(world, "bulgarian")
    rng = RandomPlayer(4)
    for _ in range(4):
        assert (await play_turn(world, table_id, rng)).callback_type == 7
    world.fake.token_lifetime = 0.0  # every token has run out
    mark = world.fake.mark()
    for _ in range(8):
        assert (await play_turn(world, table_id, rng)).callback_type == 7
    refused = world.fake.requests_to("PATCH", TOKEN_EDIT, since=mark)
    assert refused and all(r.status == 401 for r in refused)
    assert dm_edits(world, mark)  # shown all the same
    # A refused token is dropped: never tried twice.
    tokens = [r.path.split("/")[3] for r in refused]
    assert len(set(tokens)) == len(tokens)
