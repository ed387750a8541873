"""A table speaks one language: a whole match of each variant at a French table and at a
Bulgarian table, with a French and an English member. No English word reaches the table's
public messages (checked against the English catalogue's own texts), and what the English
member alone reads (their DM hand, its buttons, their private replies) is English."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.controls import button_id
from i18n import texts, words
from tests.fakediscord import FakeDiscord, FakeMessage

from .table_helpers import World, make_world, open_table, play_out, seat_everyone

LETTER = "A-Za-zÀ-ÿЀ-ӿ"


@cache
def own_words(language: str, other: str) -> tuple[re.Pattern[str], ...]:
    """The fixed pieces of ``language``'s messages (the text between their parameters) that
    no message of ``other`` has: seeing one means a message was written in ``language``."""
    theirs = " ".join(t for v in texts(other).values()
                      for t in ((v,) if isinstance(v, str) else v))
    pieces: set[str] = set()
    for value in texts(language).values():
        for text in (value,) if isinstance(value, str) else value:
            for piece in re.split(r"\{[^}]*\}|\n|\*\*|`|•|—|[:;,.!?()]", text):
                piece = piece.strip(" .,;!?…·→⚠⏱“”«»\"'")
                if len(re.findall(f"[{LETTER}]", piece)) >= 4 and piece not in theirs:
                    pieces.add(piece)
    return tuple(re.compile(f"(?<![{LETTER}]){re.escape(p)}(?![{LETTER}])")
                 for p in sorted(pieces))


def shown(message: FakeMessage) -> list[str]:
    """Every text a reader saw on a message, in every version: content, labels, placeholders."""
    out: list[str] = []
    states = [(v.content, v.components) for v in message.versions]
    for content, components in [*states, (message.content, message.components)]:
        out.append(content)
        stack = list(components)
        while stack:
            item = stack.pop()
            stack += item.get("components", [])
            out += [str(item[k]) for k in ("label", "placeholder") if item.get(k)]
            out += [str(o.get("label", "")) for o in item.get("options", [])]
    return out


def words_of(language: str, other: str, said: list[str]) -> list[str]:
    return sorted({f"{p.pattern!r} in {s!r}" for s in said for p in own_words(language, other)
                   if p.search(s)})


def speaks(member: Any, locale: str) -> Any:
    member.user.locale = locale
    return member


@pytest.mark.parametrize("variant", ["classic", "coinche", "bulgarian"])
@pytest.mark.parametrize("table_language", ["fr", "bg"])
async def test_a_whole_match_speaks_the_tables_language(world: World, variant: str,
                                                        table_language: str) -> None:
    fake, bot = world.fake, world.bot
    ana, bo = speaks(world.members[0], "fr"), speaks(world.members[1], "en-US")
    cy, dee = speaks(world.members[2], "fr"), speaks(world.members[3], "ja")
    table_id, lobby = await open_table(world, ana, variant=variant, target=1,
                                       language=table_language)
    await seat_everyone(world, table_id, lobby, [ana, bo, cy, dee])
    assert (await fake.click(bot, ana, lobby, button_id("start", table_id))).callback_type == 7
    await play_out(world, table_id, seed=7)
    await fake.settle()
    public = [t for m in fake.public_messages() for t in shown(m)]
    public += [t.name for t in fake.threads(world.channel)]
    assert len(public) > 20
    assert words_of("en", table_language, public) == []
    assert words_of(table_language, "en", public)  # (the check sees the table's words)
    # The English member reads English in private; the others the table's language.
    private = [t for m in fake.dm_messages(bo) + fake.ephemeral_messages(bo) for t in shown(m)]
    assert private and words_of(table_language, "en", private) == []
    assert words_of("en", table_language, private)  # (the check sees English words)
    for member, language in ((ana, "fr"), (dee, table_language)):  # dee's client: Japanese
        theirs = [t for m in fake.dm_messages(member) for t in shown(m)]
        assert theirs and words_of("en", language, theirs) == []


async def test_a_new_table_speaks_the_servers_language_unless_told(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    # A French community: its tables speak French unless /belote new says otherwise.
    world = await make_world(fake_discord, database_path, locale="fr")
    fake, bot = world.fake, world.bot
    ana, bo = world.members[0], world.members[1]
    table_id, _ = await open_table(world, ana, variant="classic")
    assert bot.service.live[table_id].language == "fr"
    thread = fake.threads(world.channel)[-1]
    assert thread.name == words("fr")("commands.new.thread_name", table=table_id,
                                      variant=words("fr")("table.variant.classic"))
    other, _ = await open_table(world, bo, variant="classic", language="bg")
    assert bot.service.live[other].language == "bg"


async def test_a_moderator_can_force_english_on_a_french_server_and_go_back_to_auto(
        fake_discord: FakeDiscord, database_path: Path) -> None:
    world = await make_world(fake_discord, database_path, locale="fr")
    fake, bot = world.fake, world.bot
    ana, bo, cy = world.members[:3]
    mod = world.guild.add_member("mod", manage_guild=True)
    r = await fake.slash(bot, mod, world.channel, "belote config", language="en")
    assert "Table language: English (changed)" in r.text, r.text
    english, _ = await open_table(world, ana, variant="classic")
    assert bot.service.live[english].language == "en"
    r = await fake.slash(bot, mod, world.channel, "belote config", language="auto")
    assert "Table language: automatic: the server's preferred language if the bot speaks " \
        "it, else English (changed)" in r.text, r.text
    french, _ = await open_table(world, bo, variant="classic")
    assert bot.service.live[french].language == "fr"
    r = await fake.slash(bot, mod, world.channel, "belote config", language="bg")
    bulgarian, _ = await open_table(world, cy, variant="classic")
    assert bot.service.live[bulgarian].language == "bg"


async def test_images_speak_the_tables_language_and_hands_their_readers(world: World) -> None:
    # The table image is public: drawn in the table's language. A hand is read by its player
    # alone: drawn in their client's language (here an English member at a French table).
    from rendering import Style, render_hand, render_table

    fake, bot = world.fake, world.bot
    ana, bo = speaks(world.members[0], "fr"), speaks(world.members[1], "en-US")
    table_id, lobby = await open_table(world, ana, variant="classic", target=1, language="fr")
    await seat_everyone(world, table_id, lobby, [ana, bo, *world.members[2:]])
    assert (await fake.click(bot, ana, lobby, button_id("start", table_id))).callback_type == 7
    await fake.settle()
    live = bot.service.live[table_id]
    table = fake.message(live.row.message_id)
    view = live.view()
    assert view is not None
    french, english = Style(language="fr"), Style(language="en")
    assert [a.data for a in table.attachments] == [render_table(view, french)[0]]
    assert render_table(view, french)[0] != render_table(view, english)[0]
    for seat, style in ((0, french), (1, english)):
        mine = live.view(seat)
        assert mine is not None and mine.hand
        dm = fake.message(live.seats[seat].dm_message_id)
        assert [a.data for a in dm.attachments] == [render_hand(mine, style)[0]], seat
