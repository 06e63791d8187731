"""undo/export: `/game undo` and `/game export` of a game with a long log (500 actions in a full run), and how
long the event loop waits meanwhile (their rules work runs in a rules worker: the log's replay of an undo after a
restart, the export's state and JSON)."""
from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable
from pathlib import Path

from bot.manager import GameManager
from bot.reply import Reply
from games.core import Action
from storage import open_storage

from .common import (
    SEED,
    TARGETS,
    Config,
    Engine,
    SetupFailed,
    ctx,
    default_options,
    fit_seats,
    frozen_heap,
    med,
    ms,
    open_table,
    played,
)
from .report import Report

TICK = 0.002  # the loop-lag probe's sleep


async def _lagged(work: Awaitable[Reply]) -> tuple[Reply, float, float]:
    """`work`'s reply, its seconds, and the event loop's longest lag meanwhile (a probe sleeping TICK at a time)."""
    lags: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        while not done.is_set():
            a = time.perf_counter()
            await asyncio.sleep(TICK)
            lags.append(max(0.0, time.perf_counter() - a - TICK))

    task = asyncio.create_task(probe())
    await asyncio.sleep(0)  # the probe is asleep before the work starts
    t0 = time.perf_counter()
    reply = await work
    dt = time.perf_counter() - t0
    done.set()
    await task
    return reply, dt, max(lags, default=0.0)


def _long_game(games: dict[str, Engine], cfg: Config, need: int) -> tuple[str, int, int, dict[str, str],
                                                                          list[tuple[str, Action]]] | None:
    """A shipped game whose seeded random play goes past `need` actions, if there is one:
    its id, seed, seats, options, and the moves (60 more than needed, for an undoable position)."""
    for gid, engine in games.items():
        for k in range(cfg.engine_seeds):
            try:
                opts = default_options(engine)
                game = played(engine, opts, SEED + 77 * k, fit_seats(engine, opts), cfg.playout_cap)
            except Exception:
                break
            moves = [(s.player, s.action) for s in game.steps if s.action.cmd not in engine.anytime_commands]
            if len(moves) >= need + 1:  # (settings left out: a long game, not a long list of standing orders)
                return gid, game.seed, game.n, opts, moves[:need + 60]
    return None


