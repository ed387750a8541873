"""Why the table service turns a request down, as a message id of the catalogue (``tables.po``).

A Refusal carries no words of its own: its id and named parameters are worded in the reader's
language when it is answered (``text(language)``). ``str()`` gives the English, for logs and
tests.
"""

from __future__ import annotations

from game.errors import IllegalAction
from i18n import DEFAULT_LANGUAGE, RuleSentence, words


class Refusal(Exception):
    """A request the service turns down: ``Refusal("tables.not_playing")``. ``count`` picks the
    plural form of a message that has one (it is also its ``{n}``)."""

    def __init__(self, message_id: str, *, count: int | None = None, **params: object) -> None:
        super().__init__(message_id)
        self.message_id = message_id
        self.count = count
        self.params = params

    def text(self, language: str = DEFAULT_LANGUAGE) -> str:
        """What the user reads, privately, in ``language``."""
        if self.count is not None:
            return words(language).plural(self.message_id, self.count, **self.params)
        return words(language)(self.message_id, **self.params)

    def __str__(self) -> str:
        return self.text()


def said(e: IllegalAction) -> RuleSentence:
    """The rules' reason as a sentence, worded in the reader's language when it is answered."""
    return RuleSentence(e)
