"""Every word a user reads, by language, from gettext catalogues (``locales/<lang>/LC_MESSAGES``).

Messages are keyed by a message id (``table.closed``, ``rule.must_follow``), never by their English
text, so a change of English wording does not orphan the translations. Each area of the bot keeps
its own ``.po`` file (``images.po``, ``rules.po``...); a language is the union of its files. The
``.po`` files are read with Babel and compiled in memory to the standard library's gettext
runtime, so there is no build step and ``pybabel`` works on them as on any project.

Parameters are named and written ``{name}`` (``python-brace-format``). A message with plural forms
is asked for with :meth:`Words.plural`; the forms follow each language's gettext plural rule.

A slash command named in a message is written ``{/belote new}``: the catalogue fills it with the
command's name as a client in that language shows it (``/belote nouvelle``), from the same ids
the command was named with (``commands.group.name``, ``commands.new.name``). It is no parameter
of the caller's. A command with one of its options is written ``{/belote tables|end}``
(``/belote tables terminer`` in French).
"""

from __future__ import annotations

import gettext
import io
import string
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

DEFAULT_LANGUAGE: Final = "en"


class MissingMessage(KeyError):
    """A message id that the English catalogue does not have: a bug in the caller."""


def _locales_dir() -> Path:
    return Path(str(resources.files(__package__) / "locales"))


@cache
def languages() -> tuple[str, ...]:
    """The languages with a catalogue, English first. Read once: the catalogues ship with the
    code, and a slash-command sync asks for them thousands of times (once per text and locale).
    """
    found = sorted(p.name for p in _locales_dir().iterdir() if (p / "LC_MESSAGES").is_dir())
    return (DEFAULT_LANGUAGE, *(name for name in found if name != DEFAULT_LANGUAGE))


@cache
def catalogue(language: str) -> Catalog:
    """Every message of one language, all of its ``.po`` files merged (ids must not repeat)."""
    merged = Catalog(locale=language, domain="belote")
    for po_file in sorted((_locales_dir() / language / "LC_MESSAGES").glob("*.po")):
        with po_file.open("rb") as handle:
            part = read_po(handle, locale=language)
        if part.num_plurals != merged.num_plurals or part.plural_expr != merged.plural_expr:
            # The plural rule the translations were written for is the one their header
            # declares, not the one Babel's locale data has now (French gained a third form,
            # for millions, in Babel 2.19: our two forms would be looked up as three).
            merged.mime_headers = [(k, v) for k, v in part.mime_headers if k == "Plural-Forms"]
        for message in part:
            if not message.id:
                continue  # the header
            if merged.get(_key(message.id)) is not None:
                raise ValueError(f"{po_file.name}: message id {message.id!r} is defined twice")
            merged[message.id] = message
    return merged


def _key(message_id: str | Sequence[str]) -> str:
    """A plural message's id is the pair (singular, plural); it is known by its singular."""
    return message_id if isinstance(message_id, str) else message_id[0]


@cache
def message_ids(language: str) -> frozenset[str]:
    """Every message id of a language (a catalogue lookup's quick test)."""
    return frozenset(_key(m.id) for m in catalogue(language) if m.id)


def _fields(text: str) -> frozenset[str]:
    return frozenset(field for _, field, _, _ in string.Formatter().parse(text) if field)


def parameters(text: str) -> frozenset[str]:
    """The named parameters a message text uses: ``"Deal {n}"`` -> ``{"n"}`` (a command's
    name, ``{/belote new}``, is filled by the catalogue, not by the caller)."""
    return frozenset(f for f in _fields(text) if not f.startswith("/"))


@cache
def _translations(language: str) -> gettext.GNUTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(language))
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class Term(ABC):
    """A game value given to a message as a parameter (a seat, a team, a level...), worded in
    the language of the message it fills: ``words("fr")("tables.seat_taken", seat=Seat(2))``
    reads "Nord". Code passes values, never words, so a refusal is worded for its reader."""

    __slots__ = ()

    @abstractmethod
    def text(self, w: Words) -> str: ...


