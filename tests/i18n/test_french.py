"""Spot checks of the French catalogue that matter at a French table: the card letters French
players write, a rule error as a French sentence, plural forms, numbers, command names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord

from bot.bot import create_bot
from bot.translator import CatalogueTranslator
from cogs.belote import Belote
from game.cards import Rank, Suit
from game.errors import Cards, IllegalAction
from i18n import card_text, rule_text, texts, words

NBSP = "\u00a0"


def _card(rank: Rank, suit: Suit) -> int:
    return suit * 8 + rank


def test_cards_use_the_french_letters_valet_dame_roi() -> None:
    spades = [card_text(_card(rank, Suit.SPADES), "fr") for rank in Rank]
    assert spades == ["7♠", "8♠", "9♠", "10♠", "V♠", "D♠", "R♠", "A♠"]
    assert [words("fr")(f"cards.face.{r}") for r in ("jack", "queen", "king")] == \
        ["V", "D", "R"]


def test_a_rule_error_reads_as_a_french_sentence() -> None:
    err = IllegalAction("must_raise_trump",
                        cards=Cards((_card(Rank.QUEEN, Suit.SPADES), _card(Rank.ACE, Suit.SPADES))))
    assert rule_text(err, "fr") == f"Vous devez monter à l'atout{NBSP}: jouez D♠ ou A♠."
    follow = IllegalAction("must_follow_suit", suit=Suit.HEARTS)
    assert rule_text(follow, "fr") == f"Vous devez fournir{NBSP}: jouez du cœur."


def test_contre_and_surcontre_name_the_double_in_every_variant() -> None:
    fr = words("fr")
    assert (fr("cards.bid.contre"), fr("cards.bid.surcontre")) == ("contre", "surcontre")
    assert (fr("cards.bid.double"), fr("cards.bid.redouble")) == ("contre", "surcontre")


def test_plural_forms_follow_the_french_rule() -> None:
    fr = words("fr")
    assert fr.plural("admin.tables.title", 1) == "**1 table ouverte**"
    assert fr.plural("admin.tables.title", 2) == "**2 tables ouvertes**"
    # French uses the singular for zero as well (plural=(n > 1)).
    assert fr.plural("admin.show.minutes", 0) == "0 minute"


def test_one_win_reads_gagnee_in_the_singular() -> None:
    """"1 gagnées" was a plural after one: every "won of" line follows the count of wins."""
    from cogs.seasons import podium_places
    from db.seasons import PodiumRow

    fr = words("fr")
    place = PodiumRow(variant="classic", place=1, user_id=7, gain=12.0, matches=3, wins=1)
    assert podium_places([place], fr).endswith("(1 gagnée sur 3)")
    assert fr.plural("image.podium.won", 1, matches="3") == "1 gagnée sur 3"
    assert fr.plural("image.podium.won", 2, matches="3") == "2 gagnées sur 3"
    assert fr.plural("stats.board.line", 1, rank=1, who="Ana", rating="25", games="4") == \
        "1. Ana — 25 (1 gagnée sur 4)"
    assert fr.plural("stats.stats.partner", 1, who="Ana", games="4") == \
        f"Meilleur partenaire{NBSP}: Ana (1 gagnée sur 4)"
    assert fr.plural("stats.stats.partner", 0, who="Ana", games="4").endswith("(0 gagnée sur 4)")
    assert fr.plural("stats.stats.partner", 5, who="Ana", games="6").endswith("(5 gagnées sur 6)")


def test_numbers_are_grouped_with_a_narrow_no_break_space() -> None:
    assert words("fr").number(12345) == "12\u202f345"


def test_french_punctuation_is_not_left_alone_at_the_start_of_a_line() -> None:
    """A double punctuation mark takes a space before it, a no-break one so Discord never
    wraps the line just before the mark."""
    bad = [key for key, text in texts("fr").items()
           for form in ((text,) if isinstance(text, str) else text)
           if " :" in form or " ;" in form or " !" in form or " ?" in form]
    assert bad == []
    assert f"{NBSP}:" in words("fr")("admin.config.line", setting="a", value="b", mark="")


def _names(item: dict[str, Any]) -> Iterator[list[str]]:
    """The French names of the options (or subcommands) of each command, group by group."""
    options = item.get("options", [])
    if options:
        yield [o.get("name_localizations", {}).get("fr", o["name"]) for o in options]
    for option in options:
        yield from _names(option)


async def test_french_command_names_are_localized_and_unique_within_a_command() -> None:
    bot = create_bot(":memory:")
    try:
        await bot.tree.set_translator(CatalogueTranslator())
        await bot.add_cog(Belote(bot))
        translator = bot.tree.translator
        assert translator is not None
        (group,) = [await c.get_translated_payload(bot.tree, translator)
                    for c in bot.tree.get_commands()]
    finally:
        await bot.close()
    subcommands = {o["name"]: o for o in group["options"]}
    assert subcommands["new"]["name_localizations"][discord.Locale.french.value] == "nouvelle"
    assert subcommands["leave"]["name_localizations"][discord.Locale.french.value] == "quitter"
    for names in _names(group):
        assert len(names) == len(set(names)), names
