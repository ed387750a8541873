"""Steps that run to their end even if the task awaiting them is cancelled.

A database write and the memory that follows it belong together: a request cancelled while its
step is being saved (a shutdown, a client gone) must not leave the step applied in memory but
unsaved, nor saved but unknown to memory. The step runs in a task of its own; the caller waits
for it whatever happens, goes on with what follows the write (no await in between), and meets
its cancellation at its next await.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def to_the_end(step: Coroutine[Any, Any, T]) -> T:
    """Await ``step`` to its end and return its result (or raise its error). A cancellation
    of the caller meanwhile is held back until then, and delivered at the caller's next await.
    """
    me = asyncio.current_task()
    assert me is not None
    task = asyncio.ensure_future(step)
    cancelled = False
    while not task.done():
        try:
            await asyncio.wait([task])
        except asyncio.CancelledError:
            cancelled = True
            me.uncancel()  # requested again below: a timeout() around us still counts one
    if cancelled:
        me.cancel()
    return task.result()
