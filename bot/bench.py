"""`playpost bench`: how fast the bot answers a click and how many channels one process carries.

One run measures everything (so ratios hold on a noisy machine) and prints one table;
`--json PATH` writes the same rows (plus raw details) as JSON. Seeds are fixed, warm-up
runs are discarded, and figures are medians and p95/p99 over repeated runs. This is a
report, not a test: nothing here fails on a slow machine.

Sections
- image: each game's representative mid-game board (the option combination giving the
  largest image, all seats, halfway through a seeded random game): render time, PNG size,
  pixels; the *floor* (the same image decoded and re-encoded with `render.common.encode_png`)
  and the *peer* (python-chess's SVG board at 800 px rendered by cairosvg), interleaved.
- pipeline: `GameManager.dispatch` for C concurrent channels playing random legal moves of
  every game in turn. `closed` = each channel's player clicks again as soon as the reply
  arrives (saturation: moves/s is capacity, latency includes queueing); `paced` = each
  channel waits a think time (uniform, mean PACE seconds) before each move. Event-loop lag
  is measured by a task ticking every 5 ms. With and without rendering. Moves still queued 5 s
  after the window are cut off and counted at their wait so far (the table then shows `>=`).
- scale: a database of N stored games (finished and active, real states and logs), a fresh
  process started on it: time to the first answered command, cold game open, size per
  game, resident memory per cached active game.
- undo/export: `/game undo` and `/game export` of a game with a 500-action log.
- engines: random legal playouts per second (pure engine: legal_actions + apply).
"""
from __future__ import annotations

import asyncio
import gc
import importlib.util
import io
import itertools
import json
import math
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEED = 20240607
MAX_COMBOS = 24  # option combinations tried when looking for a game's largest board
PLAYOUT_CAP = 3000

TARGETS = {
    "p99_ms_at_500": 150.0,
    "loop_lag_ms": 20.0,
    "render_floor": 1.5,
    "render_peer": 0.5,
    "png_kb": 250.0,
    "long_side_px": 1200,
    "startup_s": 2.0,
    "kb_per_cached_game": 256.0,
    "undo_ms": 100.0,
    "export_ms": 100.0,
}


@dataclass(frozen=True)
class Config:
    image_runs: int
    image_warmup: int
    channels: tuple[int, ...]
    closed_warmup: float
    closed_window: float
    paced_channels: tuple[int, ...]
    pace: float  # mean think time between a channel's moves, seconds
    paced_warmup: float
    paced_window: float
    scale_games: int
    scale_active_every: int  # one game in this many is active
    cold_sample: int
    cached_games: int
    startup_runs: int
    undo_runs: int
    engine_budget: float
    engine_min: int
    engine_seeds: int
    playout_cap: int  # actions per random game (quick mode plays short games)
    undo_actions: int


FULL = Config(image_runs=40, image_warmup=3, channels=(1, 50, 500), closed_warmup=1.0, closed_window=3.0,
              paced_channels=(500,), pace=10.0, paced_warmup=1.0, paced_window=12.0,
              scale_games=10_000, scale_active_every=5, cold_sample=30, cached_games=1000, startup_runs=3,
              undo_runs=10, engine_budget=1.5, engine_min=3, engine_seeds=3,
              playout_cap=PLAYOUT_CAP, undo_actions=500)
QUICK = Config(image_runs=2, image_warmup=1, channels=(1, 5), closed_warmup=0.1, closed_window=0.3,
               paced_channels=(5,), pace=0.05, paced_warmup=0.1, paced_window=0.3,
               scale_games=100, scale_active_every=5, cold_sample=3, cached_games=10, startup_runs=1,
               undo_runs=2, engine_budget=0.2, engine_min=1, engine_seeds=1,
               playout_cap=60, undo_actions=60)