class Words:
    """The messages of one language: ``words("fr")("table.closed", id=4)``.

    A message missing from a translation falls back to English; a message missing from English
    raises :class:`MissingMessage` (a typo in the caller must not reach a player as an id).
    """

    __slots__ = ("_english", "_ids", "_own", "language")

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language if language in languages() else DEFAULT_LANGUAGE
        self._own = _translations(self.language)
        self._english = _translations(DEFAULT_LANGUAGE)
        self._ids = message_ids(self.language)

    def _lookup(self, message_id: str, count: int | None) -> str:
        source = self._own if message_id in self._ids else self._english
        if source is self._english and message_id not in message_ids(DEFAULT_LANGUAGE):
            raise MissingMessage(message_id)
        if count is None:
            return source.gettext(message_id)
        return source.ngettext(message_id, message_id, count)

    def __call__(self, message_id: str, **params: object) -> str:
        text = self._lookup(message_id, None)
        return text.format(**self._worded(text, params)) if params or "{/" in text else text

    def plural(self, message_id: str, count: int, **params: object) -> str:
        """A message whose form depends on ``count`` (passed to it as ``{n}``)."""
        text = self._lookup(message_id, count)
        return text.format(n=self.number(count), **self._worded(text, params))

    def _worded(self, text: str, params: Mapping[str, object]) -> dict[str, object]:
        """The parameters with each :class:`Term` worded in this language, and the commands
        the text names (``{/belote new}``) as this language's clients show them."""
        out = {k: v.text(self) if isinstance(v, Term) else v for k, v in params.items()}
        if "{/" in text:
            out |= {f: self.command(f) for f in _fields(text) if f.startswith("/")}
        return out

    def command(self, path: str) -> str:
        """``/belote new`` as this language's clients show it: ``/belote nouvelle``; and
        ``/belote tables|end``, a command with one of its options: ``/belote tables terminer``
        (the option's name is ``commands.<subcommand>.<option>.name``)."""
        path, _, option = path.partition("|")
        group, *subcommands = path.lstrip("/").split()
        names = [self("commands.group.name") if group == "belote" else group]
        names += [self(f"commands.{name}.name") for name in subcommands]
        if option:
            names.append(self(f"commands.{subcommands[-1]}.{option}.name"))
        return "/" + " ".join(names)

    def number(self, value: float) -> str:
        """``12345`` -> ``12,345`` in English, ``12 345`` in French."""
        return _number(value, self.language)

    def scope(self, prefix: str) -> Scoped:
        """The messages under ``prefix.``: ``words.scope("image")("deal", n=2)``."""
        return Scoped(self, prefix)


class Scoped:
    """A :class:`Words` that prefixes every id, for an area that asks for many messages."""

    __slots__ = ("_prefix", "_words", "language")

    def __init__(self, words: Words, prefix: str) -> None:
        self._words, self._prefix, self.language = words, prefix, words.language

    def __call__(self, key: str, **params: object) -> str:
        return self._words(f"{self._prefix}.{key}", **params)

    def plural(self, key: str, count: int, **params: object) -> str:
        return self._words.plural(f"{self._prefix}.{key}", count, **params)


@lru_cache(maxsize=4096, typed=True)  # typed: 2 and 2.0 are not cached as one
def _number(value: float, language: str) -> str:
    """Babel's formatting, remembered: every image writes the same scores again."""
    return format_decimal(value, locale=language)


@cache
def words(language: str = DEFAULT_LANGUAGE) -> Words:
    """The (shared, immutable) messages of ``language``; an unknown language gives English."""
    return Words(language)


def texts(language: str) -> Mapping[str, str | tuple[str, ...]]:
    """Every message id of a language with its text(s), for checks and tooling."""
    result: dict[str, str | tuple[str, ...]] = {}
    for message in catalogue(language):
        if message.id:
            value = message.string
            result[_key(message.id)] = value if isinstance(value, str) else tuple(value or ())
    return result


def iter_po_files(language: str) -> Iterator[Path]:
    yield from sorted((_locales_dir() / language / "LC_MESSAGES").glob("*.po"))
