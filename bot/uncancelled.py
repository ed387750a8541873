"""Steps that run to their end even if the task awaiting them is cancelled.

A database write and the memory that follows it belong together: a request cancelled while its
step is being saved (a shutdown, a client gone) must not leave the step applied in memory but
unsaved, nor saved but unknown to memory. The step runs in a task of its own; a cancellation of
the caller waits for it to end, then goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def to_the_end(step: Coroutine[Any, Any, T]) -> T:
    """Await ``step`` to its end; if the caller is cancelled meanwhile, the step still ends
    (its result or error dropped) before the cancellation is raised."""
    task = asyncio.ensure_future(step)
    cancelled: asyncio.CancelledError | None = None
    while not task.done():
        try:
            await asyncio.wait([task])
        except asyncio.CancelledError as e:
            cancelled = e
    if cancelled is not None:
        if not task.cancelled():
            task.exception()  # retrieved: the cancellation is what the caller gets
        raise cancelled
    return task.result()
