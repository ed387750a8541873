"""to_the_end: a step outlives the cancellation of the task awaiting it."""

from __future__ import annotations

import asyncio

import pytest

from service.uncancelled import to_the_end


async def test_a_cancelled_caller_gets_the_result_then_the_cancellation() -> None:
    gate = asyncio.Event()
    seen: list[str] = []

    async def step() -> str:
        await gate.wait()
        return "saved"

    async def caller() -> None:
        seen.append(await to_the_end(step()))  # runs on after the cancellation ...
        seen.append("bookkeeping")
        await asyncio.sleep(0)  # ... which arrives here
        seen.append("never")

    task = asyncio.create_task(caller())
    await asyncio.sleep(0)
    task.cancel()
    for _ in range(3):
        await asyncio.sleep(0)
    assert not task.done()  # waits for the step
    gate.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert seen == ["saved", "bookkeeping"]


async def test_a_timeout_around_it_still_times_out() -> None:
    gate = asyncio.Event()

    async def step() -> None:
        await gate.wait()

    async def caller() -> None:
        async with asyncio.timeout(0):
            await to_the_end(step())
            await asyncio.sleep(0)

    task = asyncio.create_task(caller())
    for _ in range(3):
        await asyncio.sleep(0)
    gate.set()
    with pytest.raises(TimeoutError):
        await task
