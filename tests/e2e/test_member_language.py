"""What one member alone reads (refusals, private answers, the rules card) is in their Discord
client's language when the bot speaks it, English otherwise: one member's click is answered
in French, the next one's in Bulgarian or English, at the same table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.controls import button_id
from bot.messages import hand_text
from game.players import RandomPlayer
from i18n import Seat, words
from service import Refusal

from .table_helpers import World, open_table, play_turn, restart, seat_everyone


def speaks(member: Any, locale: str) -> Any:
    member.user.locale = locale
    return member


async def test_a_refusal_is_answered_in_the_language_of_who_clicked(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members[0], speaks(world.members[1], "fr")
    cy, dee = speaks(world.members[2], "bg"), speaks(world.members[3], "ja")
    table_id, lobby = await open_table(world, ana, variant="classic")
    assert (await fake.click(bot, bo, lobby, button_id("sit", table_id, 1))).callback_type == 7
    taken = Refusal("tables.seat_taken_by", seat=Seat(1), name="bo")
    for member, language in ((cy, "bg"), (ana, "en"), (dee, "en")):
        r = await fake.click(bot, member, lobby, button_id("sit", table_id, 1))
        assert r.ephemeral and r.text == taken.text(language), (language, r.text)
    assert "Изток" in taken.text("bg") and "Est" in taken.text("fr")
    # Only the host starts: bo is told so in French.
    r = await fake.click(bot, bo, lobby, button_id("start", table_id))
    assert r.ephemeral and r.text == words("fr")("tables.host_only_start", host_id=ana.id)


async def test_private_answers_follow_the_members_language(world: World) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = world.members[0], speaks(world.members[1], "fr")
    table_id, lobby = await open_table(world, ana, variant="classic")
    assert (await fake.click(bot, bo, lobby, button_id("sit", table_id, 2))).callback_type == 7
    card = await fake.click(bot, bo, lobby, button_id("rules", table_id))
    assert card.ephemeral and words("fr")("rules_card.seats_open") in card.text
    card = await fake.click(bot, ana, lobby, button_id("rules", table_id))
    assert card.ephemeral and words("en")("rules_card.seats_open") in card.text
    r = await fake.slash(bot, bo, world.channel, "belote leave")
    assert r.ephemeral and r.text == words("fr")("tables.left")
    r = await fake.click(bot, bo, lobby, button_id("leave", table_id))
    assert r.ephemeral and r.text == Refusal("tables.not_playing").text("fr")


async def test_a_restart_keeps_each_hand_in_its_players_language(
        world: World, database_path: Path) -> None:
    """The language of each member's client is stored: after a restart the French player's
    hand is still written in French at an English table, before he clicks anything."""
    fake = world.fake
    ana = world.members[0]
    speaks(world.members[1], "fr")  # bo, South's right (seat 1)
    table_id, lobby = await open_table(world, ana, variant="classic")
    await seat_everyone(world, table_id, lobby, world.members[:4])
    assert (await fake.click(world.bot, ana, lobby, button_id("start", table_id))
            ).callback_type == 7
    rng = RandomPlayer(5)
    while world.bot.service.live[table_id].match.to_act == 1:
        await play_turn(world, table_id, rng)
    await restart(world, database_path)
    live = world.bot.service.live[table_id]
    while live.match.to_act != 1:  # the others act: bo's hand gets its controls
        r = await play_turn(world, table_id, rng)
        assert r.callback_type == 7, r.text
    await fake.settle()
    view = live.view(1)
    assert view is not None and view.is_my_turn
    hand = fake.message(live.seats[1].dm_message_id)
    assert hand.content == hand_text(live, view, "fr") != hand_text(live, view, "en")
    assert words("fr")("hand.title", table=table_id, variant="", deal=view.deal_number,
                       channel="").split()[0] in hand.content
