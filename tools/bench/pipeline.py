"""pipeline: `GameManager.dispatch` under C channels playing random legal moves, as Discord drives it.

First the capacity: moves/s with images when enough channels (each waiting for its move's board
before the next move) keep every stage busy, over a 7 s window (its 1 s sub-windows' spread is reported
beside it: how steady the machine was). Then paced load at shares of that capacity
(50 %, 70 %), a 10x overload: ten times those channels in a closed loop, and the capacity once more.
The run then checks its own evidence: a capacity figure the machine could not sustain shows as an
overload answering less than it, a 70 % run answering less than it was offered, or a second capacity
well below the first (`capacity_check`). In the paced and overload runs players behave as in Discord:
a reply shows with its board when that is drawn within the adapter's wait (PLAYPOST_IMAGE_WAIT_MS),
else with its text (the board follows), and the player goes on from there, so under overload a
channel's moves pile up and only its newest board is drawn.

A move is *answered* when its text and a board showing it are out: its own board, or a newer board
of its channel that took the place of its own (bot/pipeline.py). Moves/s counts answered moves.
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import math
import random
import threading
import time
from collections.abc import Iterator, Sequence
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
STALL = 0.010  # a loop lag above this counts as a stall (counted above it and above 20 ms)
GRACE = 5.0  # seconds a run waits for moves still queued after its window before cutting them off
SLICE_S = 1.0  # a sub-window's length at most
SLICE_MOVES = 20  # answered moves a sub-window holds at least on average (fewer and longer on a slow machine)
BEHIND = 0.10  # a paced run answering this share less than it was offered fell behind
FALLEN = 0.20  # a second capacity this share below the first: the first was not sustained


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
    return await mgr.table.load(rec, t.engine)


async def next_move(mgr: GameManager, t: Table, pick: random.Random) -> tuple[str, Action] | None:
    """A random legal move: one of the reply's buttons or menu choices when it has them (what a
    player clicks), else from the engine's legal actions. None when the game is over."""
    if t.last.finished and not t.stale:
        return None
    if t.last.buttons and not t.stale:
        b = pick.choice(t.last.buttons)
        return b.player, Action.parse(b.action)
    if t.last.menus and not t.stale:
        m = pick.choice(t.last.menus)
        return m.player, Action.parse(pick.choice(m.options)[1])
    state = await current_state(mgr, t)
    st = None if state is None else t.engine.status(state)
    if state is None or st is None or st.finished or not st.to_act:
        return None
    player = pick.choice(st.to_act)
    # the player's side, not the bot's: kept off the event loop whose lag is measured
    return player, pick.choice(await asyncio.to_thread(t.engine.legal_actions, state, player))


@dataclass
class Load:
    """What one run of the drivers measured."""

    lat: list[float] = field(default_factory=list)  # click -> answered (text and a board showing the move)
    text_lat: list[float] = field(default_factory=list)  # click -> text
    lags: list[float] = field(default_factory=list)
    stalls: list[tuple[float, float]] = field(default_factory=list)  # (when the tick began, lag) of lags > 10 ms
    window: tuple[float, float] = (0.0, 0.0)  # the measured window (perf_counter)
    gc_cpu: list[float] = field(default_factory=list)  # CPU time of each garbage collection begun in the window
    errors: list[str] = field(default_factory=list)
    done_in_window: int = 0  # moves answered within the window
    answered_at: list[float] = field(default_factory=list)  # when each of those was answered (perf_counter)
    started: int = 0  # moves sent, in the window or not
    restarts: int = 0
    censored: int = 0
    drain_s: float = 0.0
    loop_cpu_s: float = 0.0  # CPU time of the event loop's thread within the window
    boards_drawn: int = 0  # within the window
    peak_queued: dict[str, int] = field(default_factory=dict)
    draw_ms: float = 0.0  # mean time a board spent drawing (in its render slot)


class Collections:
    """Times each garbage collection begun within a window, in CPU time of the thread that ran it: a collection
    holds the GIL, so the event loop waits that long whichever thread it ran in (gc.callbacks)."""

    def __init__(self, start: float, end: float, into: list[float]) -> None:
        self.start, self.end, self.cpu = start, end, into
        self._began: dict[int, float] = {}

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        thread = threading.get_ident()
        if phase == "start":
            if self.start <= time.perf_counter() < self.end:
                self._began[thread] = time.thread_time()
        elif (t0 := self._began.pop(thread, None)) is not None:
            self.cpu.append(time.thread_time() - t0)


