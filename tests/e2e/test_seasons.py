"""Seasons through the fake Discord, on an injected clock: the season board against matches in
and out of the season, the minimum of rated matches, the podium posted once at the season's
end (even across a restart), the champions' role moved, the role the bot may not manage, the
past seasons listed, a rebuild that keeps the podium."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

import service.seasons
from bot import create_bot
from db.rebuild import rebuild_ratings
from db.results import MatchPlayer
from i18n import words
from tests.clocks import DateClock
from tests.fakediscord import FakeDiscord

from .table_helpers import World, make_world

OCTOBER = datetime(2026, 10, 20, 12, tzinfo=UTC)
NOVEMBER = datetime(2026, 11, 10, 12, tzinfo=UTC)
DECEMBER = datetime(2026, 12, 1, 0, 5, tzinfo=UTC)
_tables = itertools.count(10_000)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> DateClock:
    """The seasons' time, set before the bot starts (its first check runs when it is ready)."""
    c = DateClock(NOVEMBER)
    monkeypatch.setattr(service.seasons, "utc_now", c)
    return c


@pytest.fixture
async def world(fake_discord: FakeDiscord, database_path: Path, clock: DateClock) -> World:
    return await make_world(fake_discord, database_path,
                            names=("ana", "bo", "cy", "dee", "eve", "fay"))


async def record(w: World, when: datetime, winners: tuple[Any, Any], losers: tuple[Any, Any],
                 variant: str = "classic") -> None:
    """A rated match of four people, finished at ``when``: ``winners`` sat 0 and 2."""
    results = w.bot.db.results
    results.clock = lambda: when
    seats = (winners[0], losers[0], winners[1], losers[1])
    await results.record_match(table_id=next(_tables), guild_id=w.guild.id, variant=variant,
                               winner=0, totals=(1001, 500), deals=8,
                               players=[MatchPlayer(i, m.id, None) for i, m in
                                        enumerate(seats)])


def board_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1].isdigit()]


def posts(w: World, channel: Any) -> list[Any]:
    title = words("en")("seasons.post.title", number=1, start="", end="").split("(")[0]
    return [m for m in w.fake.messages(channel) if m.content.startswith(title.strip()[:12])]


async def configure(w: World, **options: Any) -> Any:
    mod = w.guild.add_member("mod", manage_guild=True)
    r = await w.fake.slash(w.bot, mod, w.channel, "belote config", **options)
    assert "(changed)" in r.text, r.text
    return mod


