"""service/markup.py: a name is shown by Discord as typed, whatever markup it holds (issue 48).

Discord's markdown has one escape: a backslash before a character that is not a letter, a
digit or a space shows that character alone. ``shown`` below is that rule; ``live_markup``
finds what Discord would still read as markup or a mention in a text."""

from __future__ import annotations

import re

import pytest

from service.markup import MARKUP, as_text, names_as_text

_ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")


def shown(content: str) -> str:
    """What Discord shows for ``content`` with no markup left in it: each escape undone."""
    return _ESCAPE.sub(r"\1", content)


def live_markup(content: str) -> list[str]:
    """The markup characters of ``content`` that no backslash escapes."""
    out, i = [], 0
    while i < len(content):
        if content[i] == "\\" and i + 1 < len(content) and _ESCAPE.match(content, i):
            i += 2
            continue
        if content[i] in MARKUP:
            out.append(content[i])
        i += 1
    return out


# Each form of markup a name can hold, and exactly what the bot writes for it.
FORMS = [
    ("**x**", r"\*\*x\*\*"),
    ("*x*", r"\*x\*"),
    ("__x__", r"\_\_x\_\_"),
    ("~~x~~", r"\~\~x\~\~"),
    ("`x`", r"\`x\`"),
    ("```x```", r"\`\`\`x\`\`\`"),
    ("||x||", r"\|\|x\|\|"),
    ("> x", r"\> x"),
    (">>> x", r"\>\>\> x"),
    ("# x", r"\# x"),
    ("-# x", r"\-\# x"),
    ("- x", r"\- x"),
    ("+ x", r"\+ x"),
    ("1. x", r"1\. x"),
    ("[link](http://evil)", r"\[link](http\://evil)"),
    ("https://evil.example", r"https\://evil\.example"),
    ("discord.gg/evil", r"discord\.gg/evil"),
    ("@everyone", r"\@everyone"),
    ("@here", r"\@here"),
    ("<@123>", r"\<\@123\>"),
    ("<@!123>", r"\<\@!123\>"),
    ("<@&456>", r"\<\@&456\>"),
    ("<#789>", r"\<\#789\>"),
    ("<:emoji:1>", r"\<\:emoji\:1\>"),
    ("<a:dance:2>", r"\<a\:dance\:2\>"),
    ("<t:0>", r"\<t\:0\>"),
    ("<t:0:R>", r"\<t\:0\:R\>"),
    ("</belote new:3>", r"\</belote new\:3\>"),
    (":smile:", r"\:smile\:"),
    ("back\\slash", r"back\\slash"),
    ("\\*x\\*", r"\\\*x\\\*"),
]


@pytest.mark.parametrize(("name", "written"), FORMS)
def test_each_form_of_markup_is_written_escaped_and_shown_as_typed(name: str,
                                                                   written: str) -> None:
    assert as_text(name) == written
    assert shown(as_text(name)) == name
    assert live_markup(as_text(name)) == []
    # Unescaped, Discord would not show the name as typed: the test would see it.
    assert live_markup(name) or shown(name) != name


def test_a_hostile_name_in_a_bold_sentence_stays_one_bold_name() -> None:
    name = "**@everyone** <@1> [x](http://a)"
    sentence = f"▶ **{as_text(name)}** to play"
    assert sentence == r"▶ **\*\*\@everyone\*\* \<\@1\> \[x](http\://a)** to play"
    assert shown(sentence) == f"▶ **{name}** to play"
    # What is left of markup is the sentence's own bold, nothing of the name.
    assert live_markup(sentence) == ["*", "*", "*", "*"]


def test_plain_names_and_other_scripts_are_unchanged() -> None:
    for name in ("ana", "Jean Luc", "Иван", "Zoë (away)", "⚙ Remy", "bo's", "O'Brien 2"):
        assert as_text(name) == name


def test_a_line_break_cannot_start_a_line_of_markup() -> None:
    assert as_text("x\n# big\r\n> q") == r"x \# big  \> q"


def test_names_as_text_escapes_each_seat() -> None:
    assert names_as_text(("ana", "**b**", "⚙ Remy", "<@1>")) == [
        "ana", r"\*\*b\*\*", "⚙ Remy", r"\<\@1\>"]
