"""The one catalogue of words a user reads: message ids, named parameters, plural forms."""

from .catalogue import (
    DEFAULT_LANGUAGE,
    MissingMessage,
    Scoped,
    Words,
    catalogue,
    languages,
    parameters,
    texts,
    words,
)
from .rules import bid_text, card_text, cards_text, rule_reason, rule_text, trump_text

__all__ = [
    "DEFAULT_LANGUAGE",
    "MissingMessage",
    "Scoped",
    "Words",
    "bid_text",
    "card_text",
    "cards_text",
    "catalogue",
    "languages",
    "parameters",
    "rule_reason",
    "rule_text",
    "texts",
    "trump_text",
    "words",
]
