"""A render worker process: jobs in, images out, over one pipe.

The bot renders in worker processes (bot/images.py): Pillow holds the GIL for most of its
drawing and quantizing, so render threads in the bot's own process slow down its event loop.
A worker imports this module only (not discord, not the bot), so it starts light, and builds
the shared palette and the sprites it pulls in once, before its first image.

Each message on a pipe is a pickle: ``(job, pickled (function, args))`` in (a call that does
not unpickle here is answered with its error), ``(job, ok, result or exception)`` out, and
first ``(READY, True, None)`` once the worker is ready (the bot's watchdog does not time a
worker's start as if it were a job). The bot reads answers from its event loop (no threads on
its side).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

from .palette import palette

READY = -1  # the job number of the message that says the worker has started


def start(niceness: int = 0, warm: bool = True) -> None:
    """The worker's initializer: Ctrl-C is the bot's to handle (it shuts the pool down), the
    palette is ready before the first image, and ``niceness`` lowers the priority of workers
    whose images nobody waits on, so that on a busy machine the event loop and the images
    that answer a click get the processor first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)
    batch()
    if warm:  # a worker that draws nothing (the analysis of matches) skips it
        palette()


def batch() -> None:
    """Run as a batch process (Linux's SCHED_BATCH): the same share of the processor, but a
    job written to the pipe no longer preempts the bot at once. Without it, on a machine with
    every core busy, the bot's write of a job woke this process and the kernel often gave it
    the bot's core there and then: the event loop stood still in that write for the length
    of a drawing (py-spy: 12% of the loop's busy time in those writes at 50 tables, 2%
    after). A batch process never preempts on waking up; it runs when a core is free or at
    its next turn. Elsewhere, or where the system refuses, nothing changes."""
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_BATCH"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def serve(inbox: Connection, outbox: Connection, niceness: int = 0, warm: bool = True) -> None:
    """The worker's life: answer jobs until the bot closes its end of the pipe."""
    start(niceness, warm)
    try:
        outbox.send_bytes(pickle.dumps((READY, True, None), pickle.HIGHEST_PROTOCOL))
    except OSError:
        return
    while True:
        try:
            job, call = pickle.loads(inbox.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            fn, args = pickle.loads(call)
            answer: tuple[int, bool, Any] = (job, True, fn(*args))
        except Exception as e:  # the bot raises it where the job was asked for
            answer = (job, False, e)
        try:
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # an answer that does not pickle: say so instead
            data = pickle.dumps((job, False, RuntimeError(f"unpicklable answer: {e!r}")))
        try:
            outbox.send_bytes(data)
        except OSError:
            return


def main(argv: list[str] | None = None) -> None:
    """``python -m rendering.worker JOBS_FD ANSWERS_FD [NICENESS [WARM]]``: the pipes' ends the bot
    passed down. A plain interpreter (not multiprocessing's, which imports the parent's main
    module, the whole bot, in every worker) keeps a worker at about half the memory."""
    args = sys.argv[1:] if argv is None else argv
    serve(Connection(int(args[0]), writable=False), Connection(int(args[1]), readable=False),
          int(args[2]) if len(args) > 2 else 0, args[3] != "0" if len(args) > 3 else True)


if __name__ == "__main__":
    main()
