"""The catalogue itself: every language has every English message, with the same parameters."""

from __future__ import annotations

import pytest

from i18n import MissingMessage, languages, parameters, texts, words
from i18n.catalogue import iter_po_files


def _forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return (text,) if isinstance(text, str) else text


def test_english_is_complete_and_non_empty() -> None:
    english = texts("en")
    assert english, "the English catalogue is empty"
    empty = [key for key, text in english.items() if not all(_forms(text))]
    assert empty == []


@pytest.mark.parametrize("language", languages())
def test_every_language_has_every_message_with_the_same_parameters(language: str) -> None:
    english, other = texts("en"), texts(language)
    assert sorted(set(english) - set(other)) == [], "missing messages"
    assert sorted(set(other) - set(english)) == [], "messages English does not have"
    for key, text in english.items():
        wanted = parameters(_forms(text)[-1])
        for form in _forms(other[key]):
            # A singular form may leave the count out ("une carte"), never add a parameter.
            assert parameters(form) <= wanted, (language, key, form)
        assert parameters(_forms(other[key])[-1]) == wanted, (language, key)


@pytest.mark.parametrize("language", languages())
def test_every_po_file_declares_its_language_and_plural_rule(language: str) -> None:
    for po_file in iter_po_files(language):
        head = po_file.read_text(encoding="utf-8")
        assert f'"Language: {language}\\n"' in head, po_file.name
        assert '"Plural-Forms: nplurals=' in head, po_file.name


def test_unknown_language_falls_back_to_english_and_unknown_id_raises() -> None:
    assert words("xx").language == "en"
    assert words("xx")("image.deal", n=4) == "Deal 4"
    with pytest.raises(MissingMessage):
        words("en")("image.no_such_message")


def test_numbers_follow_the_language() -> None:
    assert words("en").number(12345) == "12,345"
