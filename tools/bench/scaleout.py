"""scale-out: several bot processes on one PostgreSQL, and what one move costs on PostgreSQL and on SQLite.

Capacity: 1 and then 2 OS processes (`scaleout_child.py`, each a GameManager with the bot's render
workers, its own channels) play random legal moves closed-loop on one PostgreSQL, boards drawn;
moves/s is the sum over the processes in the same window. Latency: one channel, one move at a time,
no image, so the figure is the rules plus the storage round trips, on each backend.

Needs the PostgreSQL server of PLAYPOST_BENCH_PG (default: PLAYPOST_TEST_PG, else the local `test`
database); without one the section says so and is skipped. Each run uses a schema of its own, dropped after.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg

from bot.manager import GameManager
from storage import GameRecord, LogEntry, Storage, open_storage

from .common import ROOT, SEED, Config, Engine, SetupFailed, default_options, fit_seats, med, ms, open_table, pct
from .pipeline import Table, run_load
from .report import Report

SECTION = "scale-out"
PG_URL = os.environ.get("PLAYPOST_BENCH_PG") or os.environ.get(
    "PLAYPOST_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _with_schema(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}schema={schema}"


async def _reachable(url: str) -> str | None:
    try:
        conn = await asyncpg.connect(url, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


async def _drop(url: str, schema: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


async def make_tables(storage: Storage, games: dict[str, Engine], channels: list[str]) -> list[Table]:
    """One table per channel, the games taking turns (games that cannot be set up are left out)."""
    mgr = GameManager(storage, render=False)
    plans = []
    for gid, engine in games.items():
        try:
            opts = default_options(engine)
            plans.append((gid, engine, fit_seats(engine, opts), opts))
        except SetupFailed:
            continue
    tables = []
    for i, ch in enumerate(channels):
        gid, engine, n, opts = plans[i % len(plans)]
        seeds = itertools.count(SEED + 1000 * i)
        tables.append(Table(ch, gid, engine, n, opts, seeds, await open_table(mgr, ch, gid, n, next(seeds), opts)))
    return tables


def plan(cfg: Config) -> dict[str, Any]:
    quick = cfg.closed_window < 1
    # quick (a smoke test): boards drawn in a thread, so no child starts a pool of drawing processes
    return {"channels": 4 if quick else 50, "warmup": cfg.closed_warmup, "window": cfg.closed_window,
            "render_workers": 0 if quick else None,
            "latency_warmup": cfg.closed_warmup, "latency_window": cfg.closed_window, "writes": 20 if quick else 300}


async def _capacity(url: str, games: dict[str, Engine], processes: int, p: dict[str, Any]) -> dict[str, Any]:
    """`processes` children on one database, each with its share of the channels, started together."""
    per = max(1, p["channels"] // processes)
    children = []
    for k in range(processes):
        args = {"db": url, "games": sorted(games), "channels": [f"p{processes}-{k}-ch{i}" for i in range(per)],
                "warmup": p["warmup"], "window": p["window"], "seed": SEED + 31 * k,
                "render_workers": p["render_workers"]}
        children.append(subprocess.Popen([sys.executable, "-m", "tools.bench.scaleout_child", json.dumps(args)],
                                         cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    try:
        loop = asyncio.get_running_loop()
        for child in children:  # each has set up its tables and warmed its renderers
            line = await loop.run_in_executor(None, child.stdout.readline)  # type: ignore[union-attr]
            if line.strip() != "ready":
                raise RuntimeError(f"a scale-out child did not start: {line!r}")
        for child in children:
            child.stdin.write("go\n")  # type: ignore[union-attr]
            child.stdin.flush()  # type: ignore[union-attr]
        outs = [json.loads(await loop.run_in_executor(None, child.stdout.read)) for child in children]  # type: ignore[union-attr]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
            child.wait()
    lat = [x for o in outs for x in o["lat"]]
    return {"processes": processes, "channels": per * processes,
            "moves_per_s": sum(o["done_in_window"] for o in outs) / p["window"],
            "p50_ms": ms(med(lat)), "p99_ms": ms(pct(lat, 99)), "errors": [e for o in outs for e in o["errors"]][:5]}


async def _latency(url: str, games: dict[str, Engine], p: dict[str, Any]) -> dict[str, Any]:
    """One channel, moves one after another, no image: rules + storage per move; and the storage's part
    alone (the move's one transaction: the guarded update and the log entry)."""
    storage = await open_storage(url)
    try:
        tables = await make_tables(storage, games, ["lat-0"])
        res = await run_load(storage, tables, render=False, think=0.0, warmup=p["latency_warmup"],
                             window=p["latency_window"], seed=SEED)
        rec = await storage.create_game(GameRecord(channel_id="lat-write", kind="bench", host_id="b1", seed=1,
                                                   status="active", state="{}"))
        writes = []
        for seq in range(1, p["writes"] + 1):
            t0 = time.perf_counter()
            rec = await storage.append_action(rec, rec.version, LogEntry(seq=seq, player="b1", action="x"),
                                              json.dumps({"n": seq}))
            writes.append(time.perf_counter() - t0)
    finally:
        await storage.close()
    return {"p50_ms": ms(med(res.lat)), "p90_ms": ms(pct(res.lat, 90)), "n": len(res.lat),
            "write_p50_ms": ms(med(writes)), "write_p90_ms": ms(pct(writes, 90)), "writes": len(writes)}


async def bench_scaleout(cfg: Config, games: dict[str, Engine], rep: Report, tmp: Path) -> None:
    why = await _reachable(PG_URL)
    if why is not None:
        rep.add(SECTION, "all", "skipped", f"no PostgreSQL at {PG_URL} ({why}); set PLAYPOST_BENCH_PG"[:110])
        return
    p = plan(cfg)
    schemas = [f"bench_{os.getpid()}_{uuid.uuid4().hex[:8]}" for _ in range(3)]
    details: dict[str, Any] = {"plan": p, "capacity": [], "latency": {}}
    try:
        for processes, schema in zip((1, 2), schemas, strict=False):
            run = await _capacity(_with_schema(PG_URL, schema), games, processes, p)
            details["capacity"].append(run)
            rep.add(SECTION, f"{processes} process{'es' if processes > 1 else ''}, C={run['channels']} render",
                    "moves/s | latency p50 / p99",
                    f"{run['moves_per_s']:.0f}/s | {run['p50_ms']:.1f} / {run['p99_ms']:.1f} ms",
                    {k: run[k] for k in ("moves_per_s", "p50_ms", "p99_ms")})
            if run["errors"]:
                rep.add(SECTION, f"{processes} processes", "refused moves", str(run["errors"][0])[:100])
        for name, url in (("SQLite", str(tmp / "scaleout-latency.sqlite3")),
                          ("PostgreSQL", _with_schema(PG_URL, schemas[2]))):
            lat = await _latency(url, games, p)
            details["latency"][name] = lat
            rep.add(SECTION, f"one move on {name}", "latency p50 / p90 (no image)",
                    f"{lat['p50_ms']:.2f} / {lat['p90_ms']:.2f} ms (n={lat['n']})", lat)
            rep.add(SECTION, f"its transaction on {name}", "latency p50 / p90",
                    f"{lat['write_p50_ms']:.2f} / {lat['write_p90_ms']:.2f} ms (n={lat['writes']})")
    finally:
        for schema in schemas:
            await _drop(PG_URL, schema)
    rep.details["scale-out"] = details
