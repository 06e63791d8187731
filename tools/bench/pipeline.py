"""pipeline: `GameManager.dispatch` under C channels playing random legal moves, closed loop and paced."""
from __future__ import annotations

import asyncio
import gc
import itertools
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.manager import GameManager
from bot.reply import Reply
from bot.runtime import tune_runtime
from bot.settings import Settings
from games.core import Action
from storage import Storage, open_storage

from .common import (
    SEED,
    TARGETS,
    Config,
    Engine,
    SetupFailed,
    ctx,
    default_options,
    fit_seats,
    med,
    ms,
    open_table,
    pct,
)
from .report import Report

RENDER_WORKERS: int | None = None  # None: as the bot (Settings.render_workers)
GRACE = 5.0  # seconds a run waits for moves still queued after its window before cutting them off


@dataclass
class Table:
    channel: str
    gid: str
    engine: Engine
    n: int
    options: dict[str, str]
    seeds: Iterator[int]
    last: Reply  # the newest reply (its buttons are what a player would click)
    stale: bool = False  # a move was cut off: read the stored state instead of the buttons


async def current_state(mgr: GameManager, t: Table) -> BaseModel | None:
    """The table's state as the manager has it (its cache, by the stored version)."""
    rec = await mgr.storage.live_game(t.channel)
    if rec is None or rec.state is None:
        return None
    return mgr.state_of(rec, t.engine)


async def next_move(mgr: GameManager, t: Table, pick: random.Random) -> tuple[str, Action] | None:
    """A random legal move: one of the reply's buttons when it has them (what a player clicks),
    else from the engine's legal actions. None when the game is over."""
    if t.last.finished and not t.stale:
        return None
    if t.last.buttons and not t.stale:
        b = pick.choice(t.last.buttons)
        return b.player, Action.parse(b.action)
    state = await current_state(mgr, t)
    st = None if state is None else t.engine.status(state)
    if state is None or st is None or st.finished or not st.to_act:
        return None
    player = pick.choice(st.to_act)
    return player, pick.choice(t.engine.legal_actions(state, player))


@dataclass
class Load:
    """What one run of the drivers measured."""

    lat: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    done_in_window: int = 0
    started: int = 0  # moves sent, in the window or not
    restarts: int = 0
    censored: int = 0
    drain_s: float = 0.0


async def _warm(mgr: GameManager, tables: list[Table], workers: int) -> None:
    """Draw each game's board once per render worker before measuring: a bot has its workers
    running, renderers imported, long before the first click."""
    firsts = {t.gid: t for t in tables}.values()
    boards = [(t, await current_state(mgr, t)) for t in firsts]
    await asyncio.gather(*[mgr.image(t.gid, t.engine, s) for t, s in boards if s is not None
                           for _ in range(max(1, workers))])


async def run_load(storage: Storage, tables: list[Table], *, render: bool, think: float, warmup: float,
                   window: float, seed: int) -> Load:
    # the bot's configuration: boards drawn in worker processes (see Settings.playpost_render_workers)
    workers = RENDER_WORKERS if RENDER_WORKERS is not None else Settings().render_workers()
    mgr = GameManager(storage, render=render, render_workers=workers if render else 0)
    tune_runtime()  # as the bot does at start-up
    if render:
        await _warm(mgr, tables, workers)
    res = Load()
    pending: dict[int, float] = {}  # driver -> start of its move in flight (measured moves only)
    t_start = time.perf_counter()
    t_meas, t_end = t_start + warmup, t_start + warmup + window
    stop = asyncio.Event()

    async def ticker() -> None:
        tick = 0.005
        while not stop.is_set():
            a = time.perf_counter()
            await asyncio.sleep(tick)
            b = time.perf_counter()
            if t_meas <= a < t_end:
                res.lags.append(max(0.0, b - a - tick))

    async def drive(i: int, t: Table) -> None:
        pick = random.Random(seed * 1_000_003 + i)
        # the first wait is drawn from the think time's equilibrium residual, so the arrivals are
        # stationary from the start: density (1 - x / 2T) / T on [0, 2T], by inverting its CDF
        wait = 2 * think * (1 - math.sqrt(1 - pick.random())) if think else 0.0
        mine = 0  # this driver's moves sent
        while True:
            if think:
                if time.perf_counter() + wait >= t_end:
                    return  # the next click would fall after the window: stop now, not after the wait
                await asyncio.sleep(wait)
                wait = pick.uniform(0, 2 * think)
            # a closed-loop driver always makes its first move: every run moves at least once per channel,
            # however slow the machine (the window bounds what is measured, not whether anything runs)
            if (think or mine) and time.perf_counter() >= t_end:
                return
            move = await next_move(mgr, t, pick)
            if move is None:
                try:
                    t.last = await open_table(mgr, t.channel, t.gid, t.n, next(t.seeds), t.options)
                except SetupFailed as exc:
                    res.errors.append(f"restart: {exc}"[:120])
                    return
                t.stale = False
                res.restarts += 1
                continue
            player, action = move
            k = int(player[1:]) if player[1:].isdigit() else 1
            t0 = time.perf_counter()
            in_window = t_meas <= t0 < t_end
            if in_window:
                pending[i] = t0
            t.stale = True  # until the reply is in (a move cut off below leaves the buttons unknown)
            mine += 1
            res.started += 1
            reply = await mgr.dispatch(ctx(t.channel, k), t.gid, action.cmd, dict(action.args))
            t1 = time.perf_counter()
            pending.pop(i, None)
            if reply.ephemeral and reply.game_id is None:
                res.errors.append(reply.text[:120])
                return
            t.last, t.stale = reply, False
            if in_window:
                res.lat.append(t1 - t0)
            if t_meas <= t1 < t_end:
                res.done_in_window += 1

    tick = asyncio.create_task(ticker())
    drivers = [asyncio.create_task(drive(i, t)) for i, t in enumerate(tables)]
    # an overloaded run is not waited out: after a grace period the moves still queued are cut off
    # and counted as censored samples (latency at least the time they waited)
    _, late = await asyncio.wait(drivers, timeout=max(0.0, t_end - time.perf_counter()) + GRACE)
    if late:
        now = time.perf_counter()
        res.censored = len(pending)
        res.lat.extend(now - t0 for t0 in pending.values())
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
    for task in drivers:
        if task.done() and not task.cancelled() and (exc := task.exception()) is not None:
            raise exc
    stop.set()
    await tick
    mgr.close()
    res.drain_s = time.perf_counter() - t_end
    return res


