"""Tuning of the bot's process (not of any one game)."""
from __future__ import annotations

import contextlib
import gc
import os
import sys

GC_THRESHOLDS = (500, 1, 20_000)  # see tune_runtime


def tune_runtime() -> None:
    """Keep the event loop responsive while worker threads do rules work.

    What start-up built is left out of every garbage-collector scan (`gc.freeze`), and full scans of the
    long-lived game states stay rare: with CPython's default thresholds the collector scanned them so often that
    the loop stalled 50-80 ms under load (bench, paced 500 channels: loop lag max 80 -> 16 ms). A collection holds
    the GIL, so whichever thread runs it (often a rules worker) stalls the loop for as long as it takes, and it
    takes about as long as the young generations hold objects. Those are counted badly for a bot: the counter
    is allocations minus deallocations, and every move frees an old game state as it makes a new one, so by the
    time it reaches the first threshold the youngest generation holds many times that many live objects (at
    (2000, 2, 5000), 13,000-23,000 objects and 58,000-108,000 references at a second-generation scan under the
    bench's overload: the states just made, the parked moves' coroutines and futures, replies and buttons). Hence
    small steps: at (500, 1, 20000) the longest collection of an overload window took 3.5-11 ms of CPU (median
    7.5 ms over 16 windows, once 18.5 ms), at (2000, 2, 5000) 15-42 ms (median 26 ms; the second generation's
    above 10 ms in most of its scans, each one a stall of the loop), for the same collector CPU in all. Full
    collections stay about as rare in time as before (20,000 second-generation scans, which now come about five
    times as often, and the interpreter's own rule of 25 % new long-lived objects). A shorter GIL switch interval
    hands the loop thread the interpreter sooner when a worker thread is busy (max 15 -> 13 ms, p99 8 -> 5 ms).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
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
