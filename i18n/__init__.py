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

__all__ = ["DEFAULT_LANGUAGE", "MissingMessage", "Scoped", "Words", "catalogue", "languages",
           "parameters", "texts", "words"]