# ---- small helpers -------------------------------------------------------------
def pct(xs: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    s = sorted(xs)
    if not s:
        return float("nan")
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def med(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def ms(x: float) -> float:
    return round(x * 1000, 2)


@dataclass
class Row:
    section: str
    subject: str
    measure: str
    text: str
    value: Any = None
    target: str = ""
    ok: bool | None = None


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def add(self, section: str, subject: str, measure: str, text: str, value: Any = None,
            target: str = "", ok: bool | None = None) -> None:
        self.rows.append(Row(section, subject, measure, " ".join(text.split()), value, target, ok))


def bench_games() -> dict[str, Any]:
    """The shipped games (engines from the `games` package; test fixtures excluded)."""
    from games.core import all_games

    return {gid: e for gid, e in sorted(all_games().items()) if type(e).__module__.startswith("games.")}


def seats_for(n: int) -> list[Any]:
    from games.core import Seat

    return [Seat(player=f"b{i}", name=f"Bench {i}") for i in range(1, n + 1)]


def default_options(engine: Any) -> dict[str, str]:
    return {o.name: o.default for o in engine.options if o.default is not None}


def fit_seats(engine: Any, options: dict[str, str]) -> int:
    """The most seats (up to 6) these options take: every join accepted and setup works."""
    engine.check_options(options)
    last: Exception | None = None
    for n in range(min(engine.max_seats, 6), engine.min_seats - 1, -1):
        seats = seats_for(n)
        try:
            for i, s in enumerate(seats):
                engine.check_seat(options, seats[:i], s)
            engine.setup(options, seats, SEED)
            return n
        except Exception as exc:
            last = exc
    raise SetupFailed(f"no seat count works: {last}")


class SetupFailed(Exception):
    pass


@dataclass
class Playout:
    seed: int
    n: int
    options: dict[str, str]
    steps: list[tuple[str, Any, str, bool]]  # player, action, turn_key before, barrier
    states: list[Any]  # state before each step, then the last
    finished: bool


_PLAYOUTS: dict[tuple[Any, ...], Playout] = {}


def memo_playout(engine: Any, options: dict[str, str], seed: int, n: int, cap: int = PLAYOUT_CAP) -> Playout:
    """A whole seeded game with every state kept, played once per run and shared by the sections."""
    key = (engine.id, tuple(sorted(options.items())), seed, n, cap)
    if key not in _PLAYOUTS:
        _PLAYOUTS[key] = playout(engine, options, seed, n, keep_states=True, cap=cap)
    return _PLAYOUTS[key]


def playout(engine: Any, options: dict[str, str], seed: int, n: int, *, keep_states: bool = False,
            cap: int = PLAYOUT_CAP) -> Playout:
    """A seeded random legal game with n seats, as the conformance test plays it."""
    seats = seats_for(n)
    state = engine.setup(options, seats, seed)
    pick = random.Random(seed)
    steps: list[tuple[str, Any, str, bool]] = []
    states = [state] if keep_states else []
    finished = False
    for _ in range(cap):
        st = engine.status(state)
        if st.finished:
            finished = True
            break
        if not st.to_act:
            break
        player = pick.choice(st.to_act)
        legal = engine.legal_actions(state, player)
        if not legal:
            break
        action = pick.choice(legal)
        state, events = engine.apply(state, player, action)
        steps.append((player, action, st.turn_key, any(e.irreversible for e in events)))
        if keep_states:
            states.append(state)
    if not keep_states:
        states = [state]
    return Playout(seed, n, options, steps, states, finished)


def option_combos(engine: Any) -> list[dict[str, str]]:
    base = default_options(engine)
    specs = [o for o in engine.options if o.choices]
    combos: list[dict[str, str]] = []
    for values in itertools.product(*(o.choices for o in specs)):
        combos.append({**base, **{o.name: v for o, v in zip(specs, values, strict=True)}})
        if len(combos) >= MAX_COMBOS:
            break
    return combos or [base]


# ---- engines -------------------------------------------------------------------
def bench_engines(cfg: Config, games: dict[str, Any], rep: Report) -> dict[str, dict[str, Any]]:
    info: dict[str, dict[str, Any]] = {}
    for gid, engine in games.items():
        try:
            opts = default_options(engine)
            seats = fit_seats(engine, opts)
            memo_playout(engine, opts, SEED, seats, cfg.playout_cap)  # warm-up (shared with the other sections)
            n = actions = 0
            lengths: list[int] = []
            t0 = time.perf_counter()
            seeds = itertools.count(SEED + 1)
            while n < cfg.engine_min or time.perf_counter() - t0 < cfg.engine_budget:
                p = playout(engine, opts, next(seeds), seats, cap=cfg.playout_cap)
                n += 1
                actions += len(p.steps)
                lengths.append(len(p.steps))
            dt = time.perf_counter() - t0
        except Exception as exc:  # a game being written may not play yet
            rep.add("engines", gid, "skipped", f"playout failed: {type(exc).__name__}: {exc}"[:100])
            continue
        on_loop = _on_loop_costs(engine, memo_playout(engine, opts, SEED, seats, cfg.playout_cap))
        # the manager runs this work in a worker thread; it is reported for its size, not as loop time
        rep.add("engines", f"{gid} ({seats} seats)", "rules CPU per move (step+dump+buttons) p50 / p99 / max",
                f"{ms(med(on_loop)):.1f} / {ms(pct(on_loop, 99)):.1f} / {ms(max(on_loop)):.1f} ms",
                {"p50_ms": ms(med(on_loop)), "p99_ms": ms(pct(on_loop, 99)), "max_ms": ms(max(on_loop))})
        info[gid] = {"seats": seats, "playouts_per_s": n / dt, "actions_per_s": actions / dt, "playouts": n,
                     "mean_actions": statistics.mean(lengths), "max_actions": max(lengths)}
        rep.add("engines", f"{gid} ({seats} seats)", "random playouts/s", f"{n / dt:.1f} ({actions / dt:.0f} actions/s, "
                f"{statistics.mean(lengths):.0f} actions/game)", round(n / dt, 2))
    return info


def _on_loop_costs(engine: Any, p: Playout) -> list[float]:
    """What GameManager.play and _after_move run on the event loop for each move of a game:
    step (resolve + apply), both statuses, dump, and the legal actions behind the buttons."""
    from games.core.play import step

    out = []
    for (player, action, _, _), state in zip(p.steps, p.states, strict=False):
        t0 = time.perf_counter()
        engine.status(state)
        _, new, _ = step(engine, state, player, action)
        after = engine.status(new)
        engine.dump(new)
        engine.view(new, None)
        for who in after.to_act:
            engine.legal_actions(new, who)
        out.append(time.perf_counter() - t0)
    return out


# ---- image ---------------------------------------------------------------------
def _peer() -> tuple[Callable[[], bytes], str] | None:
    try:
        import cairosvg
        import chess
        import chess.svg
    except ImportError:
        return None
    board = chess.Board()
    pick = random.Random(SEED)
    for _ in range(30):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(pick.choice(moves))
    last = board.peek()

    def run() -> bytes:
        svg = chess.svg.board(board, size=800, lastmove=last, coordinates=True)
        return cairosvg.svg2png(bytestring=svg.encode())

    return run, board.fen()


def bench_images(cfg: Config, games: dict[str, Any], rep: Report) -> None:
    from PIL import Image

    from render import render_png
    from render.common import encode_png

    subjects: dict[str, dict[str, Any]] = {}
    for gid, engine in games.items():
        try:
            best: tuple[int, int, dict[str, str], Any, bytes] | None = None
            for opts in option_combos(engine):
                try:
                    seats = fit_seats(engine, opts)
                except Exception:
                    continue
                p = memo_playout(engine, opts, SEED, seats, cfg.playout_cap)
                mid = p.states[len(p.states) // 2]
                view = engine.view(mid, None)
                png = render_png(gid, view)
                if png is None:
                    break
                w, h = Image.open(io.BytesIO(png)).size
                key = (w * h, len(png))
                if best is None or key > best[:2]:
                    best = (w * h, len(png), {**opts, "seats": str(seats)}, view, png)
            if best is None:
                rep.add("image", gid, "skipped", "no renderer (or no option set accepted)")
                continue
        except Exception as exc:
            rep.add("image", gid, "skipped", f"board failed: {type(exc).__name__}: {exc}"[:100])
            continue
        _, _, opts, view, png = best
        decoded = Image.open(io.BytesIO(png))  # as decoded (a palette image stays one): only encoding is left
        decoded.load()
        size = decoded.size
        subjects[gid] = {"view": view, "png": png, "size": size, "decoded": decoded, "options": opts,
                         "render": [], "floor": []}
    peer = _peer()
    peer_times: list[float] = []
    peer_bytes = 0
    for i in range(cfg.image_warmup + cfg.image_runs):
        keep = i >= cfg.image_warmup
        for gid, s in subjects.items():
            t0 = time.perf_counter()
            render_png(gid, s["view"])
            t1 = time.perf_counter()
            encode_png(s["decoded"])
            t2 = time.perf_counter()
            if keep:
                s["render"].append(t1 - t0)
                s["floor"].append(t2 - t1)
        if peer is not None:
            t0 = time.perf_counter()
            out = peer[0]()
            if keep:
                peer_times.append(time.perf_counter() - t0)
                peer_bytes = len(out)
    peer_med = med(peer_times) if peer_times else None
    if peer is not None:
        rep.add("image", "peer", "python-chess SVG 800px + cairosvg: median / p95",
                f"{ms(peer_med):.1f} / {ms(pct(peer_times, 95)):.1f} ms, {peer_bytes / 1024:.0f} KB",
                {"median_ms": ms(peer_med), "p95_ms": ms(pct(peer_times, 95)), "png_bytes": peer_bytes})
    else:
        rep.add("image", "peer", "skipped", "python-chess / cairosvg not installed (pip install -e '.[bench]')")
    details = {}
    for gid, s in subjects.items():
        r_med, r95, f_med = med(s["render"]), pct(s["render"], 95), med(s["floor"])
        w, h = s["size"]
        kb = len(s["png"]) / 1024
        optdesc = ",".join(f"{k}={v}" for k, v in s["options"].items()) or "default"
        subject = f"{gid} ({optdesc})"
        rep.add("image", subject, "render median / p95", f"{ms(r_med):.1f} / {ms(r95):.1f} ms",
                {"median_ms": ms(r_med), "p95_ms": ms(r95)})
        rep.add("image", subject, "PNG size", f"{kb:.0f} KB", round(kb, 1), f"<= {TARGETS['png_kb']:.0f} KB",
                kb <= TARGETS["png_kb"])
        rep.add("image", subject, "pixels", f"{w} x {h}", [w, h], f"long side <= {TARGETS['long_side_px']}",
                max(w, h) <= TARGETS["long_side_px"])
        ratio = r_med / f_med
        rep.add("image", subject, "floor (encode_png alone) / render÷floor",
                f"{ms(f_med):.1f} ms / {ratio:.2f}x", {"floor_ms": ms(f_med), "ratio": round(ratio, 2)},
                f"<= {TARGETS['render_floor']}", ratio <= TARGETS["render_floor"])
        if peer_med:
            pr = r_med / peer_med
            rep.add("image", subject, "render÷peer", f"{pr:.2f}x", round(pr, 2), f"<= {TARGETS['render_peer']}",
                    pr <= TARGETS["render_peer"])
        details[gid] = {"options": s["options"], "render_ms": [ms(x) for x in s["render"]],
                        "floor_ms": [ms(x) for x in s["floor"]], "png_bytes": len(s["png"]), "size": [w, h]}
    rep.details["image"] = {"games": details, "peer_ms": [ms(x) for x in peer_times],
                            "peer_position": peer[1] if peer else None, "runs": cfg.image_runs,
                            "warmup": cfg.image_warmup}


# ---- the manager path ------------------------------------------------------------

def _ctx(channel: str, k: int) -> Any:
    from bot.reply import Context

    return Context(channel_id=channel, user_id=f"b{k}", user_name=f"Bench {k}", guild_id="bench")


async def open_table(mgr: Any, channel: str, gid: str, n: int, seed: int, options: dict[str, str]) -> Any:
    """`/game new`, n-1 players `/game join`, the host `/game start`s; returns the start reply."""
    r = await mgr.dispatch(_ctx(channel, 1), "game", "new", {"game": gid, "seed": seed, **options})
    if r.game_id is None:
        raise SetupFailed(r.text)
    for k in range(2, n + 1):
        r = await mgr.dispatch(_ctx(channel, k), "game", "join", {})
        if r.game_id is None:
            raise SetupFailed(r.text)
    r = await mgr.dispatch(_ctx(channel, 1), "game", "start", {})
    if r.game_id is None or r.ephemeral:
        raise SetupFailed(r.text)
    return r


@dataclass
class Table:
    channel: str
    gid: str
    engine: Any
    n: int
    options: dict[str, str]
    seeds: Any
    last: Any  # the newest reply (its buttons are what a player would click)
    stale: bool = False  # a move was cut off: read the stored state instead of the buttons

    @property
    def game_id(self) -> int:
        return int(self.last.game_id)


async def current_state(mgr: Any, t: Table) -> Any:
    hit = mgr._states.get(t.game_id)  # the manager's own cache: what it just saved
    if hit is not None:
        return hit[1]
    rec = await mgr.storage.live_game(t.channel)
    if rec is None or rec.state is None:
        return None
    return t.engine.load(rec.state)


async def next_move(mgr: Any, t: Table, pick: random.Random) -> tuple[str, Any] | None:
    """A random legal move: one of the reply's buttons when it has them (what a player clicks),
    else from the engine's legal actions. None when the game is over."""
    from games.core import Action

    if t.last.finished and not t.stale:
        return None
    if t.last.buttons and not t.stale:
        b = pick.choice(t.last.buttons)
        return b.player, Action.parse(b.action)
    state = await current_state(mgr, t)
    st = None if state is None else t.engine.status(state)
    if st is None or st.finished or not st.to_act:
        return None
    player = pick.choice(st.to_act)
    return player, pick.choice(t.engine.legal_actions(state, player))


RENDER_WORKERS: int | None = None  # None: as the bot (Settings.render_workers)


def _warm() -> None:
    """Runs in a render worker: import the renderers so the first measured board is not the import."""
    import render  # noqa: F401
    from games.core import all_games

    for gid in all_games():
        __import__(f"render.{gid}")


async def run_load(storage: Any, tables: list[Table], *, render: bool, think: float, warmup: float,
                   window: float, seed: int, grace: float = 5.0) -> dict[str, Any]:
    from bot.manager import GameManager, tune_runtime

    # the bot's configuration: boards drawn in worker processes (see Settings.playpost_render_workers)
    from bot.settings import Settings

    workers = RENDER_WORKERS if RENDER_WORKERS is not None else Settings().render_workers()
    mgr = GameManager(storage, render=render, render_workers=workers if render else 0)
    tune_runtime()  # as the bot does at start-up
    if render:  # start the workers before measuring (a bot has them running long before the first click)
        await asyncio.gather(*[asyncio.get_running_loop().run_in_executor(mgr._pool, _warm) for _ in range(4)])
    lat: list[float] = []
    lags: list[float] = []
    done_in_window = 0
    errors: list[str] = []
    restarts = 0
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
                lags.append(max(0.0, b - a - tick))

    async def drive(i: int, t: Table) -> None:
        nonlocal done_in_window, restarts
        pick = random.Random(seed * 1_000_003 + i)
        # the first wait is drawn from the think time's equilibrium residual, so the arrivals are
        # stationary from the start: density (1 - x / 2T) / T on [0, 2T], by inverting its CDF
        wait = 2 * think * (1 - math.sqrt(1 - pick.random())) if think else 0.0
        while True:
            if think:
                if time.perf_counter() + wait >= t_end:
                    return  # the next click would fall after the window: stop now, not after the wait
                await asyncio.sleep(wait)
                wait = pick.uniform(0, 2 * think)
            if time.perf_counter() >= t_end:
                return
            move = await next_move(mgr, t, pick)
            if move is None:
                try:
                    t.last = await open_table(mgr, t.channel, t.gid, t.n, next(t.seeds), t.options)
                except SetupFailed as exc:
                    errors.append(f"restart: {exc}"[:120])
                    return
                t.stale = False
                restarts += 1
                continue
            player, action = move
            k = int(player[1:]) if player[1:].isdigit() else 1
            t0 = time.perf_counter()
            in_window = t_meas <= t0 < t_end
            if in_window:
                pending[i] = t0
            t.stale = True  # until the reply is in (a move cut off below leaves the buttons unknown)
            reply = await mgr.dispatch(_ctx(t.channel, k), t.gid, action.cmd, dict(action.args))
            t1 = time.perf_counter()
            pending.pop(i, None)
            if reply.ephemeral and reply.game_id is None:
                errors.append(reply.text[:120])
                return
            t.last, t.stale = reply, False
            if in_window:
                lat.append(t1 - t0)
            if t_meas <= t1 < t_end:
                done_in_window += 1

    tick = asyncio.create_task(ticker())
    drivers = [asyncio.create_task(drive(i, t)) for i, t in enumerate(tables)]
    # an overloaded run is not waited out: after a grace period the moves still queued are cut off
    # and counted as censored samples (latency at least the time they waited)
    _, late = await asyncio.wait(drivers, timeout=max(0.0, t_end - time.perf_counter()) + grace)
    censored = 0
    if late:
        now = time.perf_counter()
        censored = len(pending)
        lat.extend(now - t0 for t0 in pending.values())
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
    for task in drivers:
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    stop.set()
    await tick
    mgr.close()
    return {"moves_per_s": done_in_window / window, "lat": lat, "lags": lags, "errors": errors,
            "restarts": restarts, "moves": len(lat), "censored": censored, "drain_s": time.perf_counter() - t_end}


async def bench_pipeline(cfg: Config, games: dict[str, Any], rep: Report, tmp: Path) -> None:
    from bot.manager import GameManager
    from storage import open_storage

    storage = await open_storage(str(tmp / "pipeline.sqlite3"))
    try:
        setup_mgr = GameManager(storage, render=False)
        mix: list[str] = []
        plans: dict[str, tuple[int, dict[str, str]]] = {}
        for gid, engine in games.items():  # a game that cannot even be set up is left out of the mix
            try:
                opts = default_options(engine)
                plans[gid] = (fit_seats(engine, opts), opts)
                await open_table(setup_mgr, f"probe-{gid}", gid, plans[gid][0], SEED, opts)
                mix.append(gid)
            except Exception as exc:
                rep.add("pipeline", gid, "skipped", f"setup failed: {type(exc).__name__}: {exc}"[:100])
        if not mix:
            rep.add("pipeline", "all", "skipped", "no game could be set up")
            return
        n = max(max(cfg.channels, default=0), max(cfg.paced_channels, default=0))
        tables: list[Table] = []
        t0 = time.perf_counter()
        for i in range(n):
            gid = mix[i % len(mix)]
            seeds = itertools.count(SEED + 1000 * i)
            ch = f"ch{i}"
            k, opts = plans[gid]
            tables.append(Table(ch, gid, games[gid], k, opts, seeds,
                                await open_table(setup_mgr, ch, gid, k, next(seeds), opts)))
        setup_s = time.perf_counter() - t0
        runs: list[tuple[str, int, float, float, float]] = [("closed", c, 0.0, cfg.closed_warmup, cfg.closed_window)
                                                            for c in cfg.channels]
        runs += [("paced", c, cfg.pace, cfg.paced_warmup, cfg.paced_window) for c in cfg.paced_channels]
        details = []
        for mode, c, think, warm, window in runs:
            for render in (False, True):
                gc.collect()
                res = await run_load(storage, tables[:c], render=render, think=think, warmup=warm, window=window,
                                     seed=SEED + c)
                lat, lags = res["lat"], res["lags"]
                p50, p99 = med(lat), pct(lat, 99)
                lag_max = max(lags) if lags else float("nan")
                subject = f"{mode} C={c}" + (f" think~U(0,{2 * think:g}s)" if think else "") + \
                    (" render" if render else " no-render")
                is_target = mode == "paced" and c == max(cfg.paced_channels) and render
                target = f"p99 <= {TARGETS['p99_ms_at_500']:.0f} ms" if is_target else ""
                cut = res["censored"]
                ge = ">= " if cut else ""  # moves cut off count at their wait so far: a lower bound
                rep.add("pipeline", subject, "moves/s | latency p50 / p99",
                        f"{res['moves_per_s']:.0f}/s | {ge}{ms(p50):.1f} / {ge}{ms(p99):.1f} ms (n={len(lat)}"
                        + (f", {cut} cut off still queued)" if cut else ")"),
                        {"moves_per_s": round(res["moves_per_s"], 1), "p50_ms": ms(p50), "p99_ms": ms(p99),
                         "n": len(lat), "censored": cut},
                        target, (ms(p99) <= TARGETS["p99_ms_at_500"]) if is_target else None)
                rep.add("pipeline", subject, "event-loop lag p99 / max",
                        f"{ms(pct(lags, 99)):.1f} / {ms(lag_max):.1f} ms",
                        {"p99_ms": ms(pct(lags, 99)), "max_ms": ms(lag_max)},
                        f"max <= {TARGETS['loop_lag_ms']:.0f} ms", ms(lag_max) <= TARGETS["loop_lag_ms"])
                if res["errors"]:
                    rep.add("pipeline", subject, "refused moves", f"{len(res['errors'])}: {res['errors'][0]}"[:100])
                details.append({"mode": mode, "channels": c, "render": render, "think_mean_s": think,
                                "warmup_s": warm, "window_s": window, "moves_per_s": res["moves_per_s"],
                                "p50_ms": ms(p50), "p90_ms": ms(pct(lat, 90)), "p99_ms": ms(p99),
                                "max_ms": ms(max(lat)) if lat else None, "moves": len(lat),
                                "lag_p99_ms": ms(pct(lags, 99)), "lag_max_ms": ms(lag_max),
                                "games_restarted": res["restarts"], "drain_s": round(res["drain_s"], 2), "censored": cut,
                                "errors": res["errors"][:5]})
        rep.details["pipeline"] = {"mix": mix, "setup_s": round(setup_s, 2), "runs": details}
    finally:
        await storage.close()


# ---- scale ---------------------------------------------------------------------
CHILD = r'''
import time
T0 = time.perf_counter()
import asyncio, gc, json, os, sys

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

async def main(db, first, sample, cached):
    from bot.manager import GameManager
    from bot.reply import Context
    from storage import open_storage
    t_import = time.perf_counter()
    store = await open_storage(db)
    mgr = GameManager(store, render=True)
    t_open = time.perf_counter()
    def ctx(ch):
        return Context(channel_id=ch, user_id="b1", user_name="Bench 1")
    r = await mgr.dispatch(ctx(first), "game", "status", {})
    assert r.game_id is not None and r.image is not None, r.text
    t_first = time.perf_counter()
    out = {"import_s": t_import - T0, "open_s": t_open - t_import, "first_reply_s": t_first - t_open,
           "ready_s": t_first - T0}
    if sample or cached:
        mgr.render_enabled = False
        cold = []
        for ch in sample:
            t = time.perf_counter()
            r = await mgr.dispatch(ctx(ch), "game", "status", {})
            cold.append(time.perf_counter() - t)
            assert r.game_id is not None, r.text
        out["cold_s"] = cold
        mgr._states.clear()
        gc.collect()
        base = rss()
        for ch in cached:
            r = await mgr.dispatch(ctx(ch), "game", "status", {})
            assert r.game_id is not None, r.text
        gc.collect()
        out.update(rss_base=base, rss_after=rss(), cached=len(mgr._states))
    await store.close()
    print(json.dumps(out))

args = json.loads(sys.argv[1])
asyncio.run(main(args["db"], args["first"], args["sample"], args["cached"]))
'''


def _child(db: Path, first: str, sample: list[str], cached: list[str]) -> tuple[float, dict[str, Any]]:
    arg = json.dumps({"db": str(db), "first": first, "sample": sample, "cached": cached})
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, arg], cwd=ROOT, capture_output=True, text=True,
                         timeout=600, check=False)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "child failed")
    return wall, json.loads(out.stdout.strip().splitlines()[-1])


