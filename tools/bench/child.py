"""The fresh bot process of the scale section: `python -m tools.bench.child '<json arguments>'`.

It opens the database it is given (its integrity check started first, to run beside the imports, as
`playpost run` starts it), answers `/game status` in the first channel (with the board image) and
prints one JSON line: seconds spent importing the bot, opening the storage (waiting for the check's
verdict) and answering, and the process's CPU seconds until then. Given channels to sample it also
times cold game opens (no image), and given channels to cache it measures resident memory before and
after loading their games into a fresh manager (until its cache is full), and a full garbage collection with
the cache full (after all of them).
"""
import time

T0 = time.perf_counter()  # start-up is timed from here: the bot's imports below are part of it

import json  # noqa: E402
import sys  # noqa: E402

from storage.check import start_check  # noqa: E402

if __name__ == "__main__":  # as `playpost run` does: the integrity check reads the file beside the imports
    start_check(json.loads(sys.argv[1])["db"])

import asyncio  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402
from typing import Any  # noqa: E402

from bot.manager import GameManager  # noqa: E402
from bot.reply import Context  # noqa: E402
from bot.runtime import tune_runtime  # noqa: E402
from bot.table import STATE_CACHE  # noqa: E402
from storage import open_storage  # noqa: E402

T_IMPORT = time.perf_counter()


def rss() -> int:
    """Resident memory of this process, bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def ctx(channel: str) -> Context:
    return Context(channel_id=channel, user_id="b1", user_name="Bench 1")


async def main(db: str, first: str, sample: list[str], cached: list[str]) -> dict[str, Any]:
    store = await open_storage(db)
    mgr = GameManager(store, render=True)
    t_open = time.perf_counter()
    r = await mgr.dispatch(ctx(first), "game", "status", {})
    assert r.game_id is not None and r.image is not None, r.text
    t_first = time.perf_counter()
    out: dict[str, Any] = {"import_s": T_IMPORT - T0, "open_s": t_open - T_IMPORT, "first_reply_s": t_first - t_open,
                           "ready_s": t_first - T0, "cpu_s": time.process_time()}  # the check's thread included
    if sample or cached:
        quiet = GameManager(store, render=False)
        cold = []
        for ch in sample:
            t = time.perf_counter()
            r = await quiet.dispatch(ctx(ch), "game", "status", {})
            cold.append(time.perf_counter() - t)
            assert r.game_id is not None, r.text
        out["cold_s"] = cold
        fresh = GameManager(store, render=False)  # its state cache starts empty
        tune_runtime()  # as the bot at start-up: what is alive now stays out of the collector's scans
        base = after = rss()
        for i, ch in enumerate(cached, 1):  # each answer leaves the game's state in the manager's cache
            r = await fresh.dispatch(ctx(ch), "game", "status", {})
            assert r.game_id is not None, r.text
            if i == STATE_CACHE:  # the cache is full: its memory (what the games after it do is turnover)
                gc.collect()
                after = rss()
        gc.collect()
        out.update(rss_base=base, rss_after=after if len(cached) >= STATE_CACHE else rss(), opened=len(cached),
                   cached=fresh.table.cached)
        t = time.thread_time()  # a full collection with the cached states alive: how long it would hold the loop
        gc.collect()
        out.update(full_gc_s=time.thread_time() - t, tracked=len(gc.get_objects()))
    await store.close()
    return out


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(asyncio.run(main(args["db"], args["first"], args["sample"], args["cached"]))))
