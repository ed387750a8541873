"""Game values worded in the reader's language: seats, teams, levels, contracts,
announcements, the rules' refusals. The game keeps codes; the records keep their notation."""

from __future__ import annotations

import pytest

from game.actions import CAPOT
from game.announcements import carre, sequence
from game.cards import Rank, Suit
from game.contract import Contract
from game.errors import Cards, IllegalAction
from game.rules import Trump
from i18n import (
    Level,
    Message,
    Permissions,
    RuleSentence,
    Seat,
    Seats,
    Team,
    announcement_text,
    contract_text,
    words,
)
from service import Refusal


def test_seats_teams_and_levels_are_worded_in_each_language() -> None:
    said = {lang: words(lang)("table.seat", seat=Seat(2), who=Team(1)) for lang in
            ("en", "fr", "bg")}
    assert said == {"en": "North: East–West", "fr": "Nord\u00a0: Est–Ouest",
                    "bg": "Север: Изток–Запад"}
    assert Seats([2, 3]).text(words("fr")) == "Nord, Ouest"
    assert Level("hard").text(words("bg")) == "трудно"
    assert Permissions(["send_messages_in_threads"]).text(words("fr")) == \
        "Envoyer des messages dans les fils"


def test_a_refusal_names_the_seat_in_its_readers_language() -> None:
    refusal = Refusal("tables.seat_taken", seat=Seat(3))
    assert refusal.text("en") == "West is already taken."
    assert "Ouest" in refusal.text("fr") and "Запад" in refusal.text("bg")
    assert refusal.params == {"seat": Seat(3)}  # the number, not a word


def test_a_rule_error_is_worded_when_it_is_answered() -> None:
    error = IllegalAction("must_follow", cards=Cards((Suit.HEARTS * 8 + Rank.QUEEN,)))
    refusal = Refusal("tables.rule", reason=RuleSentence(error))
    english, french = refusal.text("en"), refusal.text("fr")
    assert english.startswith("You must") and "QH" in english
    assert "D♥" in french and "You" not in french


def test_contracts_are_worded_and_keep_their_record_notation() -> None:
    doubled = Contract(0, Trump.HEARTS, 80, 2)
    assert doubled.describe() == "80 hearts doubled"  # stored in match records: unchanged
    assert contract_text(doubled, "en") == "80 hearts doubled"
    assert contract_text(doubled, "fr") == "80 cœur contré"
    assert contract_text(Contract(1, Trump.SPADES, CAPOT, 4), "fr") == "capot pique surcontré"
    assert contract_text(Contract(1, Trump.NO_TRUMPS), "bg") == words("bg")(
        "cards.trump.no_trumps")
    assert Contract(1, Trump.ALL_TRUMPS).describe() == "all trumps"


def test_announcements_use_each_traditions_names() -> None:
    assert announcement_text(carre(0, Rank.JACK), "fr") == "carré de valets"
    assert announcement_text(sequence(0, 1, 0, 4), "fr") == "cinquante"
    assert announcement_text(sequence(0, 1, 0, 3), "bg") == "терца"
    assert announcement_text(carre(0, Rank.NINE), "en") == carre(0, Rank.NINE).name()


def test_a_kept_message_is_worded_per_reader() -> None:
    lost = Message.of("belote.lost.channel_deleted", table=4)
    assert str(lost) == "The channel of table #4 was deleted"
    assert words("fr")("hand.lost", lost=lost) != words("en")("hand.lost", lost=lost)


def test_a_message_names_a_command_as_the_readers_client_shows_it() -> None:
    assert "`/belote nouvelle`" in words("fr")("tables.closed", table=3)
    assert "`/belote new`" in words("en")("tables.closed", table=3)
    assert words("bg").command("/belote show") == "/" + words("bg")("commands.group.name") + \
        " " + words("bg")("commands.show.name")


def test_a_message_names_an_option_as_the_readers_client_shows_it() -> None:
    assert words("fr")("admin.tables.hint") == \
        "Pour en terminer une\u00a0: `/belote tables terminer:<numéro>`."
    assert words("en")("admin.tables.hint") == "To end one: `/belote tables end:<number>`."
    assert "`/белот маси прекрати:<номер>`" in words("bg")("admin.tables.hint")


def test_an_invalid_option_is_named_as_the_readers_client_shows_it() -> None:
    from game.errors import InvalidOptions
    from i18n.rules import options_reason

    flag = InvalidOptions("not_a_flag", option="must_undertrump")
    assert options_reason(flag, "fr") == "sous-couper doit être vrai ou faux"
    assert options_reason(flag, "en") == "must_undertrump must be true or false"


def test_invalid_options_are_worded_in_the_readers_language() -> None:
    # The rules core says why options do not work as a code and parameters; the refusal a
    # French host reads is French, with the variant's French name.
    from game.errors import InvalidOptions
    from game.rules import Options, Variant
    from i18n import OptionsReason

    with pytest.raises(InvalidOptions) as caught:
        Options.for_variant(Variant.BULGARIAN, {"must_undertrump": True})
    error = caught.value
    assert (error.code, dict(error.params)) == (
        "unknown", {"variant": "bulgarian", "option": "must_undertrump"})
    french = words("fr")("tables.bad_options", reason=OptionsReason(error))
    assert french.startswith("Ces options ne conviennent pas") and "n’a pas d’option" in french
    assert words("fr")("commands.choice.variant.bulgarian") in french
    with pytest.raises(InvalidOptions) as caught:
        Options.for_variant(Variant.CLASSIC, {"target": 10**9})
    assert str(caught.value) == "the target must be at most 100000"  # logs: English


def test_scores_and_ratings_are_written_as_each_language_writes_numbers() -> None:
    from i18n import Number

    assert words("en")("stats.stats.rating", rating=Number(1091.4)).count("1,091") == 1
    assert "1\u202f091" in words("fr")("stats.stats.rating", rating=Number(1091.4))
    assert "1\u00a0091" in words("bg")("stats.stats.rating", rating=Number(1091.4))
    assert Number(12, signed=True).text(words("en")) == "+12"
    assert Number(-1200, signed=True).text(words("fr")) == "-1\u202f200"


def test_the_rules_card_says_how_many_missed_turns_hand_a_seat_to_a_computer() -> None:
    en, fr = words("en"), words("fr")
    assert "after 3 such turns in a row" in en.plural("rules_card.timer", 3, timer="30 s")
    assert "after 1 such turn in a row" in en.plural("rules_card.timer", 1, timer="30 s")
    assert "après 3 tours manqués d'affilée" in fr.plural("rules_card.timer", 3, timer="30 s")