async def bench_undo_export(cfg: Config, games: dict[str, Engine], rep: Report, tmp: Path) -> None:
    need = cfg.undo_actions
    found = _long_game(games, cfg, need)
    if found is None:
        rep.add("undo/export", "all", "skipped", f"no game reaches {need} actions in seeded random play")
        return
    gid, seed, n, opts, script = found
    with frozen_heap():  # the seeded games played above stay out of the collector's scans while undo is timed
        store = await open_storage(str(tmp / "undo.sqlite3"))
        try:
            build = GameManager(store, render=False)
            ch = "undo"
            await open_table(build, ch, gid, n, seed, opts)
            done = 0
            undo_times: list[float] = []
            cold_times: list[float] = []  # undo in a fresh manager (a restart), and the loop's longest lag meanwhile
            cold_lags: list[float] = []
            mgr: GameManager | None = None  # a fresh one for each probe below
            # seeded random moves chosen from the table's own game as it goes: the table plays a move with nothing
            # to choose by itself (`Game.forced_action`), so a script played beforehand drifts from it (a Heroball
            # turn it ended while the script went on changing standing orders); settings are left out
            engine = games[gid]
            pick = random.Random(seed)
            while done < len(script):
                live = await store.live_game(ch)
                if live is None or live.state is None:
                    break
                state = engine.load(live.state)
                st = engine.status(state)
                if st.finished or not st.to_act:
                    break
                player = pick.choice(st.to_act)
                legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands]
                if not legal:
                    raise SetupFailed(f"{player} has no move after {done} actions")
                action = pick.choice(legal)
                r = await build.dispatch(ctx(ch, int(player[1:])), gid, action.cmd, dict(action.args))
                if r.ephemeral and r.game_id is None:
                    raise SetupFailed(f"move {done + 1} refused: {r.text}")
                done = len(await store.log(live.id))
                if done < need:
                    continue
                # at >= need actions: an undo the last actor may take?
                mgr = GameManager(store, render=True)
                k = int(player[1:])
                probe = await mgr.dispatch(ctx(ch, k), "game", "undo", {})
                if probe.ephemeral:
                    continue
                await mgr.dispatch(ctx(ch, k), gid, action.cmd, dict(action.args))  # redo
                for i in range(cfg.undo_runs + 1):
                    t0 = time.perf_counter()
                    r = await mgr.dispatch(ctx(ch, k), "game", "undo", {})
                    dt = time.perf_counter() - t0
                    if r.ephemeral:
                        raise SetupFailed(f"undo refused: {r.text}")
                    if i:  # the first is a warm-up
                        undo_times.append(dt)
                    await mgr.dispatch(ctx(ch, k), gid, action.cmd, dict(action.args))
                for _ in range(cfg.undo_runs):  # after a restart: nothing kept, the log is replayed
                    restarted = GameManager(store, render=False)
                    r, dt, lag = await _lagged(restarted.dispatch(ctx(ch, k), "game", "undo", {}))
                    if r.ephemeral:
                        raise SetupFailed(f"undo after a restart refused: {r.text}")
                    cold_times.append(dt)
                    cold_lags.append(lag)
                    await mgr.dispatch(ctx(ch, k), gid, action.cmd, dict(action.args))
                break
            if mgr is None or not undo_times:
                raise SetupFailed(f"no undoable position found after {done} actions")
            rec = await store.live_game(ch)
            if rec is None:
                raise SetupFailed("the game ended")
            log_len = len(await store.log(rec.id))
            export_times: list[float] = []
            export_lags: list[float] = []
            size = 0
            for i in range(cfg.undo_runs + 1):
                r, dt, lag = await _lagged(mgr.dispatch(ctx(ch, 1), "game", "export", {}))
                if not r.files:
                    raise SetupFailed(f"export failed: {r.text}")
                size = len(r.files[0].data)
                if i:
                    export_times.append(dt)
                    export_lags.append(lag)
        except SetupFailed as exc:
            rep.add("undo/export", gid, "skipped", str(exc)[:100])
            return
        finally:
            await store.close()
    subject = f"{gid} (seeded random play), {log_len} actions"
    rep.add("undo/export", subject, "/game undo p50 / max", f"{ms(med(undo_times)):.1f} / {ms(max(undo_times)):.1f} ms",
            {"p50_ms": ms(med(undo_times)), "max_ms": ms(max(undo_times))}, f"<= {TARGETS['undo_ms']:.0f} ms",
            ms(med(undo_times)) <= TARGETS["undo_ms"])
    rep.add("undo/export", subject, "/game export p50 / max",
            f"{ms(med(export_times)):.1f} / {ms(max(export_times)):.1f} ms ({size / 1024:.0f} KB)",
            {"p50_ms": ms(med(export_times)), "max_ms": ms(max(export_times)), "bytes": size},
            f"<= {TARGETS['export_ms']:.0f} ms", ms(med(export_times)) <= TARGETS["export_ms"])
    rep.add("undo/export", subject, "/game undo after a restart (the log replayed) p50 / max",
            f"{ms(med(cold_times)):.1f} / {ms(max(cold_times)):.1f} ms",
            {"p50_ms": ms(med(cold_times)), "max_ms": ms(max(cold_times))})
    held = max(cold_lags + export_lags)
    rep.add("undo/export", subject, "event-loop lag max during undo after a restart / export",
            f"{ms(max(cold_lags)):.1f} / {ms(max(export_lags)):.1f} ms",
            {"undo_ms": ms(max(cold_lags)), "export_ms": ms(max(export_lags))},
            f"<= {TARGETS['loop_lag_ms']:.0f} ms", ms(held) <= TARGETS["loop_lag_ms"])
    rep.details["undo_export"] = {"game": gid, "used": f"{gid} (seeded random play)", "log": log_len,
                                  "undo_ms": [ms(x) for x in undo_times], "export_ms": [ms(x) for x in export_times],
                                  "undo_after_restart_ms": [ms(x) for x in cold_times],
                                  "loop_lag_undo_after_restart_ms": [ms(x) for x in cold_lags],
                                  "loop_lag_export_ms": [ms(x) for x in export_lags]}