def _templates(engine: Any, gid: str, seeds: int, cap: int) -> list[dict[str, Any]]:
    out = []
    for k in range(seeds):
        opts = default_options(engine)
        p = memo_playout(engine, opts, SEED + 77 * k, fit_seats(engine, opts), cap)
        half = len(p.steps) // 2
        out.append({"seed": p.seed, "options": opts, "steps": p.steps,
                    "final": engine.dump(p.states[-1]), "mid": engine.dump(p.states[half]), "half": half,
                    "finished": p.finished, "n": p.n})
    return out


async def _build_db(path: Path, games: dict[str, Any], cfg: Config, rep: Report) -> dict[str, Any]:
    from bot.manager import DEFAULT_SETTINGS
    from storage import open_storage

    store = await open_storage(str(path))  # the schema, by the storage's own migrations
    await store.close()
    templates: dict[str, list[dict[str, Any]]] = {}
    for gid, engine in games.items():
        try:
            templates[gid] = _templates(engine, gid, cfg.engine_seeds, cfg.playout_cap)
        except Exception as exc:
            rep.add("scale", gid, "skipped", f"playout failed: {type(exc).__name__}: {exc}"[:100])
    kinds = sorted(templates)
    if not kinds:
        raise SetupFailed("no game to store")
    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous=OFF")
    now = 1_767_225_600.0
    settings = json.dumps(DEFAULT_SETTINGS, sort_keys=True)
    active: list[str] = []
    game_rows, action_rows = [], []
    for i in range(cfg.scale_games):
        gid = kinds[i % len(kinds)]
        engine = games[gid]
        tpl = templates[gid][(i // len(kinds)) % len(templates[gid])]
        is_active = i % cfg.scale_active_every == 0
        group = i // cfg.scale_active_every
        channel = f"sc{group}"
        steps = tpl["steps"][:tpl["half"]] if is_active else tpl["steps"]
        seats = json.dumps([{"player": s.player, "name": s.name, "choices": {}} for s in seats_for(tpl["n"])])
        status = "active" if is_active else ("finished" if tpl["finished"] else "abandoned")
        game_id = i + 1
        game_rows.append((game_id, channel, "bench", gid, status, "b1", json.dumps(tpl["options"], sort_keys=True),
                          seats, tpl["seed"], engine.rules_version, tpl["mid"] if is_active else tpl["final"],
                          len(steps) + 3, now, now + len(steps) * 60, now + 48 * 3600 if is_active else None,
                          settings, "{}"))
        action_rows.extend((game_id, seq, player, action.text(), turn_key, int(barrier), now + seq * 60, 0)
                           for seq, (player, action, turn_key, barrier) in enumerate(steps, start=1))
        if is_active:
            active.append(channel)
        if len(action_rows) > 200_000:
            con.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?, ?)", action_rows)
            action_rows.clear()
    con.executemany("INSERT INTO games (id, channel_id, guild_id, kind, status, host_id, options, seats, seed, "
                    "rules_version, state, version, created_at, updated_at, deadline_at, settings, meta) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", game_rows)
    con.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?, ?)", action_rows)
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    n_actions = con.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    con.close()
    return {"active_channels": active, "actions": n_actions, "kinds": kinds}


