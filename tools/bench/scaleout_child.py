"""One bot-like process of the scale-out section: `python -m tools.bench.scaleout_child '<json arguments>'`.

It opens the shared database, sets up its own channels' games, prints `ready`, waits for `go` on
stdin (so all processes start their window together), plays random legal moves closed-loop with
boards drawn (the bot's render workers) and prints one JSON object: moves done in the window and
their latencies.
"""
from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from storage import open_storage

from . import pipeline
from .common import bench_games
from .pipeline import run_load
from .scaleout import make_tables


async def main(args: dict[str, Any]) -> dict[str, Any]:
    pipeline.RENDER_WORKERS = args["render_workers"]  # None: as the bot (one per core but one)
    games = {gid: e for gid, e in bench_games().items() if gid in set(args["games"])}
    storage = await open_storage(args["db"])
    try:
        tables = await make_tables(storage, games, args["channels"])
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        res = await run_load(storage, tables, render=True, think=0.0, warmup=args["warmup"], window=args["window"],
                             seed=args["seed"])
    finally:
        await storage.close()
    return {"done_in_window": res.done_in_window, "lat": res.lat, "errors": res.errors[:5]}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(json.loads(sys.argv[1])))))