async def test_the_season_board_counts_the_season_and_its_end_is_posted_once(
        world: World, database_path: Path, clock: DateClock) -> None:
    w = world
    ana, bo, cy, dee, eve, fay = w.members
    news = w.guild.add_text_channel("news")
    w.guild.set_bot_role(discord.Permissions(manage_roles=True), position=5)
    champ = w.guild.add_role("Champion", discord.Permissions.none(), position=2)
    await w.fake.settle()
    await configure(w, announce_channel=news, season_role=champ)
    # Out of the season: eve and fay's three October wins; in it: ana and cy beat bo and dee
    # three times, eve plays once (not enough to be ranked).
    for _ in range(3):
        await record(w, OCTOBER, (eve, fay), (bo, dee))
    for _ in range(3):
        await record(w, NOVEMBER, (ana, cy), (bo, dee))
    await record(w, NOVEMBER, (eve, ana), (fay, bo))
    r = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard", season="current")
    assert not r.ephemeral
    lines = board_lines(r.text)
    assert r.text.startswith("**Classic Belote leaderboard: season 1**"), r.text
    # ana won her four November matches, cy three; bo and dee lost theirs.
    assert [line.split()[1] for line in lines] == [
        f"<@{ana.id}>", f"<@{cy.id}>", f"<@{dee.id}>", f"<@{bo.id}>"], r.text
    assert lines[0].startswith(f"1. <@{ana.id}> — +") and "(4 won of 4)" in lines[0]
    assert not any(f"<@{eve.id}>" in line or f"<@{fay.id}>" in line for line in lines)
    assert "Ranked from 3 rated matches in the season" in r.text
    assert f"<@{eve.id}>: not on this board yet." in r.text, r.text
    whole = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard")
    assert any(f"<@{eve.id}>" in line for line in board_lines(whole.text))
    pairs = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard", season="current",
                               pairs=True)
    assert len(board_lines(pairs.text)) == 2, pairs.text  # ana & cy, bo & dee
    # A season that does not exist, or a word that is not one: said so, nothing posted.
    r = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard", season="last")
    assert r.ephemeral and "There is no season last here" in r.text, r.text
    r = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard", season="7")
    assert r.ephemeral and "There is no season 7 here" in r.text, r.text
    assert posts(w, news) == []

    # The season ends while the bot is stopped: the restart posts it, once, late.
    await w.fake.disconnect(w.bot)
    clock.now = DECEMBER
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()
    cog: Any = w.bot.get_cog("Seasons")
    await cog.tick()
    await w.fake.settle()
    sent = posts(w, news)
    assert len(sent) == 1, [m.content for m in w.fake.messages(news)]
    post = sent[0]
    assert post.content.startswith("**Season 1 is over**"), post.content
    champion = ana
    assert f"\N{FIRST PLACE MEDAL} <@{champion.id}> +" in post.content, post.content
    assert f"<@{eve.id}>" not in post.content  # one November match: not on the podium
    assert "The champions wear" in post.content and "Season 2 has begun" in post.content
    assert post.attachments and post.attachments[0].filename.startswith("podium")
    # The pairs' podium too: ana and cy's three wins together, then bo and dee.
    pairs_line = next(line for line in post.content.splitlines()
                      if line.startswith("**Classic Belote, pairs**"))
    assert pairs_line.startswith(f"**Classic Belote, pairs**: \N{FIRST PLACE MEDAL}"
                                 f" <@{ana.id}> & <@{cy.id}> +"), pairs_line
    assert f"\N{SECOND PLACE MEDAL} <@{bo.id}> & <@{dee.id}> -" in pairs_line, pairs_line
    assert "(3 won of 3)" in pairs_line and "(0 won of 3)" in pairs_line
    assert f"<@{eve.id}>" not in pairs_line  # one match with her partner: not ranked
    (pair_podium,) = (await w.bot.seasons.repo.pair_podiums(w.guild.id, [1])).values()
    assert [(p.place, p.user_id, p.partner_id) for p in pair_podium] == [
        (1, ana.id, cy.id), (2, bo.id, dee.id)]
    assert champ in w.guild.members[champion.id].roles
    # Another restart, another check: nothing posted again.
    await w.fake.disconnect(w.bot)
    w.bot = await w.fake.start_bot(create_bot, database_path, computer_delay=0)
    await w.fake.settle()
    await w.bot.get_cog("Seasons").tick()
    await w.fake.settle()
    assert len(posts(w, news)) == 1
    # The last season's board, by its word and by its number, in French too.
    r = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard", season="last")
    assert r.text.startswith("**Classic Belote leaderboard: season 1**"), r.text
    r = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard", season="dernière")
    assert r.text.startswith("**Classic Belote leaderboard: season 1**"), r.text
    r = await w.fake.slash(w.bot, eve, w.channel, "belote leaderboard", season="2")
    assert "nobody has played the 3 rated matches" in r.text, r.text
    listed = await w.fake.slash(w.bot, eve, w.channel, "belote seasons")
    assert "Season 2 is running (a month)" in listed.text, listed.text
    assert "Season 1 (<t:1793491200:D> – <t:1796083199:D>)" in listed.text, listed.text
    assert f"Classic Belote: <@{champion.id}> +258" in listed.text, listed.text
    assert f"Classic Belote, pairs: <@{ana.id}> & <@{cy.id}> +" in listed.text, listed.text

    # Season 2: bo and dee win it; at its end the role moves from the old champion.
    clock.now = datetime(2026, 12, 15, tzinfo=UTC)
    for _ in range(3):
        await record(w, clock.now, (bo, dee), (eve, fay))
    before = await w.bot.seasons.repo.podiums(w.guild.id, [1])
    pairs_before = await w.bot.seasons.repo.pair_podiums(w.guild.id, [1])
    await rebuild_ratings(w.bot.db)  # the rebuild computes the podiums again: the same
    assert await w.bot.seasons.repo.podiums(w.guild.id, [1]) == before
    assert await w.bot.seasons.repo.pair_podiums(w.guild.id, [1]) == pairs_before
    clock.now = datetime(2027, 1, 1, 0, 1, tzinfo=UTC)
    await w.bot.get_cog("Seasons").tick()
    await w.fake.settle()
    second = [m for m in w.fake.messages(news) if m.content.startswith("**Season 2 is over**")]
    assert len(second) == 1, second
    players_line = next(line for line in second[0].content.splitlines()
                        if line.startswith("**Classic Belote**:"))
    new_champion = next(m for m in (bo, dee)
                        if f"\N{FIRST PLACE MEDAL} <@{m.id}>" in players_line)
    assert champ in w.guild.members[new_champion.id].roles
    assert champ not in w.guild.members[champion.id].roles


async def test_a_role_the_bot_may_not_manage_is_not_given_and_the_post_says_why(
        world: World, clock: DateClock) -> None:
    w = world
    ana, bo, cy, dee = w.members[:4]
    news = w.guild.add_text_channel("news")
    # The bot may manage roles, but this one stands above its own.
    w.guild.set_bot_role(discord.Permissions(manage_roles=True), position=2)
    high = w.guild.add_role("Legend", discord.Permissions.none(), position=4)
    await w.fake.settle()
    await configure(w, announce_channel=news, season_role=high, season_length="week")
    await w.bot.get_cog("Seasons").tick()  # season 1 ran already: the month stays its length
    for _ in range(3):
        await record(w, NOVEMBER, (ana, cy), (bo, dee))
    clock.now = DECEMBER
    await w.bot.get_cog("Seasons").tick()
    await w.fake.settle()
    sent = posts(w, news)
    assert len(sent) == 1
    assert (f"The role <@&{high.id}> could not be given: it stands above the bot's highest"
            in sent[0].content), sent[0].content
    assert all(high not in m.roles for m in w.guild.members.values())
    running = await w.bot.seasons.repo.running(w.guild.id)
    assert running is not None and running.length == "week" and running.period == "2026-W49"
