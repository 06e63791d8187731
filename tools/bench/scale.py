"""scale: a database of many stored games, and a fresh bot process (`child.py`) started on it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.manager import DEFAULT_SETTINGS
from storage import GameRecord, LogEntry, SeatRecord, open_storage

from .common import (
    ROOT,
    SEED,
    TARGETS,
    Config,
    Engine,
    SetupFailed,
    default_options,
    fit_seats,
    med,
    ms,
    pct,
    played,
    seats_for,
)
from .report import Report

NOW = 1_767_225_600.0  # the stored games' clock
BATCH = 500  # games per transaction while building


@dataclass(frozen=True)
class Template:
    """One seeded random game, ready to be stored many times: whole (finished) or halfway (active)."""

    seed: int
    n: int
    options: dict[str, str]
    finished: bool
    final: str
    mid: str
    log: list[LogEntry]
    half: list[LogEntry]


def _templates(engine: Engine, seeds: int, cap: int) -> list[Template]:
    out = []
    for k in range(seeds):
        opts = default_options(engine)
        game = played(engine, opts, SEED + 77 * k, fit_seats(engine, opts), cap)
        log = [LogEntry(seq=seq, player=s.player, action=s.action.text(), turn_key=s.turn_key, barrier=s.barrier,
                        at=NOW + seq * 60) for seq, s in enumerate(game.steps, start=1)]
        half = len(log) // 2
        out.append(Template(game.seed, game.n, opts, game.finished, engine.dump(game.states[-1]),
                            engine.dump(game.states[half]), log, log[:half]))
    return out


async def build_db(path: Path, games: dict[str, Engine], cfg: Config, rep: Report) -> tuple[list[str], int]:
    """Store cfg.scale_games games through the storage interface, one in scale_active_every active
    (halfway through), the rest finished (or abandoned at the playout cap).
    Returns the active games' channels and the number of actions logged."""
    templates: dict[str, list[Template]] = {}
    for gid, engine in games.items():
        try:
            templates[gid] = _templates(engine, cfg.engine_seeds, cfg.playout_cap)
        except Exception as exc:
            rep.add("scale", gid, "skipped", f"playout failed: {type(exc).__name__}: {exc}"[:100])
    kinds = sorted(templates)
    if not kinds:
        raise SetupFailed("no game to store")
    active: list[str] = []
    actions = 0
    batch: list[tuple[GameRecord, list[LogEntry]]] = []
    store = await open_storage(str(path))
    try:
        for i in range(cfg.scale_games):
            gid = kinds[i % len(kinds)]
            tpl = templates[gid][(i // len(kinds)) % len(templates[gid])]
            is_active = i % cfg.scale_active_every == 0
            channel = f"sc{i // cfg.scale_active_every}"
            log = tpl.half if is_active else tpl.log
            rec = GameRecord(
                channel_id=channel, guild_id="bench", kind=gid,
                status="active" if is_active else ("finished" if tpl.finished else "abandoned"),
                host_id="b1", options=tpl.options, seats=[SeatRecord(player=s.player, name=s.name)
                                                          for s in seats_for(tpl.n)],
                seed=tpl.seed, rules_version=games[gid].rules_version, state=tpl.mid if is_active else tpl.final,
                version=len(log) + 3, created_at=NOW, updated_at=NOW + len(log) * 60,
                deadline_at=NOW + 48 * 3600 if is_active else None, settings=DEFAULT_SETTINGS)
            batch.append((rec, log))
            actions += len(log)
            if is_active:
                active.append(channel)
            if len(batch) >= BATCH:
                await store.import_games(batch)
                batch.clear()
        await store.import_games(batch)
    finally:
        await store.close()
    return active, actions


async def _copy_game(source: Path, target: Path, channel: str) -> None:
    """A database holding only the live game of one channel (its record and log)."""
    src, dst = await open_storage(str(source)), await open_storage(str(target))
    try:
        rec = await src.live_game(channel)
        assert rec is not None
        await dst.import_games([(rec, await src.log(rec.id, include_undone=True))])
    finally:
        await src.close()
        await dst.close()


def _as_deployed() -> dict[str, str]:
    """The child's environment: that of this process, but allowed to keep compiled bytecode, as the deployed bot
    has it (the Docker image's `pip install .` compiles every module). A shell with PYTHONDONTWRITEBYTECODE=1 (the
    Dockerfile's, some development machines') otherwise made every start-up compile the bot's ~120 modules from
    source again: 0.3-0.5 s of CPU, timed as start-up. The discarded warm-up start writes the bytecode."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def child(db: Path, first: str, sample: list[str], cached: list[str]) -> tuple[float, dict[str, Any]]:
    """Run `child.py` on a database: wall time of the whole process, and what it measured."""
    arg = json.dumps({"db": str(db), "first": first, "sample": sample, "cached": cached})
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "tools.bench.child", arg], cwd=ROOT, capture_output=True, text=True,
                         timeout=600, check=False, env=_as_deployed())
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "child failed")
    return wall, json.loads(out.stdout.strip().splitlines()[-1])


async def bench_scale(cfg: Config, games: dict[str, Engine], rep: Report, tmp: Path) -> None:
    big = tmp / "scale.sqlite3"
    t0 = time.perf_counter()
    try:
        active, actions = await build_db(big, games, cfg, rep)
    except SetupFailed as exc:
        rep.add("scale", "all", "skipped", str(exc))
        return
    build_s = time.perf_counter() - t0
    size = sum(p.stat().st_size for p in tmp.glob("scale.sqlite3*"))
    per_game_kb = size / cfg.scale_games / 1024
    rep.add("scale", f"{cfg.scale_games} games ({len(active)} active, {actions} actions)",
            "database size per game", f"{per_game_kb:.1f} KB ({size / 2**20:.0f} MB total)", round(per_game_kb, 2))
    small = tmp / "one.sqlite3"  # for comparison of start-up
    await _copy_game(big, small, active[0])
    startup: dict[str, list[tuple[float, dict[str, Any]]]] = {"one": [], "big": []}
    warm = 1 if cfg.startup_runs > 1 else 0  # a first start-up warms the OS file cache; discarded
    for _ in range(warm + cfg.startup_runs):
        startup["one"].append(child(small, active[0], [], []))
        startup["big"].append(child(big, active[0], [], []))
    for key in startup:
        startup[key] = startup[key][warm:]
    wall_big = med([w for w, _ in startup["big"]])
    wall_one = med([w for w, _ in startup["one"]])
    inner = startup["big"][len(startup["big"]) // 2][1]
    cpu_big = med([d["cpu_s"] for _, d in startup["big"]])  # wall time on 2 cores: the check runs beside the imports
    rep.add("scale", f"{cfg.scale_games} stored games", "start-up to first answered command (new process)",
            f"{wall_big:.2f} s, CPU {cpu_big:.2f} s (1 stored game: {wall_one:.2f} s; imports "
            f"{inner['import_s']:.2f}, open {inner['open_s'] * 1000:.0f} ms (the check's rest), "
            f"first reply {inner['first_reply_s'] * 1000:.0f} ms)",
            round(wall_big, 3), f"<= {TARGETS['startup_s']:.0f} s", wall_big <= TARGETS["startup_s"])
    sample = active[1:1 + cfg.cold_sample]
    cached = active[1 + cfg.cold_sample:1 + cfg.cold_sample + cfg.cached_games]
    _, mem = child(big, active[0], sample, cached)
    cold = mem["cold_s"]
    rep.add("scale", f"{cfg.scale_games} stored games", "cold game open (/game status, no image) p50 / p95",
            f"{ms(med(cold)):.1f} / {ms(pct(cold, 95)):.1f} ms", {"p50_ms": ms(med(cold)), "p95_ms": ms(pct(cold, 95))})
    per = (mem["rss_after"] - mem["rss_base"]) / max(1, mem["cached"]) / 1024
    held = f"{mem['cached']} active games cached ({mem.get('opened', mem['cached']):,} opened)"
    rep.add("scale", held, "resident memory per cached game",
            f"{per:.1f} KB (RSS {mem['rss_base'] / 2**20:.0f} -> {mem['rss_after'] / 2**20:.0f} MB)",
            round(per, 1), f"<= {TARGETS['kb_per_cached_game']:.0f} KB", per <= TARGETS["kb_per_cached_game"])
    if "full_gc_s" in mem:
        rep.add("scale", held, "a full garbage collection (CPU) | tracked objects",
                f"{ms(mem['full_gc_s']):.1f} ms | {mem['tracked']:,}", {"full_gc_ms": ms(mem["full_gc_s"]),
                                                                         "tracked": mem["tracked"]})
    rep.details["scale"] = {"games": cfg.scale_games, "active": len(active), "actions": actions,
                            "build_s": round(build_s, 2), "db_bytes": size,
                            "startup_big": [{"wall_s": w, **d} for w, d in startup["big"]],
                            "startup_one": [{"wall_s": w, **d} for w, d in startup["one"]],
                            "cold_ms": [ms(x) for x in cold], "memory": {k: v for k, v in mem.items() if k != "cold_s"}}