async def _warm(mgr: GameManager, tables: list[Table], workers: int) -> None:
    """Draw each game's board once per render worker before measuring: a bot has its workers
    running, renderers imported, long before the first click."""
    firsts = {t.gid: t for t in tables}.values()
    boards = [(t, await current_state(mgr, t)) for t in firsts]
    await asyncio.gather(*[mgr.image(t.gid, t.engine, s) for t, s in boards if s is not None
                           for _ in range(max(1, workers))])


async def run_load(storage: Storage, tables: list[Table], *, think: float, warmup: float, window: float,
                   seed: int, patience: float | None = None, render: bool = True) -> Load:
    """Drivers, one per table: a random legal move, wait for the reply, think (0: closed loop), again.

    `render` False: no boards at all (the rules and storage path alone).
    `patience` None: a player waits for the move's board before going on. Else as in Discord: the
    reply shows once its board is drawn or superseded, or after `patience` seconds with its text
    alone (the board is added later), and the player goes on from there.
    Measured: moves started in the window after the warm-up."""
    # the bot's configuration: boards drawn in worker processes, its queue sizes
    settings = Settings()
    workers = RENDER_WORKERS if RENDER_WORKERS is not None else settings.render_workers()
    mgr = GameManager(storage, render=render, render_workers=workers if render else 0, limits=settings.limits())
    tune_runtime()  # as the bot does at start-up
    if render:
        await _warm(mgr, tables, workers)
    res = Load()
    pending: dict[int, float] = {}  # move -> its click (measured moves not answered yet)
    ids = itertools.count()
    boards: set[asyncio.Task[None]] = set()
    t_start = time.perf_counter()
    t_meas, t_end = t_start + warmup, t_start + warmup + window
    res.window = (t_meas, t_end)
    scans = Collections(t_meas, t_end, res.gc_cpu)
    gc.callbacks.append(scans)
    stop = asyncio.Event()

    async def ticker() -> None:
        tick = 0.005
        cpu0 = drawn0 = None
        while not stop.is_set():
            a = time.perf_counter()
            await asyncio.sleep(tick)
            b = time.perf_counter()
            if t_meas <= a < t_end:
                res.lags.append(lag := max(0.0, b - a - tick))
                if lag > STALL:
                    res.stalls.append((a, lag))
                if cpu0 is None:
                    cpu0, drawn0 = time.thread_time(), mgr.table.boards.drawn
            elif a >= t_end and cpu0 is not None and drawn0 is not None:
                res.loop_cpu_s, res.boards_drawn = time.thread_time() - cpu0, mgr.table.boards.drawn - drawn0
                cpu0 = drawn0 = None

    async def answered(move: int, t0: float, reply: Reply) -> None:
        if reply.board is not None:
            await reply.board.image()  # its own board, or the newer one that took its place
        t2 = time.perf_counter()
        if pending.pop(move, None) is not None:
            res.lat.append(t2 - t0)
        if t_meas <= t2 < t_end:
            res.done_in_window += 1
            res.answered_at.append(t2)

    async def drive(i: int, t: Table) -> None:
        pick = random.Random(seed * 1_000_003 + i)
        # the first wait is drawn from the think time's equilibrium residual, so the arrivals are
        # stationary from the start: density (1 - x / 2T) / T on [0, 2T], by inverting its CDF
        wait = 2 * think * (1 - math.sqrt(1 - pick.random())) if think else 0.0
        mine = 0  # this driver's moves sent: the first is always sent, so a slow machine still measures one
        while True:
            if think:
                if mine and time.perf_counter() + wait >= t_end:
                    return  # the next click would fall after the window: stop now, not after the wait
                await asyncio.sleep(wait)
                wait = pick.uniform(0, 2 * think)
            if mine and time.perf_counter() >= t_end:
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
            n = next(ids)
            t0 = time.perf_counter()
            in_window = t_meas <= t0 < t_end
            if in_window:
                pending[n] = t0
            t.stale = True  # until the reply is in (a move cut off below leaves the buttons unknown)
            mine += 1
            res.started += 1
            reply = await mgr.dispatch(ctx(t.channel, k, image_later=True), t.gid, action.cmd, dict(action.args))
            t1 = time.perf_counter()
            if reply.ephemeral and reply.game_id is None:
                pending.pop(n, None)
                res.errors.append(reply.text[:120])
                return
            t.last, t.stale = reply, False
            if in_window:
                res.text_lat.append(t1 - t0)
            if patience is None:
                await answered(n, t0, reply)
                continue
            task = asyncio.create_task(answered(n, t0, reply))  # its board is waited for aside
            boards.add(task)
            task.add_done_callback(boards.discard)
            if reply.board is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reply.board.settled(), patience)

    tick = asyncio.create_task(ticker())
    drivers = [asyncio.create_task(drive(i, t)) for i, t in enumerate(tables)]
    # an overloaded run is not waited out: after a grace period the moves still queued are cut off
    # and counted as censored samples (latency at least the time they waited)
    deadline = t_end + GRACE
    _, late = await asyncio.wait(drivers, timeout=max(0.0, deadline - time.perf_counter()))
    await asyncio.sleep(max(0.0, t_end + 0.02 - time.perf_counter()))  # paced drivers may stop early: the window ends
    if boards:
        await asyncio.wait(set(boards), timeout=max(0.01, deadline - time.perf_counter()))
    now = time.perf_counter()
    res.censored = len(pending)
    res.lat.extend(now - t0 for t0 in pending.values())
    for task in [*late, *boards]:
        task.cancel()
    await asyncio.gather(*late, *boards, return_exceptions=True)
    gc.callbacks.remove(scans)
    for task in drivers:
        if task.done() and not task.cancelled() and (exc := task.exception()) is not None:
            raise exc
    stop.set()
    await tick
    table = mgr.table
    res.peak_queued = {s.name: s.peak_waiting for s in (table.apply, table.rules, table.render)}
    res.draw_ms = table.boards.drawing_s / table.boards.drawn * 1000 if table.boards.drawn else 0.0
    mgr.close()
    res.drain_s = time.perf_counter() - t_end
    return res


