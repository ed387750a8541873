"""What a render worker process does when it starts.

The bot renders in worker processes (bot/images.py): Pillow holds the GIL for most of its
drawing and quantizing, so render threads in the bot's own process slow down its event loop.
A worker imports this module only (not discord, not the bot), so it starts light, and builds
the shared palette and the sprites it pulls in once, before its first image.
"""

from __future__ import annotations

import os
import signal

from .palette import palette


def start(niceness: int = 0) -> None:
    """The worker's initializer: Ctrl-C is the bot's to handle (it shuts the pool down), the
    palette is ready before the first image, and ``niceness`` lowers the priority of workers
    whose images nobody waits on, so that on a busy machine the event loop and the images
    that answer a click get the processor first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)
    palette()


def ping() -> bool:
    """A no-op job: the bot submits one per worker at start so that the workers are up (and
    warm) before the first click."""
    return True