async def bench_scale(cfg: Config, games: dict[str, Any], rep: Report, tmp: Path) -> None:
    big = tmp / "scale.sqlite3"
    t0 = time.perf_counter()
    try:
        built = await _build_db(big, games, cfg, rep)
    except SetupFailed as exc:
        rep.add("scale", "all", "skipped", str(exc))
        return
    build_s = time.perf_counter() - t0
    size = sum(p.stat().st_size for p in tmp.glob("scale.sqlite3*"))
    per_game_kb = size / cfg.scale_games / 1024
    active = built["active_channels"]
    rep.add("scale", f"{cfg.scale_games} games ({len(active)} active, {built['actions']} actions)",
            "database size per game", f"{per_game_kb:.1f} KB ({size / 2**20:.0f} MB total)", round(per_game_kb, 2))
    # a one-game database, for comparison of start-up
    small = tmp / "one.sqlite3"
    from storage import open_storage

    store = await open_storage(str(small))
    await store.close()
    con_big, con_small = sqlite3.connect(big), sqlite3.connect(small)
    cols = "id, channel_id, guild_id, kind, status, host_id, options, seats, seed, rules_version, state, version, " \
           "created_at, updated_at, deadline_at, settings, meta"
    row = con_big.execute(f"SELECT {cols} FROM games WHERE channel_id = ? AND status = 'active'", (active[0],)).fetchone()
    con_small.execute(f"INSERT INTO games ({cols}) VALUES ({', '.join('?' * 17)})", row)
    con_small.commit()
    con_small.close()
    con_big.close()
    startup: dict[str, list[tuple[float, dict[str, Any]]]] = {"one": [], "big": []}
    warm = 1 if cfg.startup_runs > 1 else 0  # a first start-up warms the OS file cache; discarded
    for _ in range(warm + cfg.startup_runs):
        startup["one"].append(_child(small, active[0], [], []))
        startup["big"].append(_child(big, active[0], [], []))
    for key in startup:
        startup[key] = startup[key][warm:]
    wall_big = med([w for w, _ in startup["big"]])
    wall_one = med([w for w, _ in startup["one"]])
    inner = startup["big"][len(startup["big"]) // 2][1]
    rep.add("scale", f"{cfg.scale_games} stored games", "start-up to first answered command (new process)",
            f"{wall_big:.2f} s (1 stored game: {wall_one:.2f} s; imports {inner['import_s']:.2f}, "
            f"open {inner['open_s'] * 1000:.0f} ms, first reply {inner['first_reply_s'] * 1000:.0f} ms)",
            round(wall_big, 3), f"<= {TARGETS['startup_s']:.0f} s", wall_big <= TARGETS["startup_s"])
    sample = active[1:1 + cfg.cold_sample]
    cached = active[1 + cfg.cold_sample:1 + cfg.cold_sample + cfg.cached_games]
    _, mem = _child(big, active[0], sample, cached)
    cold = mem["cold_s"]
    rep.add("scale", f"{cfg.scale_games} stored games", "cold game open (/game status, no image) p50 / p95",
            f"{ms(med(cold)):.1f} / {ms(pct(cold, 95)):.1f} ms", {"p50_ms": ms(med(cold)), "p95_ms": ms(pct(cold, 95))})
    per = (mem["rss_after"] - mem["rss_base"]) / max(1, mem["cached"]) / 1024
    rep.add("scale", f"{mem['cached']} active games cached", "resident memory per cached game",
            f"{per:.1f} KB (RSS {mem['rss_base'] / 2**20:.0f} -> {mem['rss_after'] / 2**20:.0f} MB)",
            round(per, 1), f"<= {TARGETS['kb_per_cached_game']:.0f} KB", per <= TARGETS["kb_per_cached_game"])
    rep.details["scale"] = {"games": cfg.scale_games, "active": len(active), "actions": built["actions"],
                            "build_s": round(build_s, 2), "db_bytes": size,
                            "startup_big": [{"wall_s": w, **d} for w, d in startup["big"]],
                            "startup_one": [{"wall_s": w, **d} for w, d in startup["one"]],
                            "cold_ms": [ms(x) for x in cold], "memory": {k: v for k, v in mem.items() if k != "cold_s"}}


# ---- undo and export -----------------------------------------------------------
def _count_engine() -> Any | None:
    mod = sys.modules.get("fixture_game")
    if mod is None:
        path = ROOT / "tests" / "fixture_game.py"
        if not path.exists():
            return None
        spec = importlib.util.spec_from_file_location("fixture_game", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules["fixture_game"] = mod
        spec.loader.exec_module(mod)
    return mod.ENGINE


def _long_game(games: dict[str, Any], cfg: Config, need: int) -> tuple[str, Any, int, int, dict[str, str],
                                                                      list[tuple[str, Any]]] | None:
    """A shipped game whose seeded random play reaches `need` actions, if there is one."""
    for gid, engine in games.items():
        for k in range(cfg.engine_seeds):
            try:
                opts = default_options(engine)
                p = memo_playout(engine, opts, SEED + 77 * k, fit_seats(engine, opts), cfg.playout_cap)
            except Exception:
                break
            if len(p.steps) >= need + 1:
                return gid, engine, p.seed, p.n, opts, [(pl, a) for pl, a, _, _ in p.steps[:need + 60]]
    return None


async def bench_undo_export(cfg: Config, games: dict[str, Any], rep: Report, tmp: Path) -> None:
    need = cfg.undo_actions
    from bot.manager import GameManager
    from games.core import Action, register
    from storage import open_storage

    found = _long_game(games, cfg, need)
    if found is not None:
        gid, engine, seed, n, opts, script = found
        used = f"{gid} (seeded random play)"
    else:
        engine = _count_engine()
        if engine is None:
            rep.add("undo/export", "all", "skipped", f"no game reaches {need} actions and tests/fixture_game.py is absent")
            return
        register(engine)
        gid, seed, n, opts = engine.id, SEED, 1, {}
        roll, discard, add = Action.of("roll"), Action.of("discard"), Action.of("add", n="1")
        script = [("b1", a) for a in [roll, discard] * ((need - 2) // 2) + [add, add]]
        used = f"count (test fixture: no shipped game reaches {need} actions in random play)"
    store = await open_storage(str(tmp / "undo.sqlite3"))
    try:
        build = GameManager(store, render=False)
        ch = "undo"
        await open_table(build, ch, gid, n, seed, opts)
        done = 0
        undo_times: list[float] = []
        for player, action in script:
            r = await build.dispatch(_ctx(ch, int(player[1:])), gid, action.cmd, dict(action.args))
            if r.ephemeral and r.game_id is None:
                raise SetupFailed(f"move {done + 1} refused: {r.text}")
            done += 1
            if done < need:
                continue
            # at >= need actions: an undo the last actor may take?
            mgr = GameManager(store, render=True)
            k = int(player[1:])
            probe = await mgr.dispatch(_ctx(ch, k), "game", "undo", {})
            if probe.ephemeral:
                continue
            await mgr.dispatch(_ctx(ch, k), gid, action.cmd, dict(action.args))  # redo
            for i in range(cfg.undo_runs + 1):
                t0 = time.perf_counter()
                r = await mgr.dispatch(_ctx(ch, k), "game", "undo", {})
                dt = time.perf_counter() - t0
                if r.ephemeral:
                    raise SetupFailed(f"undo refused: {r.text}")
                if i:  # the first is a warm-up
                    undo_times.append(dt)
                await mgr.dispatch(_ctx(ch, k), gid, action.cmd, dict(action.args))
            break
        if not undo_times:
            raise SetupFailed(f"no undoable position found after {done} actions")
        log_len = len(await store.log((await store.live_game(ch)).id))  # type: ignore[union-attr]
        export_times: list[float] = []
        size = 0
        for i in range(cfg.undo_runs + 1):
            t0 = time.perf_counter()
            r = await mgr.dispatch(_ctx(ch, 1), "game", "export", {})
            dt = time.perf_counter() - t0
            if not r.files:
                raise SetupFailed(f"export failed: {r.text}")
            size = len(r.files[0].data)
            if i:
                export_times.append(dt)
    except SetupFailed as exc:
        rep.add("undo/export", gid, "skipped", str(exc)[:100])
        return
    finally:
        await store.close()
    subject = f"{used}, {log_len} actions"
    rep.add("undo/export", subject, "/game undo p50 / max", f"{ms(med(undo_times)):.1f} / {ms(max(undo_times)):.1f} ms",
            {"p50_ms": ms(med(undo_times)), "max_ms": ms(max(undo_times))}, f"<= {TARGETS['undo_ms']:.0f} ms",
            ms(med(undo_times)) <= TARGETS["undo_ms"])
    rep.add("undo/export", subject, "/game export p50 / max",
            f"{ms(med(export_times)):.1f} / {ms(max(export_times)):.1f} ms ({size / 1024:.0f} KB)",
            {"p50_ms": ms(med(export_times)), "max_ms": ms(max(export_times)), "bytes": size},
            f"<= {TARGETS['export_ms']:.0f} ms", ms(med(export_times)) <= TARGETS["export_ms"])
    rep.details["undo_export"] = {"game": gid, "used": used, "log": log_len, "undo_ms": [ms(x) for x in undo_times],
                                  "export_ms": [ms(x) for x in export_times]}


# ---- output ----------------------------------------------------------------------
ORDER = ("image", "pipeline", "scale", "undo/export", "engines")


def format_table(rep: Report) -> str:
    head = ("section", "subject", "measure", "value", "target")
    ordered = sorted(rep.rows, key=lambda r: ORDER.index(r.section) if r.section in ORDER else len(ORDER))
    rows = [(r.section, r.subject, r.measure, r.text,
             "" if not r.target else f"{r.target} {'ok' if r.ok else 'MISSED'}") for r in ordered]
    widths = [min(60, max(len(h), *(len(x[i]) for x in rows))) if rows else len(h) for i, h in enumerate(head)]
    widths[3] = max(len(head[3]), *(len(x[3]) for x in rows)) if rows else len(head[3])
    line = "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    last = None
    for x in rows:
        if last is not None and x[0] != last:
            out.append("")
        last = x[0]
        out.append("  ".join(v.ljust(w) for v, w in zip(x, widths, strict=True)).rstrip())
    return "\n".join(out)


def _meta(quick: bool) -> dict[str, Any]:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                timeout=10, check=False).stdout.strip()
    except Exception:
        commit = ""
    return {"quick": quick, "python": sys.version.split()[0], "platform": platform.platform(),
            "cpus": os.cpu_count(), "commit": commit, "seed": SEED, "started_at": time.time(),
            "loadavg_start": list(os.getloadavg())}


async def run(quick: bool = False) -> Report:
    cfg = QUICK if quick else FULL
    rep = Report()
    rep.details["meta"] = _meta(quick)
    rep.details["config"] = cfg.__dict__
    rep.details["targets"] = TARGETS
    games = bench_games()
    rep.details["games"] = sorted(games)
    t0 = time.perf_counter()
    sections: list[tuple[str, Callable[[], Any]]] = []
    with tempfile.TemporaryDirectory(prefix="playpost-bench-") as d:
        tmp = Path(d)
        sections = [
            ("image", lambda: bench_images(cfg, games, rep)),
            ("scale", lambda: bench_scale(cfg, games, rep, tmp)),
            ("undo/export", lambda: bench_undo_export(cfg, games, rep, tmp)),
            ("engines", lambda: rep.details.__setitem__("engines", bench_engines(cfg, games, rep))),
            # last, with the seeded playouts (thousands of states) freed: their garbage-collector
            # scans would otherwise show up as event-loop stalls the bot does not have
            ("pipeline", lambda: bench_pipeline(cfg, games, rep, tmp)),
        ]
        timings = {}
        for name, fn in sections:
            if name == "pipeline":
                _PLAYOUTS.clear()
                gc.collect()
            s0 = time.perf_counter()
            try:
                out = fn()
                if asyncio.iscoroutine(out):
                    await out
            except Exception as exc:  # one broken section must not hide the others
                rep.add(name, "all", "failed", f"{type(exc).__name__}: {exc}"[:120])
            timings[name] = round(time.perf_counter() - s0, 2)
    rep.details["section_s"] = timings
    rep.details["total_s"] = round(time.perf_counter() - t0, 2)
    rep.details["meta"]["loadavg_end"] = list(os.getloadavg())
    return rep


def to_json(rep: Report) -> dict[str, Any]:
    ordered = sorted(rep.rows, key=lambda r: ORDER.index(r.section) if r.section in ORDER else len(ORDER))
    return {"rows": [r.__dict__ for r in ordered], **rep.details}


def main(json_path: str | None = None, quick: bool = False) -> int:
    rep = asyncio.run(run(quick))
    meta = rep.details["meta"]
    print(f"playpost bench ({'quick' if quick else 'full'}; {meta['cpus']} CPUs, Python {meta['python']}, "
          f"{rep.details['total_s']:.0f} s; load average {meta['loadavg_start'][0]:.1f} at start, "
          f"{meta['loadavg_end'][0]:.1f} at end)")
    print(format_table(rep))
    if json_path:
        path = Path(json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(to_json(rep), indent=1, default=str) + "\n", encoding="utf-8")
        print(f"JSON written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else None, quick="--quick" in sys.argv))