# ---- a capacity robust to the machine's noise, and the checks of it -----------------
def slices(window: float, answered: int) -> int:
    """How many equal sub-windows a window is cut into: about 1 s each, each holding enough moves."""
    return max(1, min(int(window / SLICE_S + 1e-9), answered // SLICE_MOVES))


def sub_window_rates(times: Sequence[float], start: float, end: float, k: int) -> list[float]:
    """Moves/s in each of k equal sub-windows of [start, end), from the times the moves were answered."""
    if k < 1 or end <= start:
        return []
    width = (end - start) / k
    counts = [0] * k
    for t in times:
        if start <= t < end:
            counts[min(k - 1, int((t - start) / width))] += 1
    return [c / width for c in counts]


def rate_spread(res: Load) -> dict[str, Any]:
    """A run's answered moves/s per sub-window: min / median / max, and each of them."""
    start, end = res.window
    k = slices(end - start, len(res.answered_at))
    rates = sub_window_rates(res.answered_at, start, end, k)
    return {"slices": k, "slice_s": round((end - start) / k, 3), "min": round(min(rates, default=0.0), 1),
            "median": round(med(rates), 1) if rates else 0.0, "max": round(max(rates, default=0.0), 1),
            "each": [round(r, 1) for r in rates]}


def capacity_check(capacity: float, offered_70: float | None, answered_70: float | None,
                   overload: float | None, again: float | None) -> dict[str, Any]:
    """What the run's own figures say of its capacity figure: more than the machine sustained, or less.

    Evidence only, no target: the paced runs are offered shares of that figure, so one read too high
    turns "70 %" into a saturated run. Flagged as unsustainable: the overload (which coalesces boards, so
    answers more than capacity when the figure holds) answered less; the 70 % run answered more than
    BEHIND less than it was offered; the capacity measured again after the runs fell more than FALLEN
    below it. Flagged as understated (the paced runs were offered less than their shares): the second
    capacity rose as far above the first."""
    flags: list[str] = []
    if overload is not None and overload < capacity:
        flags.append(f"10x overload answered {overload:.0f} < capacity {capacity:.0f} moves/s")
    if offered_70 is not None and answered_70 is not None and answered_70 < (1 - BEHIND) * offered_70:
        flags.append(f"70 % run answered {answered_70:.0f} of {offered_70:.0f} moves/s offered "
                     f"({1 - answered_70 / offered_70:.0%} behind)")
    if again is not None and again < (1 - FALLEN) * capacity:
        flags.append(f"capacity measured again {again:.0f} < {1 - FALLEN:.0%} of {capacity:.0f} moves/s")
    sustainable = not flags
    understated = again is not None and again > capacity / (1 - FALLEN)
    if understated:
        flags.append(f"capacity measured again {again:.0f} > {1 / (1 - FALLEN):.0%} of {capacity:.0f} moves/s: "
                     "the paced runs were offered less than their shares")

    def share(x: float | None, of: float | None) -> float | None:
        return round(x / of, 3) if x is not None and of else None

    return {"capacity_moves_per_s": capacity, "offered_70_moves_per_s": offered_70,
            "answered_70_moves_per_s": answered_70, "answered_70_share_of_offered": share(answered_70, offered_70),
            "overload_moves_per_s": overload, "overload_share_of_capacity": share(overload, capacity),
            "capacity_again_moves_per_s": again, "capacity_again_share": share(again, capacity),
            # what the 70 % run was offered, as a share of the capacity measured after it
            "offered_70_share_of_again": share(offered_70, again),
            "sustainable": sustainable, "understated": understated, "flags": flags}


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
    n = max(cfg.capacity_channels, cfg.overload_channels, cfg.paced_channels)
    tables: list[Table] = []
    for i in range(n):
        gid = mix[i % len(mix)]
        seeds = itertools.count(SEED + 1000 * i)
        ch = f"ch{i}"
        k, opts = plans[gid]
        tables.append(Table(ch, gid, games[gid], k, opts, seeds,
                            await open_table(setup_mgr, ch, gid, k, next(seeds), opts)))
    setup_mgr.close()
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
        details: list[dict[str, Any]] = []

        patience = Settings().playpost_image_wait_ms / 1000  # as the Discord adapter waits for a board

        async def run(kind: str, subject: str, channels: int, think: float, wait: float | None) -> dict[str, Any]:
            closed = think == 0
            warm, window = (cfg.closed_warmup, cfg.closed_window) if closed else (cfg.paced_warmup, cfg.paced_window)
            if kind == "overload":
                warm = cfg.overload_warmup
            if kind.startswith("capacity"):
                window = cfg.capacity_window
            gc.collect()
            res = await run_load(storage, tables[:channels], think=think, warmup=warm, window=window,
                                 seed=SEED + channels, patience=wait)
            row = {"run": kind, "channels": channels, "think_mean_s": think, "board_patience_s": wait,
                   "warmup_s": warm, "window_s": window} | _figures(res, window)
            details.append(row)
            _rows(rep, subject, row, res)
            return row

        c = cfg.capacity_channels
        closed_c = f"{c} channels, closed loop, each waits for its board"
        first = await run("capacity", f"capacity: {closed_c}", c, 0.0, None)
        # the whole window's rate: in ten back-to-back runs it varied less (88-106 moves/s) than the median of
        # its sub-windows (91-116), which only ignores a one-off stall or burst (the check below catches those)
        capacity = first["moves_per_s"]
        _capacity_row(rep, f"capacity: {closed_c}", first)
        pipe = rep.details["pipeline"] = {"mix": mix, "setup_s": round(setup_s, 2), "capacity_moves_per_s": capacity,
                                          "capacity_spread": _spread_of(first), "runs": details}
        if capacity <= 0:
            rep.add("pipeline", "all", "skipped", "no move was answered in the capacity run")
            return
        await _idle(rep, cfg.closed_window)
        n = cfg.paced_channels
        offered_70 = answered_70 = None
        for share in cfg.paced_shares:
            think = n / (share * capacity)  # n channels, each one move per think time on average
            row = await run(f"paced {share:.0%}", f"paced {share:.0%} of capacity: {n} channels, "
                            f"~{share * capacity:.0f} moves/s offered", n, think, patience)
            row["offered_moves_per_s"] = round(share * capacity, 1)
            if share == 0.7:
                _target_70(rep, row)
                offered_70, answered_70 = row["offered_moves_per_s"], row["moves_per_s"]
        o = cfg.overload_channels
        row = await run("overload", f"{o // c}x overload: {o} channels, closed loop", o, 0.0, patience)
        _target_overload(rep, row, capacity)
        # the same capacity run once more: the machine's load may have changed under the runs
        again = await run("capacity again", f"capacity again, after the overload: {c} channels", c, 0.0, None)
        _capacity_row(rep, f"capacity again, after the overload: {c} channels", again)
        pipe["capacity_again_moves_per_s"] = again["moves_per_s"]
        pipe["capacity_again_spread"] = _spread_of(again)
        check = pipe["capacity_check"] = capacity_check(capacity, offered_70, answered_70, row["moves_per_s"],
                                                        again["moves_per_s"])
        _check_row(rep, check)
    finally:
        await storage.close()


async def _idle(rep: Report, window: float) -> None:
    """The same ticker with nothing else to do: how late the machine itself wakes the loop."""
    lags: list[float] = []
    tick, end = 0.005, time.perf_counter() + window
    while (a := time.perf_counter()) < end:
        await asyncio.sleep(tick)
        lags.append(max(0.0, time.perf_counter() - a - tick))
    rep.add("pipeline", "idle: the event loop with nothing to do (the machine's own noise)",
            "event-loop lag p99 / max", f"{ms(pct(lags, 99)):.1f} / {ms(max(lags)):.1f} ms",
            {"p99_ms": ms(pct(lags, 99)), "max_ms": ms(max(lags))})
    rep.details.setdefault("pipeline", {})["idle_lag_ms"] = {"p99": ms(pct(lags, 99)), "max": ms(max(lags))}


def _figures(res: Load, window: float) -> dict[str, Any]:
    lat, lags, moves = res.lat, res.lags, res.done_in_window
    return {"moves_per_s": round(moves / window, 1), "sub_windows": rate_spread(res),
            "p50_ms": ms(med(lat)), "p90_ms": ms(pct(lat, 90)),
            "p99_ms": ms(pct(lat, 99)), "max_ms": ms(max(lat)) if lat else None, "moves": len(lat),
            "moves_started": res.started,
            "text_p50_ms": ms(med(res.text_lat)), "text_p99_ms": ms(pct(res.text_lat, 99)),
            "lag_p99_ms": ms(pct(lags, 99)), "lag_max_ms": ms(max(lags) if lags else float("nan")),
            "gc_count": len(res.gc_cpu), "gc_max_ms": ms(max(res.gc_cpu, default=0.0)),
            "gc_over_5ms": sum(c > 0.005 for c in res.gc_cpu), "gc_cpu_ms": ms(sum(res.gc_cpu)),
            "stalls_over_10ms": len(res.stalls), "stalls_over_20ms": sum(lag > 0.020 for _, lag in res.stalls),
            "loop_cpu_ms_per_move": ms(res.loop_cpu_s / moves) if moves else None,
            "boards_per_move": round(res.boards_drawn / moves, 2) if moves else None,
            "draw_ms_per_board": round(res.draw_ms, 1),
            "peak_queued": res.peak_queued, "games_restarted": res.restarts, "drain_s": round(res.drain_s, 2),
            "censored": res.censored, "errors": res.errors[:5]}


def _rows(rep: Report, subject: str, f: dict[str, Any], res: Load) -> None:
    cut = f["censored"]
    ge = ">= " if cut else ""  # moves cut off count at their wait so far: a lower bound
    rep.add("pipeline", subject, "moves/s | answered p50 / p99 | text p99",
            f"{f['moves_per_s']:.0f}/s | {ge}{f['p50_ms']:.1f} / {ge}{f['p99_ms']:.1f} ms | "
            f"{f['text_p99_ms']:.1f} ms (n={f['moves']}" + (f", {cut} cut off still queued)" if cut else ")"),
            {k: f[k] for k in ("moves_per_s", "p50_ms", "p99_ms", "text_p99_ms", "moves", "censored")})
    rep.add("pipeline", subject, "event-loop lag p99 / max | stalls > 10 / > 20 ms",
            f"{f['lag_p99_ms']:.1f} / {f['lag_max_ms']:.1f} ms | {f['stalls_over_10ms']} / {f['stalls_over_20ms']}",
            {"p99_ms": f["lag_p99_ms"], "max_ms": f["lag_max_ms"], "stalls_over_10ms": f["stalls_over_10ms"],
             "stalls_over_20ms": f["stalls_over_20ms"]})
    cpu, per = f["loop_cpu_ms_per_move"], f["boards_per_move"]
    rep.add("pipeline", subject, "loop CPU per move | boards drawn per move (drawing each)",
            f"{cpu if cpu is not None else float('nan'):.2f} ms | {per if per is not None else float('nan'):.2f} "
            f"({f['draw_ms_per_board']:.1f} ms)", {"loop_cpu_ms": cpu, "boards_per_move": per,
                                                  "draw_ms": f["draw_ms_per_board"]})
    rep.add("pipeline", subject, "garbage collections: longest | > 5 ms | all (CPU)",
            f"{f['gc_max_ms']:.1f} ms | {f['gc_over_5ms']} of {f['gc_count']} | {f['gc_cpu_ms']:.0f} ms",
            {k: f[k] for k in ("gc_max_ms", "gc_over_5ms", "gc_count", "gc_cpu_ms")})
    if res.errors:
        rep.add("pipeline", subject, "refused moves", f"{len(res.errors)}: {res.errors[0]}"[:100])


def _spread_of(f: dict[str, Any]) -> dict[str, Any]:
    return {k: f["sub_windows"][k] for k in ("min", "median", "max", "slices", "slice_s")} | {
        "whole_window": f["moves_per_s"]}


def _capacity_row(rep: Report, subject: str, f: dict[str, Any]) -> None:
    sw = f["sub_windows"]
    rep.add("pipeline", subject, "capacity: moves/s per sub-window min / median / max",
            f"{sw['min']:.0f} / {sw['median']:.0f} / {sw['max']:.0f} moves/s ({sw['slices']} of {sw['slice_s']:.1f} s;"
            f" whole window {f['moves_per_s']:.0f}/s)", _spread_of(f))


def _check_row(rep: Report, check: dict[str, Any]) -> None:
    """The capacity check's figures in one row, flagged when they say the capacity was read too high or low."""
    def part(x: float | None, of: float | None, share: float | None) -> str:
        return "-" if x is None or of is None or share is None else f"{x:.0f} / {of:.0f} ({share:.0%})"

    cap = check["capacity_moves_per_s"]
    parts = (part(check["answered_70_moves_per_s"], check["offered_70_moves_per_s"],
                  check["answered_70_share_of_offered"]),
             part(check["overload_moves_per_s"], cap, check["overload_share_of_capacity"]),
             part(check["capacity_again_moves_per_s"], cap, check["capacity_again_share"]))
    verdict = ("LOOKS UNSUSTAINABLE: " if not check["sustainable"] else "LOOKS TOO LOW: " if check["understated"]
               else "looks sustainable") + "; ".join(check["flags"])
    rep.add("pipeline", "capacity check (evidence, not a target)",
            "70 % run answered / offered | overload / capacity | capacity again / first",
            " | ".join(parts) + f": {verdict}",
            {k: check[k] for k in ("sustainable", "understated", "flags")})


def _target_70(rep: Report, f: dict[str, Any]) -> None:
    p99, lag = f["p99_ms"], f["lag_max_ms"]
    rep.add("pipeline", "target at 70 % of capacity", "move latency p99", f"{p99:.1f} ms", p99,
            f"<= {TARGETS['p99_ms_at_70pct']:.0f} ms", p99 <= TARGETS["p99_ms_at_70pct"])
    rep.add("pipeline", "target at 70 % of capacity", "event-loop lag max", f"{lag:.1f} ms", lag,
            f"<= {TARGETS['loop_lag_ms']:.0f} ms", lag <= TARGETS["loop_lag_ms"])


def _target_overload(rep: Report, f: dict[str, Any], capacity: float) -> None:
    share, lag = f["moves_per_s"] / capacity, f["lag_max_ms"]
    rep.add("pipeline", "target at 10x overload", "throughput / capacity",
            f"{f['moves_per_s']:.0f} / {capacity:.0f} moves/s = {share:.0%}", round(share, 3),
            f">= {TARGETS['overload_share']:.0%}", share >= TARGETS["overload_share"])
    rep.add("pipeline", "target at 10x overload", "event-loop lag max", f"{lag:.1f} ms", lag,
            f"<= {TARGETS['loop_lag_ms']:.0f} ms", lag <= TARGETS["loop_lag_ms"])
