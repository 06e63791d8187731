"""Tuning of the bot's process (not of any one game)."""
from __future__ import annotations

import contextlib
import gc
import os
import sys


def tune_runtime() -> None:
    """Keep the event loop responsive while worker threads do rules work.

    Garbage is collected in fewer, larger steps, with what start-up built left out of every
    scan: the bot keeps many long-lived game states, and with CPython's default thresholds
    the collector scanned them so often that the loop stalled 50-80 ms under load (bench,
    paced 500 channels: loop lag max 80 -> 16 ms). A shorter GIL switch interval hands the
    loop thread the interpreter sooner when a worker thread is busy (max 15 -> 13 ms, p99 8 -> 5 ms).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    sys.setswitchinterval(0.001)


RENDER_NICE = 10  # how much lower than the bot's process a render process is scheduled


def render_worker_init() -> None:
    """In each render process at its start: draw at a lower scheduling priority than the bot's process.

    Drawing a board is background work of 30-90 ms of CPU; the event loop must wake within a few ms
    (heartbeats, the 3 s acknowledgement of a click). On a machine with few cores a busy render process
    otherwise delays the loop's wake-ups by whole scheduler slices; at a lower priority it gives way at
    once, and still uses every cycle the bot's process leaves (boards drawn per second do not fall when
    the loop is idle). Where priorities cannot be lowered (no `os.nice`), nothing changes."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(RENDER_NICE)
