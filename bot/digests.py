"""A digest of what a message shows, stable across processes: stored after Discord confirmed a
send, compared at the next start (a message whose digest matches needs no edit).

Not ``hash()``: a str's hash changes with each process. The digest is SHA-256 of a canonical
text of the key, where sets are sorted (their iteration order follows those hashes too)."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
from collections.abc import Hashable
from typing import Any

# Types whose text is their repr, checked by exact type first: a restart digests every message
# of every open table, and most of a key is these (an enum, an int subclass, is not one of them).
_PLAIN: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def canonical(value: Any) -> str:
    """A text of ``value`` that is the same in every process for equal values."""
    kind = type(value)
    if kind in _PLAIN:
        return repr(value)
    if kind is tuple:
        return "(" + ",".join([canonical(v) for v in value]) + ")"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, set | frozenset):
        return "{" + ",".join(sorted(canonical(v) for v in value)) + "}"
    if isinstance(value, tuple | list):
        return "(" + ",".join(canonical(v) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{canonical(k)}:{canonical(v)}"
                                     for k, v in value.items())) + "}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ",".join(f"{f.name}={canonical(getattr(value, f.name))}"
                          for f in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    return repr(value)


def digest(key: Hashable, message_id: int | None) -> str:
    """What a message (``message_id``: which one) shows, in 32 hex digits."""
    text = canonical((key, message_id))
    return hashlib.sha256(text.encode()).hexdigest()[:32]