async def _tables(cfg: Config, games: dict[str, Engine], rep: Report,
                  storage: Storage) -> tuple[list[str], list[Table]]:
    """One table per channel, the games taking turns; a game that cannot even be set up is left out."""
    setup_mgr = GameManager(storage, render=False)
    mix: list[str] = []
    plans: dict[str, tuple[int, dict[str, str]]] = {}
    for gid, engine in games.items():
        try:
            opts = default_options(engine)
            plans[gid] = (fit_seats(engine, opts), opts)
            await open_table(setup_mgr, f"probe-{gid}", gid, plans[gid][0], SEED, opts)
            mix.append(gid)
        except Exception as exc:
            rep.add("pipeline", gid, "skipped", f"setup failed: {type(exc).__name__}: {exc}"[:100])
    if not mix:
        return mix, []
    n = max(max(cfg.channels, default=0), max(cfg.paced_channels, default=0))
    tables: list[Table] = []
    for i in range(n):
        gid = mix[i % len(mix)]
        seeds = itertools.count(SEED + 1000 * i)
        ch = f"ch{i}"
        k, opts = plans[gid]
        tables.append(Table(ch, gid, games[gid], k, opts, seeds,
                            await open_table(setup_mgr, ch, gid, k, next(seeds), opts)))
    return mix, tables


async def bench_pipeline(cfg: Config, games: dict[str, Engine], rep: Report, tmp: Path) -> None:
    storage = await open_storage(str(tmp / "pipeline.sqlite3"))
    try:
        t0 = time.perf_counter()
        mix, tables = await _tables(cfg, games, rep, storage)
        setup_s = time.perf_counter() - t0
        if not tables:
            rep.add("pipeline", "all", "skipped", "no game could be set up")
            return
        runs = [("closed", c, 0.0, cfg.closed_warmup, cfg.closed_window) for c in cfg.channels]
        runs += [("paced", c, cfg.pace, cfg.paced_warmup, cfg.paced_window) for c in cfg.paced_channels]
        details = []
        for mode, c, think, warm, window in runs:
            for render in (False, True):
                gc.collect()
                res = await run_load(storage, tables[:c], render=render, think=think, warmup=warm, window=window,
                                     seed=SEED + c)
                subject = f"{mode} C={c}" + (f" think~U(0,{2 * think:g}s)" if think else "") + \
                    (" render" if render else " no-render")
                is_target = mode == "paced" and c == max(cfg.paced_channels) and render
                details.append({"mode": mode, "channels": c, "render": render, "think_mean_s": think,
                                "warmup_s": warm, "window_s": window} | _rows(rep, subject, res, window, is_target))
        rep.details["pipeline"] = {"mix": mix,
                                   "setup_s": round(setup_s, 2), "runs": details}
    finally:
        await storage.close()


def _rows(rep: Report, subject: str, res: Load, window: float, is_target: bool) -> dict[str, Any]:
    lat, lags = res.lat, res.lags
    p50, p99 = med(lat), pct(lat, 99)
    lag_max = max(lags) if lags else float("nan")
    moves_per_s = res.done_in_window / window
    target = f"p99 <= {TARGETS['p99_ms_at_500']:.0f} ms" if is_target else ""
    cut = res.censored
    ge = ">= " if cut else ""  # moves cut off count at their wait so far: a lower bound
    rep.add("pipeline", subject, "moves/s | latency p50 / p99",
            f"{moves_per_s:.0f}/s | {ge}{ms(p50):.1f} / {ge}{ms(p99):.1f} ms (n={len(lat)}"
            + (f", {cut} cut off still queued)" if cut else ")"),
            {"moves_per_s": round(moves_per_s, 1), "p50_ms": ms(p50), "p99_ms": ms(p99), "n": len(lat),
             "censored": cut},
            target, (ms(p99) <= TARGETS["p99_ms_at_500"]) if is_target else None)
    rep.add("pipeline", subject, "event-loop lag p99 / max", f"{ms(pct(lags, 99)):.1f} / {ms(lag_max):.1f} ms",
            {"p99_ms": ms(pct(lags, 99)), "max_ms": ms(lag_max)},
            f"max <= {TARGETS['loop_lag_ms']:.0f} ms", ms(lag_max) <= TARGETS["loop_lag_ms"])
    if res.errors:
        rep.add("pipeline", subject, "refused moves", f"{len(res.errors)}: {res.errors[0]}"[:100])
    return {"moves_per_s": moves_per_s, "p50_ms": ms(p50), "p90_ms": ms(pct(lat, 90)), "p99_ms": ms(p99),
            "max_ms": ms(max(lat)) if lat else None, "moves": len(lat), "moves_started": res.started,
            "lag_p99_ms": ms(pct(lags, 99)),
            "lag_max_ms": ms(lag_max), "games_restarted": res.restarts, "drain_s": round(res.drain_s, 2),
            "censored": cut, "errors": res.errors[:5]}
